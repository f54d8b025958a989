/*
 * workqueue.c: queues of deferred work, each run by its worker thread
 * (kernel/keventd.c); the default queue, keventd's, also by the shell
 * before a command.
 */
#include <kobold/irqflags.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/workqueue.h>

static struct workqueue_struct keventd_wq = {
	.name = "events",
	.pending = LIST_HEAD_INIT(keventd_wq.pending),
	.idle = __WAIT_QUEUE_HEAD_INITIALIZER(keventd_wq.idle),
};
struct workqueue_struct *keventd_workqueue = &keventd_wq;
#define pending_work (keventd_wq.pending)
static struct work_stat stats[WORK_STATS_MAX];
static unsigned long runs_total;

/* Counts a run of func: its own row, or the last row for the rest. */
static void count_run(work_func_t func)
{
	int i;

	runs_total++;
	for (i = 0; i < WORK_STATS_MAX - 1 && stats[i].func && stats[i].func != func; i++)
		;
	if (!stats[i].func)
		stats[i].func = func;
	stats[i].runs++;
}

bool queue_work(struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags = local_irq_save();
	bool queued = !work->pending;

	if (queued) {
		work->pending = true;
		work->wq = wq;
		list_add_tail(&work->entry, &wq->pending);
	}
	local_irq_restore(flags);
	if (queued)
		workqueue_wake_worker(wq);
	return queued;
}

bool schedule_work(struct work_struct *work) { return queue_work(&keventd_wq, work); }

/*
 * Runs the oldest item, in the caller (the worker, or a thread that runs
 * work itself: flush in the caller, udevadm settle). Items of one queue run
 * one at a time, as 2.6's single worker per CPU ran them: false if another
 * thread runs one now (an item may nest another in its own thread).
 */
bool run_workqueue_one(struct workqueue_struct *wq)
{
	unsigned long flags = local_irq_save();
	struct work_struct *work = NULL;
	struct work_run run = { NULL, NULL };

	if (!list_empty(&wq->pending) && (!wq->running || wq->runner == current)) {
		work = list_first_entry(&wq->pending, struct work_struct, entry);
		list_del_init(&work->entry);
		work->pending = false; /* before it runs: it may queue itself again */
		if (!wq->running++)
			wq->runner = current;
		run = (struct work_run){ .work = work, .outer = wq->current_run };
		wq->current_run = &run;
	}
	local_irq_restore(flags);
	if (!work)
		return false;
	count_run(work->func);
	work->func(work); /* work may be freed now: not touched again */
	flags = local_irq_save();
	wq->current_run = run.outer;
	if (!--wq->running)
		wq->runner = NULL;
	local_irq_restore(flags);
	wake_up(&wq->idle); /* flush_workqueue's waiters, and a worker kept waiting, look again */
	return true;
}

bool run_scheduled_work(void) { return run_workqueue_one(&keventd_wq); }

static bool workqueue_idle(struct workqueue_struct *wq)
{
	unsigned long flags = local_irq_save();
	bool idle = list_empty(&wq->pending) && !wq->running;

	local_irq_restore(flags);
	return idle;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	if (workqueue_flush_in_caller(wq)) {
		while (run_workqueue_one(wq))
			;
		return;
	}
	wait_event(wq->idle, workqueue_idle(wq));
}

void flush_scheduled_work(void) { flush_workqueue(&keventd_wq); }

static struct workqueue_struct *__create_workqueue(const char *name, bool singlethread)
{
	struct workqueue_struct *wq = kzalloc(sizeof(*wq));

	if (!wq)
		return NULL;
	wq->name = name;
	wq->singlethread = singlethread;
	INIT_LIST_HEAD(&wq->pending);
	init_waitqueue_head(&wq->idle);
	if (workqueue_start_worker(wq)) {
		kfree(wq);
		return NULL;
	}
	return wq;
}

struct workqueue_struct *create_workqueue(const char *name)
{
	return __create_workqueue(name, false);
}

