/*
 * softlockup.c: the soft-lockup watchdog, after Linux 2.6.18's
 * kernel/softlockup.c. Each CPU has a watchdog/N thread, bound to it, that
 * stamps the time and sleeps a second (a quarter of the threshold, if that
 * is less). Each CPU's tick looks at its stamp: a period old, it wakes the
 * watchdog; softlockup_thresh seconds old (the
 * watchdog never got the CPU: something runs with preemption off), it
 * prints "BUG: soft lockup detected on CPU#N!" and a backtrace of what
 * runs there, once per stamp.
 */
#include <kobold/cpu.h>
#include <kobold/kthread.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/softlockup.h>
#include <kobold/time.h>

static unsigned int softlockup_thresh = 10; /* seconds, as 2.6.18's fixed 10*HZ */
core_param(softlockup_thresh, softlockup_thresh, uint,
	   "seconds a CPU may run without scheduling before the watchdog reports it (0: off)");

static volatile unsigned long touch_timestamp[NR_CPUS]; /* 0: no watchdog yet */
static volatile unsigned long print_timestamp[NR_CPUS];
static volatile unsigned long reports[NR_CPUS];
static struct task_struct *watchdog_task[NR_CPUS];

unsigned int softlockup_threshold(void) { return softlockup_thresh; }

/* How long the watchdog sleeps: a second, as 2.6.18's, or less under a short threshold. */
static unsigned long watchdog_period(void)
{
	unsigned long quarter = softlockup_thresh * HZ / 4;

	return quarter < HZ ? quarter + 1 : HZ;
}
unsigned long softlockup_reports(unsigned int cpu) { return reports[cpu]; }

void touch_softlockup_watchdog(void) { touch_timestamp[smp_processor_id()] = jiffies | 1; }

void softlockup_tick(void)
{
	unsigned int cpu = smp_processor_id();
	unsigned long ts = touch_timestamp[cpu];

	if (!ts || !softlockup_thresh || print_timestamp[cpu] == ts)
		return;
	if ((long)(jiffies - (ts + watchdog_period())) > 0 && watchdog_task[cpu])
		wake_up_process(watchdog_task[cpu]);
	if ((long)(jiffies - (ts + softlockup_thresh * HZ)) <= 0)
		return;
	print_timestamp[cpu] = ts;
	reports[cpu]++;
	printk(KERN_ERR "BUG: soft lockup detected on CPU#%u!\n", cpu);
	dump_stack();
}

static int watchdog(void *unused)
{
	while (!kthread_should_stop()) {
		touch_softlockup_watchdog();
		schedule_timeout_interruptible((long)watchdog_period());
	}
	return 0;
}

static void start_watchdog(unsigned int cpu)
{
	struct task_struct *k = kthread_create_on_cpu(watchdog, NULL, cpu, "watchdog/%u");

	if (IS_ERR(k)) {
		pr_err("softlockup: no watchdog/%u thread\n", cpu);
		return;
	}
	watchdog_task[cpu] = k;
	wake_up_process(k);
}

/* A CPU that has gone: its watchdog (moved off it) stops, and its stamp with it. */
static void stop_watchdog(unsigned int cpu)
{
	struct task_struct *k = watchdog_task[cpu];

	touch_timestamp[cpu] = 0;
	if (!k)
		return;
	watchdog_task[cpu] = NULL;
	kthread_stop(k);
}

static int softlockup_cpu_callback(struct notifier_block *nb, unsigned long action, void *hcpu)
{
	unsigned int cpu = (unsigned int)(unsigned long)hcpu;

	if (action == CPU_ONLINE)
		start_watchdog(cpu);
	else if (action == CPU_DEAD)
		stop_watchdog(cpu);
	return NOTIFY_OK;
}

static struct notifier_block softlockup_cpu_notifier = {
	.notifier_call = softlockup_cpu_callback,
};

void softlockup_init(void)
{
	unsigned int cpu;

	register_cpu_notifier(&softlockup_cpu_notifier);
	for_each_online_cpu(cpu)
		start_watchdog(cpu);
}
