/*
 * kthread_test.c: `test=kthread`, kernel only: threads start and stop,
 * completions and wait queues pass the CPU between them, timers and msleep
 * keep time, a mutex and a semaphore make contenders wait their turn, and
 * the tick preempts a thread that never sleeps (CONFIG_PREEMPT); a bound
 * thread runs on its CPU, busy threads run on every CPU at once, a CPU
 * taken down gives its threads to the others, set_cpus_allowed moves a
 * running thread (through [migration/N]) and the tick's load balancing
 * pulls threads to a busy CPU, leaving the bound ones where they are;
 * cancel_work_sync waits for a work item running on another CPU.
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/completion.h>
#include <kobold/cpu.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/kthread.h>
#include <kobold/mutex.h>
#include <kobold/semaphore.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/timer.h>
#include <kobold/wait.h>
#include <kobold/workqueue.h>

static int count_until_stopped(void *data)
{
	volatile int *n = data;

	while (!kthread_should_stop()) {
		(*n)++;
		msleep(1);
	}
	return 42;
}

static void kthread_runs_until_stopped(struct ktest *t)
{
	volatile int n = 0;
	struct task_struct *k = kthread_run(count_until_stopped, (void *)&n, "ktest/%d", 1);

	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	KTEST_EXPECT_STREQ(t, k->comm, "ktest/1");
	KTEST_EXPECT_TRUE(t, k->pid > 2);
	msleep(20);
	KTEST_EXPECT_TRUE(t, n > 0);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 42);
}

static int never_runs(void *data)
{
	*(int *)data = 1;
	return 0;
}

static void kthread_stopped_before_it_ran(struct ktest *t)
{
	int ran = 0;
	struct task_struct *k = kthread_create(never_runs, &ran, "ktest-idle");

	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	KTEST_EXPECT_EQ(t, k->state, TASK_UNINTERRUPTIBLE); /* created stopped */
	KTEST_EXPECT_EQ(t, kthread_stop(k), -EINTR);
	KTEST_EXPECT_EQ(t, ran, 0);
}

static DECLARE_WAIT_QUEUE_HEAD(never_woken);

static int wait_for_stop(void *data)
{
	wait_event(never_woken, kthread_should_stop());
	return 7;
}

/* As Linux's: kthread_stop's wake-up ends a wait_event on kthread_should_stop(). */
static void kthread_stop_ends_wait_event(struct ktest *t)
{
	struct task_struct *k = kthread_run(wait_for_stop, NULL, "ktest-wait");

	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	msleep(5);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 7);
}

struct pingpong {
	struct completion ping, pong;
	int rounds;
};

static int ponger(void *data)
{
	struct pingpong *p = data;

	for (int i = 0; i < p->rounds; i++) {
		wait_for_completion(&p->ping);
		complete(&p->pong);
	}
	while (!kthread_should_stop()) /* kthread_stop needs it alive */
		msleep(1);
	return 0;
}

static void kthread_completions_pass_the_cpu(struct ktest *t)
{
	struct pingpong p = { .rounds = 100 };
	struct task_struct *k;
	unsigned long switches = nr_context_switches();

	init_completion(&p.ping);
	init_completion(&p.pong);
	k = kthread_run(ponger, &p, "ktest-pong");
	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	for (int i = 0; i < p.rounds; i++) {
		complete(&p.ping);
		wait_for_completion(&p.pong);
	}
	KTEST_EXPECT_TRUE(t, nr_context_switches() - switches >= 2 * (unsigned long)p.rounds);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 0);
}

static void mark(unsigned long data) { *(volatile int *)data = (int)jiffies; }

static void kthread_timers_and_msleep_keep_time(struct ktest *t)
{
	volatile int at = 0, never = 0;
	struct timer_list a, b;
	unsigned long start = jiffies;
	u64 t0 = ktime_get_ns();

	setup_timer(&a, mark, (unsigned long)&at);
	setup_timer(&b, mark, (unsigned long)&never);
	mod_timer(&a, start + 5);
	mod_timer(&b, start + 10);
	KTEST_EXPECT_EQ(t, del_timer_sync(&b), 1);
	msleep(20);
	/*
	 * 20 ticks; under TCG on a loaded host QEMU may deliver late ticks in a
	 * burst, and the TSC was calibrated against the PIT at boot: allow 25%.
	 */
	KTEST_EXPECT_TRUE(t, ktime_get_ns() - t0 >= 15 * 1000000ULL);
	KTEST_EXPECT_TRUE(t, at >= (int)start + 5);
	KTEST_EXPECT_EQ(t, never, 0);
	KTEST_EXPECT_FALSE(t, timer_pending(&a));
	KTEST_EXPECT_EQ(t, schedule_timeout_uninterruptible(3), 0);
	KTEST_EXPECT_TRUE(t, jiffies - start >= 23);
}

