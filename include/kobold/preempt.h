/*
 * preempt.h: the preemption count, as Linux 2.6's CONFIG_PREEMPT kernel
 * keeps it. Nonzero means the running thread must not be switched away
 * from: it holds a spinlock (each spin_lock adds one), it runs an interrupt
 * handler (HARDIRQ_OFFSET), or it asked with preempt_disable(). When the
 * count drops back to zero with a reschedule pending, preempt_enable()
 * switches at once. The count belongs to the running thread: the scheduler
 * saves it in the task it leaves and loads the next one's (2.6 kept it in
 * thread_info; x86 from 3.13, c2daa3bed53a, in a per-CPU word that its
 * switch code saved and loaded, as here).
 */
#ifndef KOBOLD_PREEMPT_H
#define KOBOLD_PREEMPT_H

#include <kobold/types.h>

#define PREEMPT_MASK 0x000000ff
#define HARDIRQ_OFFSET (1 << 16)
#define HARDIRQ_MASK 0x0fff0000
#define PREEMPT_ACTIVE 0x10000000 /* an interrupt is switching away: keep the task queued */

extern volatile int __preempt_count;
/* Set when the running thread should give the CPU up at its next chance. */
extern volatile bool __need_resched;

#ifndef barrier
#define barrier() __asm__ volatile("" ::: "memory")
#endif

static inline int preempt_count(void) { return __preempt_count; }
static inline bool need_resched(void) { return __need_resched; }
static inline void set_need_resched(void) { __need_resched = true; }

/* The scheduler's entry for preempt_enable(): switches if the count allows it. */
void preempt_schedule(void);

#define preempt_disable()          \
	do {                       \
		__preempt_count++; \
		barrier();         \
	} while (0)
#define preempt_enable_no_resched() \
	do {                        \
		barrier();          \
		__preempt_count--;  \
	} while (0)
#define preempt_enable()                                              \
	do {                                                          \
		preempt_enable_no_resched();                          \
		if (unlikely(__need_resched) && __preempt_count == 0) \
			preempt_schedule();                           \
	} while (0)

#define in_irq() (preempt_count() & HARDIRQ_MASK)
#define in_interrupt() in_irq()
/* A spinlock held, an interrupt handler, or preemption off: sleeping is a bug. */
#define in_atomic() ((preempt_count() & ~PREEMPT_ACTIVE) != 0)

/*
 * In every function that may sleep: if the caller may not (in_atomic() or
 * interrupts off), says so as Linux 2.6.18's __might_sleep, at most once a
 * second: "BUG: sleeping function called from invalid context at FILE:LINE",
 * the count and interrupt state, the locks held, and a backtrace.
 */
void __might_sleep(const char *file, int line);
#define might_sleep() __might_sleep(__FILE__, __LINE__)

/* True once the scheduler runs: before it, boot code may not be checked. */
extern bool scheduler_running;

#endif
