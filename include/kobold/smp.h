/*
 * smp.h: the CPUs (kernel/smpboot.c). The boot CPU is number 0; the others
 * (APs) are numbered in the order the ACPI MADT lists them, up to NR_CPUS.
 * Present means found and brought up once; online means running now.
 */
#ifndef KOBOLD_SMP_H
#define KOBOLD_SMP_H

#include <kobold/thread_info.h>
#include <kobold/types.h>

#define NR_CPUS 8

/* Finds the CPUs in the MADT and brings each up (boot CPU only, after time_init). */
void smp_init(void);
unsigned int num_present_cpus(void);
unsigned int num_online_cpus(void);
bool cpu_online(unsigned int cpu);
/* The running CPU's number: its thread's thread_info says where it runs, as 2.6's. */
static inline unsigned int smp_processor_id(void) { return current_thread_info()->cpu; }
/* The same, from the local APIC's id (2.6's hard_smp_processor_id), for an AP coming up. */
unsigned int hard_smp_processor_id(void);

/* CPU hotplug: 0, -EINVAL (no such CPU, or the boot CPU), -EIO (it did not start). */
int cpu_up(unsigned int cpu);
int cpu_down(unsigned int cpu);
/* Suspend: every CPU but the boot CPU down, and back up after (2.6's kernel/cpu.c). */
int disable_nonboot_cpus(void);
void enable_nonboot_cpus(void);

/* The APIC id of a present CPU, for interprocessor interrupts. */
unsigned int cpu_to_apicid(unsigned int cpu);

/* kernel/smp.c: interprocessor interrupts. */
int smp_call_function_single(unsigned int cpu, void (*func)(void *info), void *info, bool wait);
void smp_send_reschedule(unsigned int cpu);
void smp_call_function_interrupt(void);
void smp_reschedule_interrupt(void);

#define for_each_online_cpu(cpu)                  \
	for ((cpu) = 0; (cpu) < NR_CPUS; (cpu)++) \
		if (cpu_online(cpu))

#endif
