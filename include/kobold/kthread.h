/*
 * kthread.h: kernel threads, as Linux 2.6.22's: kthread_create asks
 * kthreadd (PID 2) to make the thread, which starts stopped until
 * wake_up_process (kthread_run does both); kthread_stop asks it to end and
 * waits until it has, returning what its function returned.
 */
#ifndef KOBOLD_KTHREAD_H
#define KOBOLD_KTHREAD_H

#include <kobold/err.h>
#include <kobold/sched.h>

/* A new thread running threadfn(data), named by the format; ERR_PTR(-ENOMEM) if not. */
struct task_struct *kthread_create(int (*threadfn)(void *data), void *data, const char *namefmt,
				   ...) __printf(3, 4);

#define kthread_run(threadfn, data, namefmt, ...)                                 \
	({                                                                        \
		struct task_struct *__k = kthread_create(threadfn, data, namefmt, \
							 ##__VA_ARGS__);          \
		if (!IS_ERR(__k))                                                 \
			wake_up_process(__k);                                     \
		__k;                                                              \
	})

/*
 * Sets kthread_should_stop() for k, wakes it and waits until its function
 * has returned; returns that value. The thread must not have exited before.
 */
int kthread_stop(struct task_struct *k);
/* For the thread's loop: true once kthread_stop has been called for it. */
bool kthread_should_stop(void);

/*
 * A new thread bound to cpu, named by namefmt with the CPU's number for its
 * %u ("watchdog/%u"), not yet running (Linux 3.7's kthread_create_on_cpu:
 * 2.6 called kthread_create, then kthread_bind, include/kobold/sched.h).
 */
struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data), void *data,
					  unsigned int cpu, const char *namefmt);

/* Starts kthreadd (from sched_init). */
void kthreadd_init(void);

#endif
