/* workqueue.c: one queue of deferred work, run by the events/0 thread and by the shell before a command. */
#include <kobold/irqflags.h>
#include <kobold/time.h>
#include <kobold/workqueue.h>

static LIST_HEAD(pending_work);
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

bool schedule_work(struct work_struct *work)
{
	unsigned long flags = local_irq_save();
	bool queued = !work->pending;

	if (queued) {
		work->pending = true;
		list_add_tail(&work->entry, &pending_work);
	}
	local_irq_restore(flags);
	if (queued)
		workqueue_wake_worker();
	return queued;
}

bool run_scheduled_work(void)
{
	unsigned long flags = local_irq_save();
	struct work_struct *work = NULL;

	if (!list_empty(&pending_work)) {
		work = list_first_entry(&pending_work, struct work_struct, entry);
		list_del_init(&work->entry);
		work->pending = false; /* before it runs: it may queue itself again */
	}
	local_irq_restore(flags);
	if (work) {
		count_run(work->func);
		work->func(work);
	}
	return work != NULL;
}

void flush_scheduled_work(void)
{
	while (run_scheduled_work())
		;
}

bool cancel_work(struct work_struct *work)
{
	unsigned long flags = local_irq_save();
	bool was = work->pending;

	if (was) {
		list_del_init(&work->entry);
		work->pending = false;
	}
	local_irq_restore(flags);
	return was;
}

void delayed_work_timer_fn(unsigned long data)
{
	schedule_work(&((struct delayed_work *)data)->work);
}

bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	bool busy;

	if (!delay)
		return schedule_work(&dwork->work);
	flags = local_irq_save();
	busy = dwork->work.pending || timer_pending(&dwork->timer);
	if (!busy)
		mod_timer(&dwork->timer, jiffies + delay);
	local_irq_restore(flags);
	return !busy;
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	bool timer = del_timer_sync(&dwork->timer);

	return cancel_work(&dwork->work) || timer;
}

bool work_pending(const struct work_struct *work)
{
	return work->pending;
}

bool work_pending_any(void)
{
	return !list_empty(&pending_work);
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