struct contend {
	struct mutex lock;
	int inside, overlaps, total;
};

static int mutex_worker(void *data)
{
	struct contend *c = data;

	for (int i = 0; i < 20; i++) {
		mutex_lock(&c->lock);
		if (c->inside++)
			c->overlaps++;
		msleep(1); /* sleep holding it: the others must wait */
		c->total++;
		c->inside--;
		mutex_unlock(&c->lock);
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void kthread_mutex_serialises_contenders(struct ktest *t)
{
	struct contend c = { 0 };
	struct task_struct *k[3];

	mutex_init(&c.lock);
	for (int i = 0; i < 3; i++)
		k[i] = kthread_run(mutex_worker, &c, "ktest-mutex/%d", i);
	for (int i = 0; i < 3; i++)
		if (!IS_ERR(k[i]))
			KTEST_EXPECT_EQ(t, kthread_stop(k[i]), 0);
	KTEST_EXPECT_EQ(t, c.overlaps, 0);
	KTEST_EXPECT_EQ(t, c.total, 60);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&c.lock));
}

struct downer {
	struct semaphore sem;
	volatile bool got;
};

static int down_once(void *data)
{
	struct downer *d = data;

	down(&d->sem);
	d->got = true;
	up(&d->sem);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void kthread_semaphore_holds_off_a_contender(struct ktest *t)
{
	struct downer d = { .got = false };
	struct task_struct *k;

	init_MUTEX(&d.sem);
	down(&d.sem);
	k = kthread_run(down_once, &d, "ktest-sem");
	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	msleep(10);
	KTEST_EXPECT_FALSE(t, d.got); /* it sleeps in down() */
	KTEST_EXPECT_EQ(t, k->state, TASK_UNINTERRUPTIBLE);
	up(&d.sem);
	msleep(10);
	KTEST_EXPECT_TRUE(t, d.got);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 0);
}

static int set_flag(void *data)
{
	*(volatile bool *)data = true;
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* This thread never sleeps while it waits: only the tick's preemption lets the other run. */
static void kthread_the_tick_preempts_a_busy_thread(struct ktest *t)
{
	volatile bool flag = false;
	struct task_struct *k = kthread_create(set_flag, (void *)&flag, "ktest-preempt");
	u64 deadline = ktime_get_ns() + 500 * 1000000ULL;

	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	wake_up_process(k);
	while (!flag && ktime_get_ns() < deadline)
		cpu_relax();
	KTEST_EXPECT_TRUE(t, flag);
	KTEST_EXPECT_TRUE(t, current->nivcsw > 0);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 0);
}

struct slow_work {
	struct work_struct work;
	struct workqueue_struct *wq;
	volatile int done;
	struct completion flushed;
};

static void slow_fn(struct work_struct *work)
{
	msleep(20);
	container_of(work, struct slow_work, work)->done = 1;
}

static int flusher(void *data)
{
	struct slow_work *s = data;
	int seen;

	flush_workqueue(s->wq); /* no big kernel lock: waits for the worker */
	seen = s->done;
	complete(&s->flushed);
	while (!kthread_should_stop())
		msleep(1);
	return seen;
}

static void kthread_flush_workqueue_waits_for_the_worker(struct ktest *t)
{
	struct slow_work s = { .done = 0 };
	struct task_struct *k;
	int depth;

	s.wq = create_workqueue("ktest");
	KTEST_ASSERT_TRUE(t, s.wq != NULL);
	KTEST_EXPECT_STREQ(t, s.wq->worker[0]->comm, "ktest/0");
	INIT_WORK(&s.work, slow_fn);
	init_completion(&s.flushed);
	queue_work(s.wq, &s.work);
	depth = release_kernel_lock(); /* the tests run with it, as boot does: let the worker in */
	k = kthread_run(flusher, &s, "ktest-flush");
	if (!IS_ERR(k)) {
		wait_for_completion(&s.flushed);
		KTEST_EXPECT_EQ(t, kthread_stop(k), 1); /* the item had finished when flush returned */
	}
	reacquire_kernel_lock(depth);
	destroy_workqueue(s.wq);
}

