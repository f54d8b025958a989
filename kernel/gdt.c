/*
 * gdt.c: the Global Descriptor Tables: flat kernel and user segments (0-4 GiB),
 * the TLS slots set_thread_area fills, and the Task State Segment, whose esp0
 * is where a trap from ring 3 finds its kernel stack. Each CPU has a GDT and
 * a TSS of its own, as Linux 2.6's per-CPU gdt_page and init_tss: the TLS
 * slots and esp0 are those of the task running on that CPU.
 */
#include <asm/desc.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/types.h>

struct gdt_ptr {
	u16 limit;
	u32 base;
} __packed;

/* Intel SDM vol. 3, §7.2.1: the 32-bit TSS; only ss0:esp0 are used (no hardware switching). */
struct tss_struct {
	u32 link, esp0, ss0, esp1, ss1, esp2, ss2, cr3, eip, eflags;
	u32 eax, ecx, edx, ebx, esp, ebp, esi, edi;
	u32 es, cs, ss, ds, fs, gs, ldt;
	u16 trap, io_bitmap_base;
} __packed;

static struct tss_struct init_tss[NR_CPUS];

/* Intel SDM vol. 3, §3.4.5: base 0, limit 0xfffff in 4 KiB units, 32-bit. */
static const u64 gdt_template[GDT_ENTRIES] = {
	[1] = 0x00cf9a000000ffffULL,			     /* 0x08: ring 0 code, execute/read */
	[2] = 0x00cf92000000ffffULL,			     /* 0x10: ring 0 data, read/write */
	[GDT_ENTRY_DEFAULT_USER_CS] = 0x00cffa000000ffffULL, /* 0x73: ring 3 code */
	[GDT_ENTRY_DEFAULT_USER_DS] = 0x00cff2000000ffffULL, /* 0x7b: ring 3 data */
};

static u64 cpu_gdt[NR_CPUS][GDT_ENTRIES] __attribute__((aligned(8)));

/* On each CPU as it comes up: its own copy of the table, loaded. */
void gdt_init(void)
{
	u64 *gdt = cpu_gdt[smp_processor_id()];
	struct gdt_ptr p = { sizeof(gdt_template) - 1, (u32)gdt };

	memcpy(gdt, gdt_template, sizeof(gdt_template));

	__asm__ volatile("lgdt %0\n\t"
			 "ljmp %1, $1f\n"
			 "1:\n\t"
			 "mov %2, %%ax\n\t"
			 "mov %%ax, %%ds\n\t"
			 "mov %%ax, %%es\n\t"
			 "mov %%ax, %%ss\n\t"
			 "mov %%ax, %%fs\n\t"
			 "mov %%ax, %%gs"
			 : : "m"(p), "i"(KERNEL_CS), "i"(KERNEL_DS) : "eax", "memory");
}

/* An available 32-bit TSS descriptor (type 9, present, DPL 0). */
static u64 tss_descriptor(u32 base, u32 limit)
{
	return (limit & 0xffffULL) | ((u64)(base & 0xffffff) << 16) | (0x89ULL << 40) |
	       ((u64)(limit & 0xf0000) << 32) | ((u64)(base >> 24) << 56);
}

#define CR0_MP 0x2
#define CR0_EM 0x4
#define CR0_TS 0x8
#define CR4_OSFXSR 0x200
#define CR4_OSXMMEXCPT 0x400

/* Processes may use x87 and SSE (glibc's string functions do): fxsave state, no emulation. */
static void fpu_init(void)
{
	u32 cr0, cr4;

	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	cr0 = (cr0 | CR0_MP) & ~(CR0_EM | CR0_TS);
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0));
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4 | CR4_OSFXSR | CR4_OSXMMEXCPT));
	__asm__ volatile("fninit");
}

void tss_init(void)
{
	unsigned int cpu = smp_processor_id();
	struct tss_struct *tss = &init_tss[cpu];

	memset(tss, 0, sizeof(*tss));
	tss->ss0 = KERNEL_DS;
	tss->io_bitmap_base = sizeof(*tss); /* none: in/out from ring 3 fault */
	cpu_gdt[cpu][GDT_ENTRY_TSS] = tss_descriptor((u32)tss, sizeof(*tss) - 1);
	__asm__ volatile("ltr %w0" : : "r"(TSS_SELECTOR));
	fpu_init();
}

void load_esp0(unsigned long esp0) { init_tss[smp_processor_id()].esp0 = esp0; }

/*
 * The kernel's own %fs and %gs are zeroed too: an interrupt taken from now
 * on saves and reloads them, and a selector left from the task before
 * could name a slot this task left empty (a #GP at the reload). The
 * user's own values are in its saved registers.
 */
void load_TLS(const u64 tls[GDT_ENTRY_TLS_ENTRIES])
{
	u64 *gdt = cpu_gdt[smp_processor_id()];

	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		gdt[GDT_ENTRY_TLS_MIN + i] = tls[i];
	__asm__ volatile("mov %0, %%fs\n\tmov %0, %%gs" : : "r"(0));
}
