/*
 * wait.h: waiting for something another thread or an interrupt handler
 * will do, as Linux's wait queues: a waiter puts an entry on the queue,
 * checks its condition, sleeps (schedule()) until wake_up() marks the entry
 * and makes its thread runnable, and checks again.
 */
#ifndef KOBOLD_WAIT_H
#define KOBOLD_WAIT_H

#include <kobold/list.h>
#include <kobold/types.h>

/*
 * Returns once *flag is true, idling the CPU between interrupts. In the
 * host build, where completions are synchronous, it only checks.
 */
void wait_for_flag(volatile bool *flag);

struct wait_queue_head {
	struct list_head head; /* of wait_queue_entry */
};

struct task_struct;

struct wait_queue_entry {
	struct list_head entry;
	volatile bool woken;
	struct task_struct *task; /* the sleeper, set by prepare_to_wait */
};

#define __WAIT_QUEUE_HEAD_INITIALIZER(name) { LIST_HEAD_INIT((name).head) }
#define DECLARE_WAIT_QUEUE_HEAD(name) \
	struct wait_queue_head name = __WAIT_QUEUE_HEAD_INITIALIZER(name)

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	INIT_LIST_HEAD(&wq->head);
}

/* Puts (or keeps) the entry on the queue, not yet woken; then check the condition. */
void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait);
void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait);
/*
 * Sleeps until wake_up() has marked the entry, or kthread_stop() has asked
 * the thread to end, or, if interruptible, until a signal (Ctrl-C in the
 * kernel's shell): -ERESTARTSYS then, else 0. A wake-up between prepare_to_wait and this call is not lost.
 */
int schedule_wait(struct wait_queue_entry *wait, bool interruptible);
/* Wakes every waiter; any context, interrupt handlers included. */
void wake_up(struct wait_queue_head *wq);

#define __wait_event(wq, condition, intr)                       \
	({                                                      \
		struct wait_queue_entry __wait;                 \
		int __ret = 0;                                  \
		INIT_LIST_HEAD(&__wait.entry);                  \
		for (;;) {                                      \
			prepare_to_wait((wq), &__wait);         \
			if (condition)                          \
				break;                          \
			__ret = schedule_wait(&__wait, (intr)); \
			if (__ret)                              \
				break;                          \
		}                                               \
		finish_wait((wq), &__wait);                     \
		__ret;                                          \
	})

/*
 * Sleeps until condition is true; wq must be woken whenever it may have
 * become so. A condition already true returns at once, without touching
 * the queue, as in Linux 2.6.
 */
#define wait_event(wq, condition)                                    \
	do {                                                         \
		if (!(condition))                                    \
			(void)__wait_event(&(wq), condition, false); \
	} while (0)
/* The same, but a signal (Ctrl-C) ends it early with -ERESTARTSYS, as 2.6's. */
#define wait_event_interruptible(wq, condition) \
	((condition) ? 0 : __wait_event(&(wq), condition, true))

#endif
