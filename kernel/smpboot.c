/*
 * smpboot.c: finding the other CPUs (APs) in the ACPI MADT and starting
 * each with INIT, STARTUP, STARTUP through a real-mode trampoline (Intel
 * SDM vol. 3, 8.4.4; Linux 2.6's arch/i386/kernel/smpboot.c). An AP loads
 * the kernel's GDT and IDT, enables its local APIC, reads CPUID, says it is
 * up, and halts: no device interrupt is routed to it and no thread runs on
 * it yet, but it takes interprocessor interrupts (kernel/smp.c). CPU
 * hotplug parks it (play_dead) and sends it an INIT, after which it waits
 * for a STARTUP; it comes up again with the same sequence as at boot.
 */
#include <asm/page.h>
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/io.h>
#include <asm/processor.h>
#include <kobold/acpi.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/time.h>

#define TRAMPOLINE_PHYS 0x8000 /* trampoline.S; reserved with the rest of the first MiB */
#define AP_STACK_PAGES 4
#define ACPI_MADT_LOCAL_APIC 0 /* ACPI 6.4 §5.2.12.2 */
#define ACPI_MADT_ENABLED 1
#define AP_WAIT_MS 1000

extern const u8 trampoline_start[], trampoline_end[];
extern const u32 trampoline_cr3[], trampoline_cr4[], trampoline_stack[], trampoline_entry[];

static unsigned int cpu_apicid[NR_CPUS];
static unsigned int nr_present = 1;
static volatile bool online[NR_CPUS] = { true };
static volatile bool dead[NR_CPUS]; /* parked by play_dead, ready for its INIT */
static void *ap_stack[NR_CPUS];
static volatile unsigned int booting_cpu;
/* The directory the trampoline turns paging on with: the kernel's, and the
 * first 4 MiB where they are, for the trampoline's own next instructions. */
static u32 trampoline_pg_dir[1024] __attribute__((aligned(PAGE_SIZE)));

unsigned int num_present_cpus(void) { return nr_present; }
bool cpu_online(unsigned int cpu) { return cpu < NR_CPUS && online[cpu]; }

unsigned int num_online_cpus(void)
{
	unsigned int n = 0, cpu;

	for_each_online_cpu(cpu)
		n++;
	return n;
}

unsigned int cpu_to_apicid(unsigned int cpu)
{
	return cpu_apicid[cpu];
}

unsigned int smp_processor_id(void)
{
	unsigned int id;

	if (nr_present == 1)
		return 0;
	id = apic_id();
	for (unsigned int cpu = 1; cpu < nr_present; cpu++)
		if (cpu_apicid[cpu] == id)
			return cpu;
	return 0;
}

/* The AP's first C code, on its own stack, with paging on. */
static void start_secondary(void)
{
	unsigned int cpu = booting_cpu;

	__asm__ volatile("mov %0, %%cr3" : : "r"(virt_to_phys(swapper_pg_dir)) : "memory");
	gdt_init();
	idt_load();
	apic_init_secondary();
	identify_cpu(&cpu_data[cpu]);
	dead[cpu] = false;
	online[cpu] = true; /* the boot CPU waits for this store */
	for (;;) {
		local_irq_disable();
		safe_halt(); /* until an interprocessor interrupt */
	}
}

