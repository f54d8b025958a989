/*
 * time.c: the kernel's clocks. The 8254 PIT ticks at HZ for jiffies; the
 * CPU's time stamp counter, calibrated against PIT channel 2, gives
 * nanoseconds since the first instruction (boot.S saves that TSC value).
 * Each CPU's local APIC timer ticks its scheduler (kernel/apic.c), as 2.6
 * i386's did beside the PIT's global tick.
 * The PIT's system device is /sys/devices/system/timer/timer0 (Linux 2.6's
 * arch/i386/kernel/time.c); its resume programs the tick again.
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/clock.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/sysdev.h>
#include <kobold/time.h>
#include <kobold/timer.h>

#define PIT_HZ 1193182
#define PIT_CH0 0x40
#define PIT_CH2 0x42
#define PIT_MODE 0x43
#define PORT_B 0x61 /* bit 0: channel 2 gate, bit 5: channel 2 output */
#define CALIBRATE_MS 10

extern u64 boot_tsc;
u32 tsc_khz; /* the calibrated TSC rate; 0 until time_init */
volatile unsigned long jiffies;

/*
 * A tick: jiffies follows the TSC, so that ticks QEMU delivers late and in
 * a burst (its vCPU threads wait for the host) neither run the clock ahead
 * nor lose time (2.6.21's tick_do_update_jiffies64 counts from its clock
 * source the same way).
 */
static enum irqreturn timer_interrupt(int irq, void *dev)
{
	unsigned long now = (unsigned long)(ktime_get_ns() / (1000000000ULL / HZ));

	if ((long)(now - jiffies) > 0)
		jiffies = now;
	run_timers(jiffies);
	if (!apic_timer_running)
		scheduler_tick(); /* no local APIC timer: the PIT ticks the running thread's slice */
	return IRQ_HANDLED;
}

/* Count TSC cycles while PIT channel 2 counts down CALIBRATE_MS in mode 0. */
static u32 calibrate_tsc_khz(void)
{
	u32 count = PIT_HZ * CALIBRATE_MS / 1000;
	u64 t0, t1;

	outb(PORT_B, (inb(PORT_B) & ~0x02) | 0x01);
	outb(PIT_MODE, 0xb0); /* channel 2, lobyte/hibyte, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	t0 = rdtsc();
	while (!(inb(PORT_B) & 0x20))
		;
	t1 = rdtsc();
	return (u32)((t1 - t0) / CALIBRATE_MS);
}

static void setup_pit_timer(void)
{
	u32 divisor = PIT_HZ / HZ;

	outb(PIT_MODE, 0x34); /* channel 0, lobyte/hibyte, mode 2 (rate generator) */
	outb(PIT_CH0, divisor & 0xff);
	outb(PIT_CH0, divisor >> 8);
}

void time_init(void)
{
	tsc_khz = calibrate_tsc_khz();
	setup_pit_timer();
	if (request_irq(0, timer_interrupt, "timer", NULL))
		pr_err("timer: no interrupt: no tick\n");
	pr_info("tsc: calibrated against the PIT: %u.%03u MHz\n", tsc_khz / 1000,
		tsc_khz % 1000);
	if (calibrate_APIC_clock())
		setup_APIC_timer(); /* the boot CPU's; each AP starts its own */
}

u64 ktime_get_ns(void)
{
	u64 d;

	if (!tsc_khz)
		return 0;
	d = rdtsc() - boot_tsc;
	return d / tsc_khz * 1000000ULL + d % tsc_khz * 1000000ULL / tsc_khz;
}

void mdelay(unsigned int ms)
{
	u64 end = ktime_get_ns() + (u64)ms * 1000000ULL;

	while (ktime_get_ns() < end)
		cpu_relax();
}

void udelay(unsigned int us)
{
	u64 end = ktime_get_ns() + (u64)us * 1000ULL;

	while (ktime_get_ns() < end)
		cpu_relax();
}

/* The PIT may have lost its mode and count while the machine slept. */
static int timer_resume(struct sys_device *dev)
{
	setup_pit_timer();
	return 0;
}

static struct sysdev_class timer_sysclass = {
	.name = "timer",
	.resume = timer_resume,
};

static struct sys_device device_timer = {
	.id = 0,
	.cls = &timer_sysclass,
};

int time_init_device(void)
{
	int err = sysdev_class_register(&timer_sysclass);

	return err ? err : sysdev_register(&device_timer);
}
