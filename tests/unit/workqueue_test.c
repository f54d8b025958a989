/* workqueue_test.c: queued work runs once, in order, and may queue itself again. */
#include <kobold/types.h>
#include <kobold/ktest.h>
#include <kobold/irqflags.h>
#include <kobold/time.h>
#include <kobold/workqueue.h>

struct job {
	struct work_struct work;
	int runs;
	int slices; /* how many more times it queues itself */
	int order;  /* when it last ran */
	struct ktest *t;
};

static int clock;

static void job_fn(struct work_struct *work)
{
	struct job *j = container_of(work, struct job, work);

	j->runs++;
	j->order = ++clock;
	if (j->slices > 0) {
		j->slices--;
		schedule_work(&j->work);
	}
}

static void workqueue_runs_each_once_in_order(struct ktest *t)
{
	struct job a = { 0 }, b = { 0 };

	INIT_WORK(&a.work, job_fn);
	INIT_WORK(&b.work, job_fn);
	clock = 0;
	KTEST_EXPECT_TRUE(t, schedule_work(&a.work));
	KTEST_EXPECT_TRUE(t, schedule_work(&b.work));
	KTEST_EXPECT_FALSE(t, schedule_work(&a.work)); /* already queued: runs once */
	KTEST_EXPECT_TRUE(t, work_pending(&a.work));
	KTEST_EXPECT_TRUE(t, run_scheduled_work());
	KTEST_EXPECT_EQ(t, a.runs, 1);
	KTEST_EXPECT_EQ(t, b.runs, 0);
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, a.runs, 1);
	KTEST_EXPECT_EQ(t, b.runs, 1);
	KTEST_EXPECT_TRUE(t, a.order < b.order);
	KTEST_EXPECT_FALSE(t, run_scheduled_work());
}

static void workqueue_flush_runs_slices_it_queues(struct ktest *t)
{
	struct job a = { .slices = 3 }, b = { 0 };

	INIT_WORK(&a.work, job_fn);
	INIT_WORK(&b.work, job_fn);
	clock = 0;
	schedule_work(&a.work);
	schedule_work(&b.work);
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, a.runs, 4);
	KTEST_EXPECT_EQ(t, b.runs, 1);
	KTEST_EXPECT_EQ(t, b.order, 2); /* a's second slice queued behind b */
	KTEST_EXPECT_FALSE(t, work_pending(&a.work));
}

static void workqueue_cancel_takes_it_off(struct ktest *t)
{
	struct job a = { 0 };

	INIT_WORK(&a.work, job_fn);
	KTEST_EXPECT_FALSE(t, cancel_work(&a.work));
	schedule_work(&a.work);
	KTEST_EXPECT_TRUE(t, cancel_work(&a.work));
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, a.runs, 0);
}

/* Queues itself again from its own run, then cancels itself: no wait on its own run. */
static void self_cancel_fn(struct work_struct *work)
{
	struct job *j = container_of(work, struct job, work);

	j->runs++;
	KTEST_EXPECT_TRUE(j->t, schedule_work(work));
	j->order = cancel_work_sync(work); /* in its own run: returns, does not wait for itself */
}

static void workqueue_cancel_sync_takes_it_off_and_holds_it(struct ktest *t)
{
	struct job a = { .slices = 1 }, s = { .t = t };

	INIT_WORK(&a.work, job_fn);
	KTEST_EXPECT_FALSE(t, cancel_work_sync(&a.work)); /* never queued */
	schedule_work(&a.work);
	KTEST_EXPECT_TRUE(t, cancel_work_sync(&a.work));
	KTEST_EXPECT_FALSE(t, work_pending(&a.work));
	KTEST_EXPECT_FALSE(t, run_scheduled_work());
	KTEST_EXPECT_EQ(t, a.runs, 0);
	KTEST_EXPECT_TRUE(t, schedule_work(&a.work)); /* let go: it may be queued again */
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, a.runs, 2);
	INIT_WORK(&s.work, self_cancel_fn);
	schedule_work(&s.work);
	KTEST_EXPECT_TRUE(t, run_scheduled_work());
	KTEST_EXPECT_EQ(t, s.runs, 1);
	KTEST_EXPECT_EQ(t, s.order, 1); /* it was queued, and is no more */
	KTEST_EXPECT_FALSE(t, work_pending(&s.work));
	KTEST_EXPECT_FALSE(t, run_scheduled_work());
}

static void count_pending(const struct work_struct *work, void *arg)
{
	(*(int *)arg)++;
}

static unsigned long runs_of(work_func_t func)
{
	unsigned long total;
	const struct work_stat *st = workqueue_stats(&total);

	for (int i = 0; i < WORK_STATS_MAX; i++)
		if (st[i].func == func)
			return st[i].runs;
	return 0;
}

