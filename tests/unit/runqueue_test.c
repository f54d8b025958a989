/*
 * runqueue_test.c: the run queue takes turns round robin, falls back to the
 * idle thread, and ends a slice after its ticks; among several CPUs' queues a
 * waking thread goes to an idle CPU it may run on, else the least loaded, an
 * idle CPU takes only a waiting thread allowed on it, and load balancing
 * pulls half the difference from the busiest queue, bound threads left.
 */
#include <kobold/ktest.h>
#include <kobold/sched.h>

static void task_init(struct task_struct *p, int pid)
{
	*p = (struct task_struct){ .state = TASK_RUNNING,
				   .pid = pid,
				   .time_slice = DEF_TIMESLICE,
				   .cpus_allowed = CPU_MASK_ALL };
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
	KTEST_EXPECT_TRUE(t, task_tick(&rq, &idle));	 /* idle with a thread runnable: switch */
	dequeue_task(&rq, &a);
	KTEST_EXPECT_FALSE(t, task_tick(&rq, &idle));
}

#define NCPU 3

/* Three CPUs, each running its idle thread, all active. */
static void cpus_init(struct rq *rqs, struct task_struct *idle)
{
	for (unsigned int cpu = 0; cpu < NCPU; cpu++) {
		task_init(&idle[cpu], 0);
		rq_init(&rqs[cpu], &idle[cpu]);
		rqs[cpu].cpu = cpu;
		rqs[cpu].curr = &idle[cpu];
		rqs[cpu].active = true;
	}
}

/* Makes p the running thread of rqs[cpu]. */
static void run_on(struct rq *rqs, unsigned int cpu, struct task_struct *p)
{
	p->cpu = cpu;
	enqueue_task(&rqs[cpu], p);
	rqs[cpu].curr = p;
}

static void runqueue_a_waking_thread_goes_to_an_idle_cpu(struct ktest *t)
{
	struct task_struct idle[NCPU], a, b, w;
	struct rq rqs[NCPU];

	cpus_init(rqs, idle);
	task_init(&a, 1);
	task_init(&b, 2);
	task_init(&w, 3);
	w.cpu = 1;
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 0), 1); /* its own CPU is idle */
	run_on(rqs, 1, &a);
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 0), 0); /* then the waker's */
	run_on(rqs, 0, &b);
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 0), 2); /* then any idle one */
	rqs[2].active = false;					 /* going down: takes nothing */
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 0), 1); /* busy: its own, as loaded */
	enqueue_task(&rqs[1], &w);
	dequeue_task(&rqs[1], &w);
	w.cpus_allowed = 1UL << 2; /* bound to the CPU going down */
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 0), -1);
}

static void runqueue_the_least_loaded_cpu_takes_a_waking_thread(struct ktest *t)
{
	struct task_struct idle[NCPU], a, b, c, w;
	struct rq rqs[NCPU];

	cpus_init(rqs, idle);
	task_init(&a, 1);
	task_init(&b, 2);
	task_init(&c, 3);
	task_init(&w, 4);
	run_on(rqs, 0, &a);
	enqueue_task(&rqs[0], &b); /* CPU 0: two runnable */
	run_on(rqs, 1, &c);	   /* CPU 1: one */
	rqs[2].active = false;
	w.cpu = 0;
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 0), 1);
	w.cpus_allowed = 1UL << 0; /* bound: its CPU, however loaded */
	KTEST_EXPECT_EQ(t, select_task_rq(rqs, NCPU, &w, 1), 0);
}