/* On the CPU going down, from its call-function interrupt: stop for good. */
static void play_dead(void *unused)
{
	dead[smp_processor_id()] = true;
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* The page at TRAMPOLINE_PHYS, with the words the AP reads filled in for @cpu. */
static void setup_trampoline(unsigned int cpu)
{
	u8 *page = phys_to_virt(TRAMPOLINE_PHYS);
	u32 cr3 = virt_to_phys(trampoline_pg_dir), cr4;

	memcpy(trampoline_pg_dir, swapper_pg_dir, sizeof(trampoline_pg_dir));
	trampoline_pg_dir[0] = 0x083; /* present, writable, 4 MiB: physical 0 at 0 */
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	memcpy(page, trampoline_start, (size_t)(trampoline_end - trampoline_start));
	*(u32 *)(page + ((const u8 *)trampoline_cr3 - trampoline_start)) = cr3;
	*(u32 *)(page + ((const u8 *)trampoline_cr4 - trampoline_start)) = cr4;
	*(u32 *)(page + ((const u8 *)trampoline_stack - trampoline_start)) =
		(u32)ap_stack[cpu] + AP_STACK_PAGES * PAGE_SIZE;
	*(u32 *)(page + ((const u8 *)trampoline_entry - trampoline_start)) = (u32)start_secondary;
}

/* INIT, then two STARTUPs 200 us apart, as the SDM's MP initialization protocol says. */
static int wakeup_secondary(unsigned int cpu)
{
	unsigned int apicid = cpu_apicid[cpu];

	booting_cpu = cpu;
	if (!apic_send_init(apicid))
		return -EIO;
	mdelay(10);
	for (int i = 0; i < 2; i++) {
		if (!apic_send_startup(apicid, TRAMPOLINE_PHYS >> 12))
			return -EIO;
		udelay(200);
	}
	for (int ms = 0; ms < AP_WAIT_MS && !online[cpu]; ms++)
		mdelay(1);
	return online[cpu] ? 0 : -EIO;
}

int cpu_up(unsigned int cpu)
{
	int err;

	if (cpu == 0 || cpu >= nr_present || online[cpu])
		return -EINVAL; /* as 2.6's cpu_up: only a present CPU that is offline */
	if (!ap_stack[cpu]) {
		ap_stack[cpu] = alloc_pages(AP_STACK_PAGES);
		if (!ap_stack[cpu])
			return -ENOMEM;
	}
	pr_info("Booting processor %u/%u eip %x\n", cpu, cpu_apicid[cpu], TRAMPOLINE_PHYS);
	setup_trampoline(cpu);
	err = wakeup_secondary(cpu);
	if (err) {
		pr_err("CPU%u: Not responding.\n", cpu);
		apic_send_init(cpu_apicid[cpu]); /* leave it waiting for a STARTUP */
		return err;
	}
	pr_info("CPU%u: %s %s stepping %02x\n", cpu, cpu_data[cpu].vendor,
		cpu_data[cpu].model_id, cpu_data[cpu].stepping);
	return 0;
}

int cpu_down(unsigned int cpu)
{
	int err;

	if (cpu == 0 || cpu >= nr_present || !online[cpu])
		return -EINVAL;
	err = smp_call_function_single(cpu, play_dead, NULL, false);
	for (int ms = 0; !err && ms < AP_WAIT_MS && !dead[cpu]; ms++)
		mdelay(1);
	if (!err && !dead[cpu])
		err = -EIO;
	if (err)
		return err;
	online[cpu] = false;
	apic_send_init(cpu_apicid[cpu]); /* now it waits for a STARTUP */
	pr_info("CPU %u is now offline\n", cpu);
	return 0;
}

static bool frozen[NR_CPUS]; /* taken down by disable_nonboot_cpus */

int disable_nonboot_cpus(void)
{
	int err = 0;

	pr_info("Disabling non-boot CPUs ...\n");
	for (unsigned int cpu = 1; cpu < nr_present; cpu++) {
		if (!online[cpu])
			continue;
		err = cpu_down(cpu);
		if (err) {
			pr_err("Error taking CPU%u down: %d\n", cpu, err);
			break;
		}
		frozen[cpu] = true;
		pr_info("CPU%u is down\n", cpu);
	}
	return err;
}

void enable_nonboot_cpus(void)
{
	pr_info("Enabling non-boot CPUs ...\n");
	for (unsigned int cpu = 1; cpu < nr_present; cpu++) {
		int err;

		if (!frozen[cpu])
			continue;
		frozen[cpu] = false;
		err = cpu_up(cpu);
		if (err)
			pr_warn("Error taking CPU%u up: %d\n", cpu, err);
		else
			pr_info("CPU%u is up\n", cpu);
	}
}

/* Each enabled local APIC of the MADT but the boot CPU's, in table order, up to NR_CPUS. */
static void find_cpus(void)
{
	const struct acpi_header *madt = acpi_find_table("APIC");
	const u8 *p, *end;

	cpu_apicid[0] = apic_id();
	if (!madt)
		return;
	p = (const u8 *)madt + sizeof(*madt) + 8; /* the local APIC address, flags */
	end = (const u8 *)madt + madt->length;
	for (; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		if (p[0] != ACPI_MADT_LOCAL_APIC || p[1] < 8 || !(p[4] & ACPI_MADT_ENABLED) ||
		    p[3] == cpu_apicid[0])
			continue;
		if (nr_present == NR_CPUS) {
			pr_warn("WARNING: NR_CPUS limit of %u reached. Processor %u (APIC %u) ignored.\n",
				NR_CPUS, p[2], p[3]);
			continue;
		}
		cpu_apicid[nr_present++] = p[3];
	}
}

void smp_init(void)
{
	unsigned int cpu, bogo = 0;

	if (!apic_present()) {
		pr_info("SMP: no local APIC: one CPU\n");
		return;
	}
	find_cpus();
	for (cpu = 1; cpu < nr_present; cpu++)
		cpu_up(cpu);
	for_each_online_cpu(cpu)
		bogo += tsc_khz / 5; /* each CPU's BogoMIPS x 100, as /proc/cpuinfo shows it */
	pr_info("Total of %u processors activated (%u.%02u BogoMIPS).\n", num_online_cpus(),
		bogo / 100, bogo % 100);
	pr_info("Brought up %u CPUs\n", num_online_cpus());
}