static void workqueue_lists_pending_and_counts_runs(struct ktest *t)
{
	struct job a = { .slices = 2 }, b = { 0 };
	unsigned long before = runs_of(job_fn), total_before, total;
	int pending = 0;

	workqueue_stats(&total_before);
	INIT_WORK(&a.work, job_fn);
	INIT_WORK(&b.work, job_fn);
	schedule_work(&a.work);
	schedule_work(&b.work);
	workqueue_for_each_pending(count_pending, &pending);
	KTEST_EXPECT_EQ(t, pending, 2);
	flush_scheduled_work();
	pending = 0;
	workqueue_for_each_pending(count_pending, &pending);
	KTEST_EXPECT_EQ(t, pending, 0);
	KTEST_EXPECT_EQ(t, runs_of(job_fn), before + 4);
	workqueue_stats(&total);
	KTEST_EXPECT_EQ(t, total, total_before + 4);
}

struct later {
	struct delayed_work dwork;
	int runs;
};

static void later_fn(struct work_struct *work)
{
	container_of(to_delayed_work(work), struct later, dwork)->runs++;
}

static void workqueue_delayed_work_waits_for_its_timer(struct ktest *t)
{
	struct later a = { .runs = 0 }, b = { .runs = 0 };
	unsigned long flags = local_irq_save(); /* the tick must not fire these timers */

	INIT_DELAYED_WORK(&a.dwork, later_fn);
	INIT_DELAYED_WORK(&b.dwork, later_fn);
	KTEST_EXPECT_TRUE(t, schedule_delayed_work(&a.dwork, 1000));
	KTEST_EXPECT_FALSE(t, schedule_delayed_work(&a.dwork, 5)); /* already waiting */
	KTEST_EXPECT_FALSE(t, work_pending(&a.dwork.work));	   /* not queued yet */
	run_timers(jiffies + 999);
	KTEST_EXPECT_FALSE(t, work_pending(&a.dwork.work));
	run_timers(jiffies + 1000);
	KTEST_EXPECT_TRUE(t, work_pending(&a.dwork.work));
	KTEST_EXPECT_FALSE(t, schedule_delayed_work(&a.dwork, 5)); /* queued */
	KTEST_EXPECT_TRUE(t, schedule_delayed_work(&b.dwork, 1000));
	KTEST_EXPECT_TRUE(t, cancel_delayed_work(&b.dwork)); /* its timer goes */
	KTEST_EXPECT_FALSE(t, cancel_delayed_work(&b.dwork));
	run_timers(jiffies + 2000);
	KTEST_EXPECT_FALSE(t, work_pending(&b.dwork.work));
	local_irq_restore(flags);
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, a.runs, 1);
	KTEST_EXPECT_EQ(t, b.runs, 0);
	KTEST_EXPECT_TRUE(t, schedule_delayed_work(&b.dwork, 0)); /* 0: queued at once */
	KTEST_EXPECT_TRUE(t, cancel_delayed_work(&b.dwork));	  /* taken off the queue */
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, b.runs, 0);
}

static void workqueue_a_queue_of_its_own(struct ktest *t)
{
	struct workqueue_struct *wq = create_workqueue("ktest");
	struct later d = { .runs = 0 };
	struct job a = { 0 };

	KTEST_ASSERT_TRUE(t, wq != NULL);
	INIT_WORK(&a.work, job_fn);
	INIT_DELAYED_WORK(&d.dwork, later_fn);
	KTEST_EXPECT_TRUE(t, queue_work(wq, &a.work));
	KTEST_EXPECT_FALSE(t, queue_work(wq, &a.work));
	KTEST_EXPECT_TRUE(t, queue_delayed_work(wq, &d.dwork, 0));
	KTEST_EXPECT_FALSE(t, work_pending_any()); /* not on keventd's queue */
	flush_workqueue(wq);			   /* the big kernel lock's holder (the tests) runs them itself */
	KTEST_EXPECT_EQ(t, a.runs, 1);
	KTEST_EXPECT_EQ(t, d.runs, 1);
	KTEST_EXPECT_TRUE(t, list_empty(&wq->pending));
	queue_work(wq, &a.work);
	destroy_workqueue(wq); /* runs what is left first */
	KTEST_EXPECT_EQ(t, a.runs, 2);
}

static const struct ktest_case workqueue_cases[] = {
	KTEST_CASE(workqueue_runs_each_once_in_order),
	KTEST_CASE(workqueue_flush_runs_slices_it_queues),
	KTEST_CASE(workqueue_cancel_takes_it_off),
	KTEST_CASE(workqueue_cancel_sync_takes_it_off_and_holds_it),
	KTEST_CASE(workqueue_lists_pending_and_counts_runs),
	KTEST_CASE(workqueue_delayed_work_waits_for_its_timer),
	KTEST_CASE(workqueue_a_queue_of_its_own),
	KTEST_END,
};

static const struct ktest_suite workqueue_suite = {
	.name = "workqueue",
	.cases = workqueue_cases,
};
KTEST_SUITE(workqueue_suite);
