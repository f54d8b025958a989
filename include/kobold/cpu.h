/*
 * cpu.h: CPU hotplug's notifier chain, as Linux 2.6's register_cpu_notifier:
 * a subsystem with something per CPU (a worker thread, a watchdog) hears
 * when a CPU has come up (CPU_ONLINE) and when one has gone (CPU_DEAD).
 */
#ifndef KOBOLD_CPU_H
#define KOBOLD_CPU_H

#define NOTIFY_OK 0x0001
#define CPU_ONLINE 0x0002 /* the CPU runs threads: start its own */
#define CPU_DEAD 0x0007	  /* the CPU is down, its threads moved off: stop its own */

struct notifier_block {
	int (*notifier_call)(struct notifier_block *nb, unsigned long action, void *hcpu);
	struct notifier_block *next;
};

/* Called in order of registration, from the thread that took the CPU up or down. */
int register_cpu_notifier(struct notifier_block *nb);
void cpu_notify(unsigned long action, unsigned int cpu);

#endif
