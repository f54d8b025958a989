/*
 * smpboot.c: finding the other CPUs (APs) in the ACPI MADT and starting
 * each with INIT, STARTUP, STARTUP through a real-mode trampoline (Intel
 * SDM vol. 3, 8.4.4; Linux 2.6's arch/i386/kernel/smpboot.c). An AP starts
 * on its idle thread's stack, loads the kernel's GDT and IDT, enables its
 * local APIC and its timer, reads CPUID, says it is up, and becomes its
 * idle thread: from then on the scheduler gives it threads. CPU hotplug
 * moves its threads off, parks it (play_dead) and sends it an INIT, after
 * which it waits for a STARTUP; it comes up again with the same sequence
 * as at boot. The CPU_ONLINE and CPU_DEAD notifiers start and stop what
 * each CPU has of its own (events/N, watchdog/N).
 */
#include <asm/page.h>
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <kobold/acpi.h>
#include <kobold/cpu.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/smp.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/time.h>

#define TRAMPOLINE_PHYS 0x8000 /* trampoline.S; reserved with the rest of the first MiB */
#define ACPI_MADT_LOCAL_APIC 0 /* ACPI 6.4 §5.2.12.2 */
#define ACPI_MADT_ENABLED 1
#define AP_WAIT_MS 1000

extern const u8 trampoline_start[], trampoline_end[];
extern const u32 trampoline_cr3[], trampoline_cr4[], trampoline_stack[], trampoline_entry[];

static unsigned int cpu_apicid[NR_CPUS];
static unsigned int nr_present = 1;
static volatile bool online[NR_CPUS] = { true };
static volatile bool dead[NR_CPUS]; /* parked by play_dead, ready for its INIT */
static struct notifier_block *cpu_chain;
static DEFINE_MUTEX(cpu_add_remove_lock); /* one CPU up or down at a time, as 2.6's */
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

int register_cpu_notifier(struct notifier_block *nb)
{
	struct notifier_block **p = &cpu_chain;

	mutex_lock(&cpu_add_remove_lock);
	while (*p)
		p = &(*p)->next;
	nb->next = NULL;
	*p = nb;
	mutex_unlock(&cpu_add_remove_lock);
	return 0;
}

void cpu_notify(unsigned long action, unsigned int cpu)
{
	for (struct notifier_block *nb = cpu_chain; nb; nb = nb->next)
		nb->notifier_call(nb, action, (void *)(unsigned long)cpu);
}

unsigned int hard_smp_processor_id(void)
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

/* The AP's first C code, on its idle thread's stack, with paging on. */
static void start_secondary(void)
{
	unsigned int cpu = booting_cpu;

	__asm__ volatile("mov %0, %%cr3" : : "r"(virt_to_phys(swapper_pg_dir)) : "memory");
	gdt_init(); /* this CPU's own GDT and TSS: processes run here too */
	tss_init();
	idt_load();
	apic_init_secondary();
	setup_APIC_timer();
	identify_cpu(&cpu_data[cpu]);
	dead[cpu] = false;
	sched_cpu_activate(cpu);
	online[cpu] = true; /* the boot CPU waits for this store */
	cpu_idle();
}

/* On the CPU going down, from its call-function interrupt: stop for good. */
static void play_dead(void *unused)
{
	dead[hard_smp_processor_id()] = true;
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* The page at TRAMPOLINE_PHYS, with the words the AP reads filled in for @cpu. */
static void setup_trampoline(unsigned int cpu, const struct task_struct *idle)
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
		(u32)idle->stack + THREAD_SIZE;
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

static int _cpu_up(unsigned int cpu)
{
	struct task_struct *idle;
	int err;

	if (cpu == 0 || cpu >= nr_present || online[cpu])
		return -EINVAL; /* as 2.6's cpu_up: only a present CPU that is offline */
	idle = idle_task_for(cpu);
	if (!idle)
		return -ENOMEM;
	pr_info("Booting processor %u/%u eip %x\n", cpu, cpu_apicid[cpu], TRAMPOLINE_PHYS);
	setup_trampoline(cpu, idle);
	err = wakeup_secondary(cpu);
	if (err) {
		pr_err("CPU%u: Not responding.\n", cpu);
		apic_send_init(cpu_apicid[cpu]); /* leave it waiting for a STARTUP */
		return err;
	}
	pr_info("CPU%u: %s %s stepping %02x\n", cpu, cpu_data[cpu].vendor,
		cpu_data[cpu].model_id, cpu_data[cpu].stepping);
	cpu_notify(CPU_ONLINE, cpu);
	return 0;
}

int cpu_up(unsigned int cpu)
{
	int err;

	mutex_lock(&cpu_add_remove_lock);
	err = _cpu_up(cpu);
	mutex_unlock(&cpu_add_remove_lock);
	return err;
}

/* Its threads move to the other CPUs, then it parks in play_dead and gets an INIT. */
static int _cpu_down(unsigned int cpu)
{
	int err;

	if (cpu == 0 || cpu >= nr_present || !online[cpu])
		return -EINVAL;
	sched_cpu_deactivate(cpu);
	fixup_irqs(cpu);
	mdelay(1); /* what it has taken already, it handles before it parks (2.6's fixup_irqs) */
	err = smp_call_function_single(cpu, play_dead, NULL, false);
	for (int ms = 0; !err && ms < AP_WAIT_MS && !dead[cpu]; ms++)
		mdelay(1);
	if (!err && !dead[cpu])
		err = -EIO;
	if (err) {
		sched_cpu_activate(cpu);
		return err;
	}
	online[cpu] = false;
	apic_send_init(cpu_apicid[cpu]); /* now it waits for a STARTUP */
	pr_info("CPU %u is now offline\n", cpu);
	cpu_notify(CPU_DEAD, cpu);
	return 0;
}

/*
 * The big kernel lock (a shell's command line holds it) is let go first:
 * the CPU's workers stop on the way, and one may be running a udev RUN+=
 * line that waits for it; held across cpu_add_remove_lock, it would be
 * taken back inside it, the other order.
 */
int cpu_down(unsigned int cpu)
{
	int depth = release_kernel_lock();
	int err;

	mutex_lock(&cpu_add_remove_lock);
	err = _cpu_down(cpu);
	mutex_unlock(&cpu_add_remove_lock);
	reacquire_kernel_lock(depth);
	return err;
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
		_cpu_up(cpu); /* interrupts off yet: no lock to sleep on, nobody to race */
	for_each_online_cpu(cpu)
		bogo += tsc_khz / 5; /* each CPU's BogoMIPS x 100, as /proc/cpuinfo shows it */
	pr_info("Total of %u processors activated (%u.%02u BogoMIPS).\n", num_online_cpus(),
		bogo / 100, bogo % 100);
	pr_info("Brought up %u CPUs\n", num_online_cpus());
}
