/* kernel_stat.h: where each CPU's ticks went, and the threads created, for /proc/stat (2.6's kstat). */
#ifndef KOBOLD_KERNEL_STAT_H
#define KOBOLD_KERNEL_STAT_H

#include <kobold/smp.h>
#include <kobold/types.h>

struct task_struct;

/* Ticks (HZ) by kind, as 2.6.11's struct cpu_usage_stat; Kobold has no nice, softirq or steal. */
struct cpu_usage_stat {
	u64 user, nice, system, softirq, irq, idle, iowait, steal;
};

struct kernel_stat {
	struct cpu_usage_stat cpustat;
};

extern struct kernel_stat kstat[NR_CPUS];
#define kstat_cpu(cpu) (kstat[cpu])

/* Every thread and process created since boot (2.6's total_forks: /proc/stat's "processes"). */
extern unsigned long total_forks;

/*
 * A timer tick on this CPU, charged to p: to its user time if the tick
 * came from ring 3, else to its system time, or to the CPU's irq or idle
 * time (2.6's account_user_time and account_system_time).
 */
void account_process_tick(struct task_struct *p, bool user_tick);

#endif