/* A work item that runs until the thread cancelling it sleeps waiting for it. */
struct long_work {
	struct work_struct work;
	struct task_struct *canceller;
	volatile int cancelling, done;
	unsigned int cpu;
};

static void long_fn(struct work_struct *work)
{
	struct long_work *w = container_of(work, struct long_work, work);
	u64 deadline = ktime_get_ns() + 1000 * 1000000ULL;

	w->cpu = smp_processor_id();
	while (!(w->cancelling && w->canceller->state != TASK_RUNNING) && ktime_get_ns() < deadline)
		cpu_relax(); /* a canceller that does not wait returns meanwhile */
	mdelay(5);
	w->done = 1;
}

/*
 * Until the queue's workers, just made, sleep on its empty list: an item queued
 * then goes to the worker queue_work wakes, not to one still starting up.
 */
static void wait_workers_asleep(struct workqueue_struct *wq)
{
	for (int i = 0; i < 1000; i++) {
		bool asleep = true;

		for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
			if (wq->worker[cpu] && wq->worker[cpu]->state == TASK_RUNNING)
				asleep = false;
		if (asleep)
			return;
		msleep(1);
	}
}

/*
 * cancel_work_sync (2.6.22) on an item running on CPU 1 (on one CPU, in
 * ktest/0): it returns only once the run has ended, so the item's owner
 * may free it. cancel_work alone would return at once.
 */
static void kthread_cancel_work_sync_waits_for_a_running_item(struct ktest *t)
{
	struct long_work w = { .canceller = current };
	struct workqueue_struct *wq = create_workqueue("ktest");
	unsigned long mine = current->cpus_allowed;
	bool two = num_online_cpus() >= 2;

	KTEST_ASSERT_TRUE(t, wq != NULL);
	INIT_WORK(&w.work, long_fn);
	wait_workers_asleep(wq); /* else ktest/0, starting, could take it on CPU 0 */
	if (two)		 /* queued on CPU 1: its worker, ktest/1, runs it */
		KTEST_EXPECT_EQ(t, set_cpus_allowed(current, 1UL << 1), 0);
	queue_work(wq, &w.work);
	if (two)
		KTEST_EXPECT_EQ(t, set_cpus_allowed(current, 1UL << 0), 0);
	for (int i = 0; i < 1000 && work_pending(&w.work); i++)
		msleep(1);
	KTEST_EXPECT_FALSE(t, work_pending(&w.work)); /* it runs */
	w.cancelling = 1;
	KTEST_EXPECT_FALSE(t, cancel_work_sync(&w.work)); /* running, not queued */
	KTEST_EXPECT_EQ(t, w.done, 1);
	if (two)
		KTEST_EXPECT_EQ(t, w.cpu, 1);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(current, mine), 0);
	destroy_workqueue(wq); /* a run that was not waited for ends first */
}

struct where {
	unsigned int cpu, hard;
	struct completion ran;
};

