/*
 * workqueue_sync_test.c: cancel_work_sync and cancel_delayed_work_sync wait
 * for a run in another thread, holding the work so that nothing queues it
 * meanwhile. Host only: the host has no threads, so the test leaves the
 * queue as run_workqueue_one leaves it in another, and the shim's idle hook
 * (run where the kernel would sleep) is that thread ending its run.
 * kernel/kthread_test.c has the same with real workers, on two CPUs.
 */
#include <kobold/ktest.h>
#include <kobold/irqflags.h>
#include <kobold/sched.h>
#include <kobold/time.h>
#include <kobold/workqueue.h>

#ifdef KOBOLD_HOST

extern void (*host_idle_hook)(void); /* tests/host/shim.c */

static struct {
	struct delayed_work dwork;
	struct work_run run;
	struct task_struct other;
	int runs;
	int queued_meanwhile; /* what queueing it from the other thread returned: 1 or 0 */
	int timer_meanwhile;  /* the same for its timer */
	bool waited;
} s;

static void counted(struct work_struct *work) { s.runs++; }

/* The other thread's run ends, as run_workqueue_one ends it, and wakes the waiters. */
static void end_run_elsewhere(void)
{
	struct workqueue_struct *wq = keventd_workqueue;

	wq->current_run = s.run.outer;
	wq->runner = NULL;
	wq->running = 0;
	wake_up(&wq->idle);
}

/* The other thread, while the caller sleeps: it tries to queue the work again, then its run ends. */
static void other_thread_while_the_caller_sleeps(void)
{
	s.waited = true;
	s.queued_meanwhile = schedule_work(&s.dwork.work);
	s.timer_meanwhile = schedule_delayed_work(&s.dwork, 10);
	end_run_elsewhere();
}

/* The work's run, begun in s.other, as run_workqueue_one records it. */
static void begin_run_elsewhere(void)
{
	struct workqueue_struct *wq = keventd_workqueue;

	s = (typeof(s)){ .other = { .pid = 99 } };
	INIT_DELAYED_WORK(&s.dwork, counted);
	schedule_work(&s.dwork.work);
	cancel_work(&s.dwork.work); /* queued once, so it knows its queue */
	s.run = (struct work_run){ .work = &s.dwork.work, .outer = wq->current_run };
	wq->current_run = &s.run;
	wq->runner = &s.other;
	wq->running = 1;
	host_idle_hook = other_thread_while_the_caller_sleeps;
}

static void workqueue_sync_cancel_waits_for_a_run_elsewhere(struct ktest *t)
{
	begin_run_elsewhere();
	KTEST_EXPECT_FALSE(t, cancel_work_sync(&s.dwork.work)); /* running, not queued */
	host_idle_hook = NULL;
	KTEST_EXPECT_TRUE(t, s.waited);
	KTEST_EXPECT_EQ(t, s.queued_meanwhile, 0); /* held: its run could not queue it again */
	KTEST_EXPECT_FALSE(t, work_pending(&s.dwork.work));
	KTEST_EXPECT_TRUE(t, schedule_work(&s.dwork.work)); /* let go afterwards */
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, s.runs, 1);
}

static void workqueue_sync_cancel_no_wait_when_not_running(struct ktest *t)
{
	begin_run_elsewhere();
	s.run.work = NULL; /* another item runs elsewhere, not this one */
	KTEST_EXPECT_FALSE(t, cancel_work_sync(&s.dwork.work));
	KTEST_EXPECT_FALSE(t, s.waited);
	host_idle_hook = NULL;
	end_run_elsewhere();
}

static void workqueue_sync_cancel_delayed_holds_its_timer_too(struct ktest *t)
{
	unsigned long flags;

	begin_run_elsewhere();
	KTEST_EXPECT_FALSE(t, cancel_delayed_work_sync(&s.dwork));
	host_idle_hook = NULL;
	KTEST_EXPECT_TRUE(t, s.waited);
	KTEST_EXPECT_EQ(t, s.queued_meanwhile, 0);
	KTEST_EXPECT_EQ(t, s.timer_meanwhile, 0); /* its run could not start the timer either */
	KTEST_EXPECT_FALSE(t, timer_pending(&s.dwork.timer));
	flags = local_irq_save(); /* the tick must not fire it */
	KTEST_EXPECT_TRUE(t, schedule_delayed_work(&s.dwork, 1000));
	KTEST_EXPECT_TRUE(t, cancel_delayed_work_sync(&s.dwork)); /* waiting on its timer */
	KTEST_EXPECT_FALSE(t, timer_pending(&s.dwork.timer));
	run_timers(jiffies + 2000);
	local_irq_restore(flags);
	flush_scheduled_work();
	KTEST_EXPECT_EQ(t, s.runs, 0);
}

static const struct ktest_case workqueue_sync_cases[] = {
	KTEST_CASE(workqueue_sync_cancel_waits_for_a_run_elsewhere),
	KTEST_CASE(workqueue_sync_cancel_no_wait_when_not_running),
	KTEST_CASE(workqueue_sync_cancel_delayed_holds_its_timer_too),
	KTEST_END,
};

static const struct ktest_suite workqueue_sync_suite = {
	.name = "workqueue_sync",
	.cases = workqueue_sync_cases,
};
KTEST_SUITE(workqueue_sync_suite);

#endif /* KOBOLD_HOST */
