/* stat.c: /proc/stat, the CPUs' times by kind, the interrupts, switches, boot time and forks (2.6's show_stat). */
#include <asm/irq.h>
#include <kobold/irqflags.h>
#include <kobold/kernel_stat.h>
#include <kobold/proc_fs.h>
#include <kobold/sched.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/time.h>

/* One line of /proc/stat's CPU times: its name, then the eight kinds in USER_HZ (2.6.11's columns). */
static size_t show_cpustat(char *buf, size_t size, const char *name, const struct cpu_usage_stat *c)
{
	const u64 v[] = { c->user, c->nice, c->system, c->idle, c->iowait, c->irq, c->softirq, c->steal };
	size_t n = scnprintf(buf, size, "%s", name);

	for (unsigned int i = 0; i < ARRAY_SIZE(v); i++)
		n += scnprintf(buf + n, size - n, " %llu", (unsigned long long)(v[i] / (HZ / USER_HZ)));
	return n + scnprintf(buf + n, size - n, "\n");
}

static void cpustat_add(struct cpu_usage_stat *sum, const struct cpu_usage_stat *c)
{
	sum->user += c->user;
	sum->nice += c->nice;
	sum->system += c->system;
	sum->softirq += c->softirq;
	sum->irq += c->irq;
	sum->idle += c->idle;
	sum->iowait += c->iowait;
	sum->steal += c->steal;
}

/*
 * /proc/stat as 2.6.12 prints it: the CPUs' times summed, then one line per
 * online CPU, the interrupts (all, then per IRQ), context switches, the
 * boot time, the threads created since boot, and the runnable threads.
 */
size_t proc_show_stat(char *buf, size_t size)
{
	struct cpu_usage_stat sum = { 0 };
	unsigned long irqs[NR_IRQS]; /* read once, so that the total is their sum */
	unsigned long long intr = 0;
	unsigned long running = 0;
	struct task_struct *p;
	unsigned int cpu;
	unsigned long flags;
	size_t n;
	char name[8];

	for_each_online_cpu(cpu)
		cpustat_add(&sum, &kstat_cpu(cpu).cpustat);
	for (int irq = 0; irq < NR_IRQS; irq++)
		intr += irqs[irq] = irq_count(irq);
	n = show_cpustat(buf, size, "cpu ", &sum);
	for_each_online_cpu(cpu)
	{
		scnprintf(name, sizeof(name), "cpu%u", cpu);
		n += show_cpustat(buf + n, size - n, name, &kstat_cpu(cpu).cpustat);
	}
	n += scnprintf(buf + n, size - n, "intr %llu", intr);
	for (int irq = 0; irq < NR_IRQS; irq++)
		n += scnprintf(buf + n, size - n, " %lu", irqs[irq]);
	flags = local_irq_save();
	list_for_each_entry(p, &task_list, tasks)
		running += p->state == TASK_RUNNING;
	local_irq_restore(flags);
	return n + scnprintf(buf + n, size - n,
			     "\nctxt %lu\nbtime %lu\nprocesses %lu\nprocs_running %lu\nprocs_blocked 0\n",
			     nr_context_switches(), boot_time_seconds(), total_forks, running);
}
