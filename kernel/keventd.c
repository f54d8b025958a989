/*
 * keventd.c: the events/0 worker thread, Linux 2.6's keventd: it sleeps
 * until work is queued and runs it, one item at a time, each under the big
 * kernel lock, so it never runs beside a shell command (which holds that
 * lock) but runs while the shells wait for a key.
 */
#include <kobold/kthread.h>
#include <kobold/printk.h>
#include <kobold/smp_lock.h>
#include <kobold/workqueue.h>

static struct task_struct *keventd;

static int worker_thread(void *unused)
{
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!work_pending_any())
			schedule();
		__set_current_state(TASK_RUNNING);
		lock_kernel();
		run_scheduled_work();
		unlock_kernel();
	}
	return 0;
}

void workqueue_wake_worker(void)
{
	if (keventd)
		wake_up_process(keventd);
}

void init_workqueues(void)
{
	struct task_struct *k = kthread_run(worker_thread, NULL, "events/%d", 0);

	if (IS_ERR(k)) {
		pr_err("workqueue: no events/0 thread: work runs only in the shell\n");
		return;
	}
	keventd = k;
}