struct workqueue_struct *create_singlethread_workqueue(const char *name)
{
	return __create_workqueue(name, true);
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	flush_workqueue(wq);
	workqueue_stop_worker(wq);
	kfree(wq);
}

/*
 * Takes work off its queue if it is on one; interrupts off. Pending but off
 * the list is cancel_work_sync's hold, which stays.
 */
static bool unqueue(struct work_struct *work)
{
	bool was = work->pending && !list_empty(&work->entry);

	if (was)
		list_del_init(&work->entry);
	return was;
}

bool cancel_work(struct work_struct *work)
{
	unsigned long flags = local_irq_save();
	bool was = unqueue(work);

	if (was)
		work->pending = false;
	local_irq_restore(flags);
	return was;
}

/*
 * Takes work off its queue and keeps it marked pending, so that queue_work
 * refuses it until release_pending (2.6.22's try_to_grab_pending); true
 * if it was queued.
 */
static bool grab_pending(struct work_struct *work)
{
	unsigned long flags = local_irq_save();
	bool was = unqueue(work);

	work->pending = true;
	local_irq_restore(flags);
	return was;
}

static void release_pending(struct work_struct *work)
{
	unsigned long flags = local_irq_save();

	work->pending = false;
	local_irq_restore(flags);
}

/* True while work runs in another thread; a run in the caller's own cannot end while it waits. */
static bool running_elsewhere(struct workqueue_struct *wq, struct work_struct *work)
{
	unsigned long flags = local_irq_save();
	bool running = false;

	if (wq->runner != current)
		for (struct work_run *r = wq->current_run; r && !running; r = r->outer)
			running = r->work == work;
	local_irq_restore(flags);
	return running;
}

/* Until a run of work that has begun has ended (2.6.22's wait_on_work): each item's end wakes wq->idle. */
static void wait_on_work(struct work_struct *work)
{
	struct workqueue_struct *wq = work->wq;
	int depth;

	if (!wq) /* never queued: never run */
		return;
	depth = release_kernel_lock(); /* the running item may be waiting for it */
	wait_event(wq->idle, !running_elsewhere(wq, work));
	reacquire_kernel_lock(depth);
}

bool cancel_work_sync(struct work_struct *work)
{
	bool was = grab_pending(work);

	wait_on_work(work);
	release_pending(work);
	return was;
}

void delayed_work_timer_fn(unsigned long data)
{
	struct delayed_work *dwork = (struct delayed_work *)data;

	queue_work(dwork->wq, &dwork->work);
}

bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
			unsigned long delay)
{
	unsigned long flags;
	bool busy;

	if (!delay)
		return queue_work(wq, &dwork->work);
	flags = local_irq_save();
	busy = dwork->work.pending || timer_pending(&dwork->timer);
	if (!busy) {
		dwork->wq = wq;
		mod_timer(&dwork->timer, jiffies + delay);
	}
	local_irq_restore(flags);
	return !busy;
}

bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay)
{
	return queue_delayed_work(&keventd_wq, dwork, delay);
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	bool timer = del_timer_sync(&dwork->timer);

	return cancel_work(&dwork->work) || timer;
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	bool was = grab_pending(&dwork->work); /* first: the timer can no longer queue it */

	was |= del_timer_sync(&dwork->timer);
	wait_on_work(&dwork->work);
	release_pending(&dwork->work);
	return was;
}

bool work_pending(const struct work_struct *work)
{
	return work->pending;
}

bool work_pending_any(void)
{
	return !list_empty(&pending_work);
}

bool keventd_busy(void)
{
	unsigned long flags = local_irq_save();
	bool busy = !list_empty(&pending_work) || (keventd_wq.running && keventd_wq.runner != current);

	local_irq_restore(flags);
	return busy;
}

void workqueue_for_each_pending(void (*fn)(const struct work_struct *work, void *arg), void *arg)
{
	unsigned long flags = local_irq_save();
	const struct work_struct *w;

	list_for_each_entry(w, &pending_work, entry)
		fn(w, arg);
	local_irq_restore(flags);
}

const struct work_stat *workqueue_stats(unsigned long *total)
{
	*total = runs_total;
	return stats;
}
