/*
 * apic.c: the local APIC (Intel SDM vol. 3, ch. 10), there for MSI-X. It is
 * enabled in "virtual wire" mode: LINT0 passes the 8259's interrupts on as
 * ExtINT (acknowledged at the 8259), LINT1 is the NMI, and message
 * interrupts arrive on their own vectors, acknowledged here with an EOI.
 * With an I/O APIC the 8259 is masked and the ISA lines come as messages
 * too. Its system device is /sys/devices/system/lapic/lapic0. Each other
 * CPU has an APIC of its own, enabled as it comes up, and the boot CPU's
 * sends it the INIT and STARTUP messages that start it (kernel/smpboot.c).
 * Each CPU's APIC timer ticks that CPU's scheduler at HZ (SDM vol. 3,
 * 10.5.4), as 2.6 i386's local timer interrupt; the PIT keeps jiffies.
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/printk.h>
#include <kobold/sysdev.h>
#include <kobold/time.h>

#define MSR_IA32_APICBASE 0x1b
#define MSR_IA32_APICBASE_ENABLE (1u << 11)
#define MSR_IA32_APICBASE_BASE 0xfffff000u
#define CPUID_1_EDX_APIC (1u << 9)

/* Register offsets (SDM vol. 3, table 10-1). */
#define APIC_ID 0x20
#define APIC_TASKPRI 0x80
#define APIC_EOI 0xb0
#define APIC_SPIV 0xf0
#define APIC_SPIV_APIC_ENABLED (1u << 8)
#define APIC_ICR 0x300		 /* interrupt command, low word: writing it sends */
#define APIC_ICR2 0x310		 /* high word: the destination APIC id in bits 31:24 */
#define APIC_ICR_BUSY (1u << 12) /* delivery status: still sending */
#define APIC_INT_LEVELTRIG 0x8000
#define APIC_INT_ASSERT 0x4000
#define APIC_DM_INIT 0x500
#define APIC_DM_STARTUP 0x600
#define APIC_LVTT 0x320
#define APIC_LVT_TIMER_PERIODIC (1u << 17)
#define APIC_TMICT 0x380 /* the timer's initial count */
#define APIC_TMCCT 0x390 /* its current count */
#define APIC_TDCR 0x3e0	 /* its divide configuration */
#define APIC_TDR_DIV_16 0x3
#define CALIBRATE_MS 10
#define APIC_LVT0 0x350
#define APIC_LVT1 0x360
#define APIC_LVTERR 0x370
#define APIC_LVT_MASKED (1u << 16)
#define APIC_DM_NMI 0x400
#define APIC_DM_EXTINT 0x700

static volatile u32 *apic_base;

static u32 apic_read(unsigned int reg)
{
	return apic_base[reg / 4];
}

static void apic_write(unsigned int reg, u32 v)
{
	apic_base[reg / 4] = v;
}

static bool cpu_has_apic(void)
{
	u32 eax = 1, ebx, ecx = 0, edx;

	__asm__ volatile("cpuid"
			 : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));
	return edx & CPUID_1_EDX_APIC;
}

static u64 rdmsr(u32 msr)
{
	u32 lo, hi;

	__asm__ volatile("rdmsr"
			 : "=a"(lo), "=d"(hi)
			 : "c"(msr));
	return (u64)hi << 32 | lo;
}

static void wrmsr(u32 msr, u64 v)
{
	__asm__ volatile("wrmsr"
			 :
			 : "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)));
}

bool apic_init(void)
{
	u64 base;

	if (!cpu_has_apic()) {
		pr_info("APIC: none; interrupts through the 8259 only (no MSI-X)\n");
		return false;
	}
	base = rdmsr(MSR_IA32_APICBASE);
	if (!(base & MSR_IA32_APICBASE_ENABLE))
		wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	if (!apic_base)
		apic_base = ioremap((unsigned long)(base & MSR_IA32_APICBASE_BASE), PAGE_SIZE);
	if (!apic_base) {
		pr_err("APIC: could not map its registers\n");
		return false;
	}
	apic_write(APIC_LVTT, APIC_LVT_MASKED); /* until setup_APIC_timer */
	apic_write(APIC_LVTERR, APIC_LVT_MASKED);
	apic_write(APIC_LVT0, APIC_DM_EXTINT); /* virtual wire: the 8259 */
	apic_write(APIC_LVT1, APIC_DM_NMI);
	apic_write(APIC_TASKPRI, 0); /* accept every priority */
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
	pr_info("APIC: local APIC %u at %#lx, virtual wire mode\n", apic_id(),
		(unsigned long)(base & MSR_IA32_APICBASE_BASE));
	return true;
}

/* An AP's own APIC: on, every local source masked; it takes IPIs only (no ExtINT: one 8259 master). */
void apic_init_secondary(void)
{
	u64 base = rdmsr(MSR_IA32_APICBASE);

	if (!(base & MSR_IA32_APICBASE_ENABLE))
		wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_LVTERR, APIC_LVT_MASKED);
	apic_write(APIC_LVT0, APIC_LVT_MASKED);
	apic_write(APIC_LVT1, APIC_DM_NMI);
	apic_write(APIC_TASKPRI, 0);
	apic_write(APIC_SPIV, APIC_SPIV_APIC_ENABLED | SPURIOUS_APIC_VECTOR);
}

