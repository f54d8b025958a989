/* runqueue_test.c: the run queue takes turns round robin, falls back to the idle thread, and ends a slice after its ticks. */
#include <kobold/ktest.h>
#include <kobold/sched.h>

static void task_init(struct task_struct *p, int pid)
{
	*p = (struct task_struct){ .state = TASK_RUNNING, .pid = pid, .time_slice = DEF_TIMESLICE };
	INIT_LIST_HEAD(&p->run_list);
}

static void runqueue_takes_turns_round_robin(struct ktest *t)
{
	struct task_struct idle, a, b, c;
	struct rq rq;

	task_init(&idle, 0);
	task_init(&a, 1);
	task_init(&b, 2);
	task_init(&c, 3);
	rq_init(&rq, &idle);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &idle), &idle); /* nothing runnable */
	enqueue_task(&rq, &a);
	enqueue_task(&rq, &b);
	enqueue_task(&rq, &a); /* already queued: once */
	KTEST_EXPECT_EQ(t, rq.nr_running, 2);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &idle), &a);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &a), &b); /* a goes to the tail */
	enqueue_task(&rq, &c);				     /* woken: after a */
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &b), &a);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &a), &c);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &c), &b);
	enqueue_task(&rq, &idle); /* the idle thread never queues */
	KTEST_EXPECT_EQ(t, rq.nr_running, 3);
}

static void runqueue_a_sleeper_leaves_the_queue(struct ktest *t)
{
	struct task_struct idle, a, b;
	struct rq rq;

	task_init(&idle, 0);
	task_init(&a, 1);
	task_init(&b, 2);
	rq_init(&rq, &idle);
	enqueue_task(&rq, &a);
	enqueue_task(&rq, &b);
	a.state = TASK_INTERRUPTIBLE;
	dequeue_task(&rq, &a); /* as schedule() does for a thread going to sleep */
	KTEST_EXPECT_FALSE(t, task_queued(&a));
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &a), &b);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &b), &b); /* alone: keeps the CPU */
	dequeue_task(&rq, &b);
	dequeue_task(&rq, &b); /* not queued: nothing happens */
	KTEST_EXPECT_EQ(t, rq.nr_running, 0);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rq, &b), &idle);
}

static void runqueue_a_slice_ends_after_its_ticks(struct ktest *t)
{
	struct task_struct idle, a;
	struct rq rq;
	int ticks = 0;

	task_init(&idle, 0);
	task_init(&a, 1);
	rq_init(&rq, &idle);
	enqueue_task(&rq, &a);
	while (!task_tick(&rq, &a))
		ticks++;
	KTEST_EXPECT_EQ(t, ticks + 1, DEF_TIMESLICE);
	KTEST_EXPECT_EQ(t, a.time_slice, DEF_TIMESLICE); /* refilled for its next turn */
	KTEST_EXPECT_EQ(t, a.utime, DEF_TIMESLICE);
	KTEST_EXPECT_TRUE(t, task_tick(&rq, &idle)); /* idle with a thread runnable: switch */
	dequeue_task(&rq, &a);
	KTEST_EXPECT_FALSE(t, task_tick(&rq, &idle));
}

static const struct ktest_case runqueue_cases[] = {
	KTEST_CASE(runqueue_takes_turns_round_robin),
	KTEST_CASE(runqueue_a_sleeper_leaves_the_queue),
	KTEST_CASE(runqueue_a_slice_ends_after_its_ticks),
	KTEST_END,
};

static struct ktest_suite runqueue_suite = {
	.name = "runqueue",
	.cases = runqueue_cases,
};
KTEST_SUITE(runqueue_suite);