static int note_cpu(void *data)
{
	struct where *w = data;

	w->cpu = smp_processor_id();
	w->hard = hard_smp_processor_id();
	complete(&w->ran);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* kthread_create_on_cpu: the thread runs there, and thread_info's CPU is the APIC's. */
static void kthread_bound_threads_run_on_their_cpu(struct ktest *t)
{
	unsigned int cpu;

	for_each_online_cpu(cpu)
	{
		struct where w = { .cpu = 99, .hard = 99 };
		struct task_struct *k;

		init_completion(&w.ran);
		k = kthread_create_on_cpu(note_cpu, &w, cpu, "ktest/%u");
		KTEST_ASSERT_TRUE(t, !IS_ERR(k));
		wake_up_process(k);
		wait_for_completion(&w.ran);
		KTEST_EXPECT_EQ(t, w.cpu, cpu);
		KTEST_EXPECT_EQ(t, w.hard, cpu);
		KTEST_EXPECT_EQ(t, kthread_stop(k), 0);
	}
}

struct spread {
	atomic_t running;
	volatile int most;
	volatile bool go;
};

/* Busy for about 50 ms of ticks, counting how many of us run at once. */
static int busy(void *data)
{
	struct spread *s = data;
	unsigned long end = jiffies + 50;

	while (!s->go)
		cond_resched();
	while ((long)(jiffies - end) < 0) {
		int now = atomic_inc_return(&s->running);

		if (now > s->most)
			s->most = now;
		udelay(20);
		atomic_dec(&s->running);
		udelay(20);
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* One busy thread per CPU: on N CPUs, they overlap (2.6's wake-up balancing); on one, never. */
static void kthread_busy_threads_run_on_every_cpu(struct ktest *t)
{
	struct spread s = { .running = ATOMIC_INIT(0) };
	struct task_struct *k[NR_CPUS];
	unsigned int n = num_online_cpus(), i;

	for (i = 0; i < n; i++) {
		k[i] = kthread_run(busy, &s, "ktest-busy/%u", i);
		KTEST_ASSERT_TRUE(t, !IS_ERR(k[i]));
	}
	s.go = true;
	msleep(100);
	for (i = 0; i < n; i++)
		kthread_stop(k[i]);
	if (n > 1)
		KTEST_EXPECT_TRUE(t, s.most >= 2 && s.most <= (int)n);
	else
		KTEST_EXPECT_EQ(t, s.most, 1);
}

/* A CPU going down: a thread bound to it moves to another and keeps running; back up, it stays. */
static void kthread_cpu_down_moves_its_threads(struct ktest *t)
{
	struct where w = { .cpu = 99 };
	struct task_struct *k;
	int depth;

	init_completion(&w.ran);
	if (num_online_cpus() < 2) {
		KTEST_EXPECT_EQ(t, cpu_down(0), -EINVAL); /* the boot CPU never goes */
		return;
	}
	k = kthread_create_on_cpu(note_cpu, &w, 1, "ktest/%u");
	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	wake_up_process(k);
	wait_for_completion(&w.ran);
	KTEST_EXPECT_EQ(t, w.cpu, 1);
	depth = release_kernel_lock(); /* events/1 stops at CPU_DEAD and may want it */
	KTEST_EXPECT_EQ(t, cpu_down(1), 0);
	KTEST_EXPECT_TRUE(t, task_cpu(k) != 1);
	KTEST_EXPECT_EQ(t, cpu_up(1), 0);
	reacquire_kernel_lock(depth);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 0);
}

/* Spins without sleeping (the tick preempts it), noting each CPU it runs on. */
static int spin_noting_cpus(void *data)
{
	volatile unsigned long *seen = data;

	while (!kthread_should_stop())
		*seen |= 1UL << smp_processor_id();
	return 0;
}

static struct task_struct *spinner(volatile unsigned long *seen, unsigned int cpu)
{
	struct task_struct *k =
		kthread_create_on_cpu(spin_noting_cpus, (void *)seen, cpu, "ktest-spin/%u");

	if (!IS_ERR(k))
		wake_up_process(k);
	return k;
}

/* Until *seen names a CPU (the thread has run), at most a second. */
static void wait_seen(volatile unsigned long *seen)
{
	for (int i = 0; i < 1000 && !*seen; i++)
		msleep(1);
}

/* set_cpus_allowed: a thread running on CPU 1 moves to CPU 0 through migration/1, the caller itself too. */
static void kthread_set_cpus_allowed_moves_running_threads(struct ktest *t)
{
	volatile unsigned long seen = 0;
	unsigned long mine = current->cpus_allowed;
	struct task_struct *k;

	if (num_online_cpus() < 2) {
		KTEST_EXPECT_EQ(t, set_cpus_allowed(current, 1UL << 1), -EINVAL); /* CPU 1 is not online */
		KTEST_EXPECT_EQ(t, current->cpus_allowed, mine);
		return;
	}
	KTEST_ASSERT_EQ(t, set_cpus_allowed(current, 1UL << 0), 0);
	KTEST_EXPECT_EQ(t, smp_processor_id(), 0);
	k = spinner(&seen, 1);
	KTEST_ASSERT_TRUE(t, !IS_ERR(k));
	wait_seen(&seen);
	KTEST_EXPECT_EQ(t, seen, 1UL << 1);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(k, 0), -EINVAL); /* no CPU: refused, unchanged */
	KTEST_EXPECT_EQ(t, set_cpus_allowed(k, 1UL << 7), -EINVAL);
	KTEST_EXPECT_EQ(t, k->cpus_allowed, 1UL << 1);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(k, 1UL << 0), 0);
	KTEST_EXPECT_EQ(t, task_cpu(k), 0);
	seen = 0;
	msleep(50);
	KTEST_EXPECT_EQ(t, seen, 1UL << 0);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(current, 1UL << 1), 0); /* the caller: it goes now */
	KTEST_EXPECT_EQ(t, smp_processor_id(), 1);
	KTEST_EXPECT_EQ(t, kthread_stop(k), 0);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(current, mine), 0);
}