/* Sends one interprocessor interrupt and waits until the APIC has delivered it (SDM 10.6.1). */
static bool apic_send_ipi(unsigned int apicid, u32 low)
{
	for (int i = 0; i < 1000 && (apic_read(APIC_ICR) & APIC_ICR_BUSY); i++)
		udelay(1);
	apic_write(APIC_ICR2, apicid << 24);
	apic_write(APIC_ICR, low);
	for (int i = 0; i < 1000; i++) {
		if (!(apic_read(APIC_ICR) & APIC_ICR_BUSY))
			return true;
		udelay(1);
	}
	return false;
}

/* INIT, asserted then deasserted: the AP stops whatever it does and waits for a STARTUP. */
bool apic_send_init(unsigned int apicid)
{
	bool ok = apic_send_ipi(apicid, APIC_DM_INIT | APIC_INT_LEVELTRIG | APIC_INT_ASSERT);

	return apic_send_ipi(apicid, APIC_DM_INIT | APIC_INT_LEVELTRIG) && ok;
}

/* STARTUP: the AP begins in real mode at page @page of the first MiB (CS = page << 8, IP = 0). */
bool apic_send_startup(unsigned int apicid, unsigned int page)
{
	return apic_send_ipi(apicid, APIC_DM_STARTUP | page);
}

bool apic_send_ipi_vector(unsigned int apicid, unsigned int vector)
{
	unsigned long flags = local_irq_save(); /* ICR2 and ICR, written as a pair */
	bool ok = apic_send_ipi(apicid, vector);

	local_irq_restore(flags);
	return ok;
}

static u32 apic_timer_count; /* bus clocks / 16 in one tick */
bool apic_timer_running;

/* On the boot CPU, once: the timer's count over CALIBRATE_MS against the TSC (time_init's). */
bool calibrate_APIC_clock(void)
{
	u32 left;

	if (!apic_base)
		return false;
	apic_write(APIC_LVTT, APIC_LVT_MASKED);
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_TMICT, 0xffffffffu);
	mdelay(CALIBRATE_MS);
	left = apic_read(APIC_TMCCT);
	apic_write(APIC_TMICT, 0);
	apic_timer_count = (0xffffffffu - left) / CALIBRATE_MS * 1000 / HZ;
	if (!apic_timer_count)
		return false;
	pr_info("APIC timer: calibrated against the TSC: %u.%03u MHz bus clock\n",
		apic_timer_count * 16 * HZ / 1000000, apic_timer_count * 16 * HZ / 1000 % 1000);
	return true;
}

/* On each CPU: the timer periodic at HZ. */
void setup_APIC_timer(void)
{
	if (!apic_base || !apic_timer_count)
		return;
	apic_write(APIC_TDCR, APIC_TDR_DIV_16);
	apic_write(APIC_LVTT, LOCAL_TIMER_VECTOR | APIC_LVT_TIMER_PERIODIC);
	apic_write(APIC_TMICT, apic_timer_count);
	apic_timer_running = true;
}

bool apic_present(void)
{
	return apic_base != NULL;
}

unsigned int apic_id(void)
{
	return apic_read(APIC_ID) >> 24;
}

void apic_eoi(void)
{
	apic_write(APIC_EOI, 0);
}

/* The registers apic_init set, kept across a suspend (the APIC may lose them). */
static const unsigned int lapic_regs[] = { APIC_TASKPRI, APIC_TDCR, APIC_LVTT, APIC_LVT0,
					   APIC_LVT1, APIC_LVTERR, APIC_SPIV, APIC_TMICT };
static u32 lapic_saved[ARRAY_SIZE(lapic_regs)];

static int lapic_suspend(struct sys_device *dev, pm_message_t state)
{
	for (size_t i = 0; i < ARRAY_SIZE(lapic_regs); i++)
		lapic_saved[i] = apic_read(lapic_regs[i]);
	return 0;
}

static int lapic_resume(struct sys_device *dev)
{
	u64 base = rdmsr(MSR_IA32_APICBASE);

	wrmsr(MSR_IA32_APICBASE, base | MSR_IA32_APICBASE_ENABLE);
	for (size_t i = 0; i < ARRAY_SIZE(lapic_regs); i++)
		apic_write(lapic_regs[i], lapic_saved[i]);
	return 0;
}

static struct sysdev_class lapic_sysclass = {
	.name = "lapic",
	.suspend = lapic_suspend,
	.resume = lapic_resume,
};

static struct sys_device device_lapic = {
	.id = 0,
	.cls = &lapic_sysclass,
};

/* As 2.6: the device only when the CPU has an APIC that we enabled. */
int init_lapic_sysfs(void)
{
	int err;

	if (!apic_present())
		return 0;
	err = sysdev_class_register(&lapic_sysclass);
	return err ? err : sysdev_register(&device_lapic);
}
