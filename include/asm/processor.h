/* processor.h: what CPUID says about a CPU (Linux's struct cpuinfo_x86), for /proc/cpuinfo. */
#ifndef ASM_PROCESSOR_H
#define ASM_PROCESSOR_H

#include <kobold/smp.h>
#include <kobold/types.h>

static inline void cpuid_count(u32 leaf, u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	__asm__ volatile("cpuid"
			 : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d)
			 : "a"(leaf), "c"(sub));
}

struct cpuinfo_x86 {
	bool identified;   /* filled in by identify_cpu on that CPU */
	char vendor[13];   /* "GenuineIntel", "AuthenticAMD" */
	char model_id[49]; /* the brand string, or "" */
	int family, model, stepping;
	int cpuid_level;   /* the highest basic leaf */
	int cache_size_kb; /* L2, or -1 when CPUID does not say */
	u32 capability[4]; /* leaf 1 EDX, leaf 1 ECX, 0x80000001 EDX, 0x80000001 ECX */
	bool wp;	   /* CR0.WP: the kernel honours read-only pages */
};

extern struct cpuinfo_x86 cpu_data[NR_CPUS];

/* Reads CPUID on the running CPU into c (each CPU calls it for itself as it comes up). */
void identify_cpu(struct cpuinfo_x86 *c);
void identify_boot_cpu(void); /* cpu_data[0] */

#endif
