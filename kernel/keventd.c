/*
 * keventd.c: the worker threads of the work queues, Linux 2.6's keventd
 * (events/N) and create_workqueue's NAME/N: one per online CPU, bound to
 * it, started when the CPU comes up and stopped when it has gone (2.6's
 * workqueue_cpu_callback). Each sleeps until work is queued and runs it,
 * one item at a time whichever worker runs it, beside whatever else runs
 * (a shell command, boot): each item takes the locks of what it touches
 * (docs/locking.md).
 */
#include <kobold/cpu.h>
#include <kobold/kthread.h>
#include <kobold/printk.h>
#include <kobold/smp_lock.h>
#include <kobold/workqueue.h>

static LIST_HEAD(workqueues); /* every queue with workers, for CPU hotplug */

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

static int start_worker(struct workqueue_struct *wq, unsigned int cpu)
{
	struct task_struct *k = wq->singlethread
					? kthread_create(worker_thread, wq, "%s", wq->name)
					: kthread_create(worker_thread, wq, "%s/%u", wq->name, cpu);

	if (IS_ERR(k))
		return (int)PTR_ERR(k);
	if (!wq->singlethread)
		kthread_bind(k, cpu);
	wq->worker[cpu] = k;
	wake_up_process(k);
	return 0;
}

/* The worker may be waiting for the big kernel lock (a VFS call): it is let go meanwhile. */
static void stop_worker(struct workqueue_struct *wq, unsigned int cpu)
{
	int depth;

	if (!wq->worker[cpu])
		return;
	depth = release_kernel_lock();
	kthread_stop(wq->worker[cpu]);
	reacquire_kernel_lock(depth);
	wq->worker[cpu] = NULL;
}

int workqueue_start_worker(struct workqueue_struct *wq)
{
	unsigned int cpu;
	int err;

	if (wq->singlethread) { /* its one worker stays when CPUs come and go */
		INIT_LIST_HEAD(&wq->list);
		return start_worker(wq, 0);
	}
	for_each_online_cpu(cpu)
	{
		err = start_worker(wq, cpu);
		if (err) {
			workqueue_stop_worker(wq);
			return err;
		}
	}
	list_add_tail(&wq->list, &workqueues);
	return 0;
}

void workqueue_stop_worker(struct workqueue_struct *wq)
{
	if (wq->list.next)
		list_del_init(&wq->list);
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		stop_worker(wq, cpu);
}

/* This CPU's worker if it has one, else the first there is. */
void workqueue_wake_worker(struct workqueue_struct *wq)
{
	struct task_struct *k = wq->worker[smp_processor_id()];

	for (unsigned int cpu = 0; !k && cpu < NR_CPUS; cpu++)
		k = wq->worker[cpu];
	if (k)
		wake_up_process(k);
}

static bool is_worker(const struct workqueue_struct *wq, const struct task_struct *p)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		if (wq->worker[cpu] == p)
			return true;
	return false;
}

/* The worker may need the big kernel lock (a VFS call): its holder would wait for ever. */
bool workqueue_flush_in_caller(struct workqueue_struct *wq)
{
	return !wq->worker[0] || is_worker(wq, current) || kernel_locked();
}

/* A CPU up: its workers start; a CPU gone: its workers (moved off it) stop. */
static int workqueue_cpu_callback(struct notifier_block *nb, unsigned long action, void *hcpu)
{
	unsigned int cpu = (unsigned int)(unsigned long)hcpu;
	struct workqueue_struct *wq;

	list_for_each_entry(wq, &workqueues, list) {
		if (action == CPU_ONLINE && start_worker(wq, cpu))
			pr_err("workqueue: no %s/%u thread\n", wq->name, cpu);
		else if (action == CPU_DEAD)
			stop_worker(wq, cpu);
	}
	return NOTIFY_OK;
}

static struct notifier_block workqueue_cpu_notifier = {
	.notifier_call = workqueue_cpu_callback,
};

void init_workqueues(void)
{
	register_cpu_notifier(&workqueue_cpu_notifier);
	if (workqueue_start_worker(keventd_workqueue))
		pr_err("workqueue: no events/0 thread: work runs only in the shell\n");
}
