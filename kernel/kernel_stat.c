/* kernel_stat.c: charging each timer tick to a task and to a kind of CPU time, as 2.6's update_process_times. */
#include <kobold/kernel_stat.h>
#include <kobold/preempt.h>
#include <kobold/sched.h>

struct kernel_stat kstat[NR_CPUS];
unsigned long total_forks;

static void account_user_time(struct task_struct *p)
{
	p->utime++;
	kstat_cpu(smp_processor_id()).cpustat.user++;
}

/*
 * The tick itself runs in a hard interrupt, so only a second level of
 * hardirq means it interrupted a handler. The idle thread's ticks are the
 * CPU's idle time.
 */
static void account_system_time(struct task_struct *p)
{
	struct cpu_usage_stat *cpustat = &kstat_cpu(smp_processor_id()).cpustat;

	p->stime++;
	if ((preempt_count() & HARDIRQ_MASK) - HARDIRQ_OFFSET)
		cpustat->irq++;
	else if (p != this_rq()->idle)
		cpustat->system++;
	else
		cpustat->idle++;
}

void account_process_tick(struct task_struct *p, bool user_tick)
{
	if (user_tick)
		account_user_time(p);
	else
		account_system_time(p);
}
