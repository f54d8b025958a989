/*
 * keventd.c: the worker threads of the work queues, Linux 2.6's keventd
 * (events/0) and create_workqueue's NAME/0: each sleeps until work is
 * queued and runs it, one item at a time, beside whatever else runs (a
 * shell command, boot): each item takes the locks of what it touches
 * (docs/locking.md).
 */
#include <kobold/kthread.h>
#include <kobold/printk.h>
#include <kobold/smp_lock.h>
#include <kobold/workqueue.h>

static int worker_thread(void *data)
{
	struct workqueue_struct *wq = data;

	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (list_empty(&wq->pending) && !kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
		if (!run_workqueue_one(wq)) /* another thread runs an item of ours: after it */
			wait_event(wq->idle, !wq->running || kthread_should_stop());
	}
	return 0;
}

int workqueue_start_worker(struct workqueue_struct *wq)
{
	struct task_struct *k = kthread_run(worker_thread, wq, "%s/%d", wq->name, 0);

	if (IS_ERR(k))
		return (int)PTR_ERR(k);
	wq->worker = k;
	return 0;
}

/* The worker may be waiting for the big kernel lock (a VFS call): it is let go meanwhile. */
void workqueue_stop_worker(struct workqueue_struct *wq)
{
	int depth;

	if (!wq->worker)
		return;
	depth = release_kernel_lock();
	kthread_stop(wq->worker);
	reacquire_kernel_lock(depth);
	wq->worker = NULL;
}

void workqueue_wake_worker(struct workqueue_struct *wq)
{
	if (wq->worker)
		wake_up_process(wq->worker);
}

/* The worker may need the big kernel lock (a VFS call): its holder would wait for ever. */
bool workqueue_flush_in_caller(struct workqueue_struct *wq)
{
	return !wq->worker || current == wq->worker || kernel_locked();
}

void init_workqueues(void)
{
	if (workqueue_start_worker(keventd_workqueue))
		pr_err("workqueue: no events/0 thread: work runs only in the shell\n");
}
