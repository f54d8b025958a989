/* timer_test.c: kernel timers run once, soonest first, at their jiffy and not before; mod_timer and del_timer say whether one was pending. */
#include <kobold/irqflags.h>
#include <kobold/ktest.h>
#include <kobold/time.h>
#include <kobold/timer.h>

static unsigned long order[4];
static int fired;

static void record(unsigned long data) { order[fired++] = data; }

static void timer_runs_in_order_at_its_jiffy(struct ktest *t)
{
	struct timer_list a, b, c;
	unsigned long base = jiffies + 100000, flags = local_irq_save();

	fired = 0;
	setup_timer(&a, record, 1);
	setup_timer(&b, record, 2);
	setup_timer(&c, record, 3);
	KTEST_EXPECT_EQ(t, mod_timer(&a, base + 30), 0);
	KTEST_EXPECT_EQ(t, mod_timer(&b, base + 10), 0);
	KTEST_EXPECT_EQ(t, mod_timer(&c, base + 20), 0);
	KTEST_EXPECT_EQ(t, mod_timer(&c, base + 10), 1); /* pending: moved, after b */
	run_timers(base + 9);
	KTEST_EXPECT_EQ(t, fired, 0);
	run_timers(base + 10);
	KTEST_EXPECT_EQ(t, fired, 2);
	KTEST_EXPECT_EQ(t, order[0], 2);
	KTEST_EXPECT_EQ(t, order[1], 3);
	KTEST_EXPECT_FALSE(t, timer_pending(&b));
	KTEST_EXPECT_TRUE(t, timer_pending(&a));
	KTEST_EXPECT_EQ(t, del_timer_sync(&a), 1);
	KTEST_EXPECT_EQ(t, del_timer(&a), 0);
	run_timers(base + 1000);
	KTEST_EXPECT_EQ(t, fired, 2); /* a was deleted */
	local_irq_restore(flags);
}

static struct timer_list rearm;

static void rearm_fn(unsigned long data)
{
	order[fired++] = data;
	if (fired < 3)
		mod_timer(&rearm, rearm.expires + 5); /* a timer may queue itself again */
}

static void timer_may_queue_itself_again(struct ktest *t)
{
	unsigned long base = jiffies + 200000, flags = local_irq_save();

	fired = 0;
	setup_timer(&rearm, rearm_fn, 7);
	rearm.expires = base;
	add_timer(&rearm);
	run_timers(base + 7); /* runs at base and base+5, not yet at base+10 */
	KTEST_EXPECT_EQ(t, fired, 2);
	run_timers(base + 10);
	KTEST_EXPECT_EQ(t, fired, 3);
	KTEST_EXPECT_FALSE(t, timer_pending(&rearm));
	local_irq_restore(flags);
}

static const struct ktest_case timer_cases[] = {
	KTEST_CASE(timer_runs_in_order_at_its_jiffy),
	KTEST_CASE(timer_may_queue_itself_again),
	KTEST_END,
};

static struct ktest_suite timer_suite = {
	.name = "timer",
	.cases = timer_cases,
};
KTEST_SUITE(timer_suite);