/*
 * Load balancing from the tick: CPU 1 busy with one bound spinner, CPU 0
 * with a bound one and three free ones; CPU 1 never idles, so only the
 * periodic balance (every 200 ms on a busy CPU) can pull a free one over.
 * The bound ones never leave their CPU.
 */
static void kthread_balancing_pulls_to_a_busy_cpu_and_keeps_bound_threads(struct ktest *t)
{
	volatile unsigned long hog = 0, pinned = 0, free[3] = { 0 };
	struct task_struct *k[5];
	unsigned long mine = current->cpus_allowed, moved = 0;

	if (num_online_cpus() < 2)
		return;
	KTEST_ASSERT_EQ(t, set_cpus_allowed(current, 1UL << 0), 0);
	k[0] = spinner(&hog, 1);
	k[1] = spinner(&pinned, 0);
	for (int i = 0; i < 3; i++)
		k[2 + i] = spinner(&free[i], 0);
	for (int i = 0; i < 5; i++)
		KTEST_ASSERT_TRUE(t, !IS_ERR(k[i]));
	for (int i = 0; i < 3; i++) {
		wait_seen(&free[i]); /* running on CPU 0; now let run anywhere */
		KTEST_EXPECT_EQ(t, set_cpus_allowed(k[2 + i], CPU_MASK_ALL), 0);
	}
	msleep(1000);
	for (int i = 0; i < 3; i++)
		moved |= free[i];
	KTEST_EXPECT_TRUE(t, moved & (1UL << 1));
	KTEST_EXPECT_EQ(t, hog, 1UL << 1);
	KTEST_EXPECT_EQ(t, pinned, 1UL << 0);
	for (int i = 0; i < 5; i++)
		kthread_stop(k[i]);
	KTEST_EXPECT_EQ(t, set_cpus_allowed(current, mine), 0);
}

static const struct ktest_case kthread_cases[] = {
	KTEST_CASE(kthread_runs_until_stopped),
	KTEST_CASE(kthread_stopped_before_it_ran),
	KTEST_CASE(kthread_stop_ends_wait_event),
	KTEST_CASE(kthread_completions_pass_the_cpu),
	KTEST_CASE(kthread_timers_and_msleep_keep_time),
	KTEST_CASE(kthread_mutex_serialises_contenders),
	KTEST_CASE(kthread_semaphore_holds_off_a_contender),
	KTEST_CASE(kthread_the_tick_preempts_a_busy_thread),
	KTEST_CASE(kthread_flush_workqueue_waits_for_the_worker),
	KTEST_CASE(kthread_cancel_work_sync_waits_for_a_running_item),
	KTEST_CASE(kthread_bound_threads_run_on_their_cpu),
	KTEST_CASE(kthread_busy_threads_run_on_every_cpu),
	KTEST_CASE(kthread_cpu_down_moves_its_threads),
	KTEST_CASE(kthread_set_cpus_allowed_moves_running_threads),
	KTEST_CASE(kthread_balancing_pulls_to_a_busy_cpu_and_keeps_bound_threads),
	KTEST_END,
};

static struct ktest_suite kthread_suite = {
	.name = "kthread",
	.cases = kthread_cases,
};
KTEST_SUITE(kthread_suite);