static void runqueue_an_idle_cpu_takes_only_a_waiting_allowed_thread(struct ktest *t)
{
	struct task_struct idle[NCPU], a, b, c;
	struct rq rqs[NCPU];

	cpus_init(rqs, idle);
	task_init(&a, 1);
	task_init(&b, 2);
	task_init(&c, 3);
	run_on(rqs, 0, &a);
	KTEST_EXPECT_PTR_EQ(t, steal_candidate(&rqs[0], 1), NULL); /* a runs: not it */
	b.cpus_allowed = 1UL << 0;
	enqueue_task(&rqs[0], &b);
	KTEST_EXPECT_PTR_EQ(t, steal_candidate(&rqs[0], 1), NULL); /* b is bound to CPU 0 */
	enqueue_task(&rqs[0], &c);
	KTEST_EXPECT_PTR_EQ(t, steal_candidate(&rqs[0], 1), &c);
	migrate_task(&rqs[0], &rqs[1], &c);
	KTEST_EXPECT_EQ(t, c.cpu, 1);
	KTEST_EXPECT_EQ(t, rqs[0].nr_running, 2);
	KTEST_EXPECT_EQ(t, rqs[1].nr_running, 1);
	KTEST_EXPECT_PTR_EQ(t, pick_next_task(&rqs[1], &idle[1]), &c);
}

static void runqueue_balancing_pulls_half_the_difference_from_the_busiest(struct ktest *t)
{
	struct task_struct idle[NCPU], a[5], b, c;
	struct rq rqs[NCPU];
	unsigned int imbalance = 99;

	cpus_init(rqs, idle);
	for (int i = 0; i < 5; i++)
		task_init(&a[i], 10 + i);
	task_init(&b, 2);
	task_init(&c, 3);
	KTEST_EXPECT_PTR_EQ(t, find_busiest_queue(rqs, NCPU, 1, &imbalance), NULL); /* all idle */
	run_on(rqs, 0, &a[0]);
	KTEST_EXPECT_PTR_EQ(t, find_busiest_queue(rqs, NCPU, 1, &imbalance), NULL); /* 1 vs 0 */
	enqueue_task(&rqs[0], &a[1]);
	enqueue_task(&rqs[0], &a[2]);
	enqueue_task(&rqs[0], &a[3]);
	a[1].cpus_allowed = 1UL << 0; /* bound to CPU 0: stays */
	run_on(rqs, 1, &b);
	run_on(rqs, 2, &c);
	KTEST_EXPECT_PTR_EQ(t, find_busiest_queue(rqs, NCPU, 1, &imbalance), &rqs[0]);
	KTEST_EXPECT_EQ(t, imbalance, 1); /* 4 against 1: one moves */
	KTEST_EXPECT_EQ(t, pull_tasks(&rqs[0], &rqs[1], imbalance), 1);
	KTEST_EXPECT_EQ(t, a[2].cpu, 1); /* not a[0], which runs, nor a[1], bound */
	KTEST_EXPECT_EQ(t, rqs[0].nr_running, 3);
	KTEST_EXPECT_EQ(t, rqs[1].nr_running, 2);
	KTEST_EXPECT_PTR_EQ(t, find_busiest_queue(rqs, NCPU, 2, &imbalance), &rqs[0]); /* 3 vs 1 */
	rqs[0].active = false;							       /* going down: its threads are pushed, not pulled */
	KTEST_EXPECT_PTR_EQ(t, find_busiest_queue(rqs, NCPU, 2, &imbalance), NULL);
	rqs[0].active = true;
	enqueue_task(&rqs[0], &a[4]);
	KTEST_EXPECT_EQ(t, pull_tasks(&rqs[0], &rqs[2], 5), 2); /* a[3] and a[4]; a[1] stays */
	KTEST_EXPECT_EQ(t, a[1].cpu, 0);
	KTEST_EXPECT_EQ(t, rqs[0].nr_running, 2);
}

static const struct ktest_case runqueue_cases[] = {
	KTEST_CASE(runqueue_takes_turns_round_robin),
	KTEST_CASE(runqueue_a_sleeper_leaves_the_queue),
	KTEST_CASE(runqueue_a_slice_ends_after_its_ticks),
	KTEST_CASE(runqueue_a_waking_thread_goes_to_an_idle_cpu),
	KTEST_CASE(runqueue_the_least_loaded_cpu_takes_a_waking_thread),
	KTEST_CASE(runqueue_an_idle_cpu_takes_only_a_waiting_allowed_thread),
	KTEST_CASE(runqueue_balancing_pulls_half_the_difference_from_the_busiest),
	KTEST_END,
};

static struct ktest_suite runqueue_suite = {
	.name = "runqueue",
	.cases = runqueue_cases,
};
KTEST_SUITE(runqueue_suite);
