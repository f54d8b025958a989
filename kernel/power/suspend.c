/*
 * suspend.c: suspend to RAM (Linux's kernel/power/suspend.c). Kobold cannot
 * put the machine to sleep, so only the pm_test levels run: "devices" is
 * every device's suspend (children first), a wait, every device's resume;
 * "processors" goes on to take every CPU but the boot CPU down (and brings
 * them back after the wait); "core" goes on from there with interrupts off
 * to the system devices (the interrupt controllers and the timer) and waits
 * there, as Linux 2.6.25's suspend_devices_and_enter and suspend_enter.
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/smp.h>
#include <kobold/suspend.h>
#include <kobold/sysdev.h>
#include <kobold/time.h>

enum pm_test_level pm_test_level;

static unsigned int pm_test_delay = 5;
module_param(pm_test_delay, uint, "seconds a pm_test suspend waits before resuming (5, as Linux)");

static void say_msecs(const char *what, u64 start_ns)
{
	u64 us = (ktime_get_ns() - start_ns) / 1000;

	pr_info("PM: %s of devices complete after %lu.%03lu msecs\n", what,
		(unsigned long)(us / 1000), (unsigned long)(us % 1000));
}

static void suspend_test_wait(void)
{
	pr_info("suspend debug: Waiting for %u second(s).\n", pm_test_delay);
	mdelay(pm_test_delay * 1000);
}

/* Linux's suspend_enter: interrupts off, the system devices, the wait at "core". */
static int suspend_enter(void)
{
	int err;

	local_irq_disable();
	err = sysdev_suspend(PMSG_SUSPEND);
	if (!err) {
		suspend_test_wait();
		sysdev_resume();
	}
	local_irq_enable();
	return err;
}

int pm_suspend(void)
{
	u64 start;
	int err;

	if (pm_test_level == TEST_NONE) {
		pr_err("PM: Kobold cannot put the machine to sleep; only pm_test \"core\", \"processors\" and \"devices\" run\n");
		return -EOPNOTSUPP;
	}
	pr_info("PM: suspend entry (deep)\n");
	start = ktime_get_ns();
	err = device_suspend(PMSG_SUSPEND);
	if (err) {
		pr_err("PM: Some devices failed to suspend\n");
		return err;
	}
	say_msecs("suspend", start);
	if (pm_test_level == TEST_DEVICES) {
		suspend_test_wait();
	} else {
		err = disable_nonboot_cpus();
		if (!err && pm_test_level == TEST_CPUS)
			suspend_test_wait();
		else if (!err)
			err = suspend_enter();
		enable_nonboot_cpus();
	}
	start = ktime_get_ns();
	device_resume();
	say_msecs("resume", start);
	pr_info("PM: suspend exit\n");
	return err;
}
