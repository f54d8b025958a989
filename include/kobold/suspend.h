/*
 * suspend.h: system sleep (Linux's <linux/suspend.h>, kernel/power/):
 * /sys/power/state and pm_test, and the device walk they run.
 */
#ifndef KOBOLD_SUSPEND_H
#define KOBOLD_SUSPEND_H

/* How far a test suspend goes before it turns back (Linux's pm_test levels). */
enum pm_test_level { TEST_NONE,
		     TEST_CORE,
		     TEST_CPUS,
		     TEST_DEVICES };

extern enum pm_test_level pm_test_level;

/*
 * Suspend to RAM, as far as the pm_test level: "devices" suspends the
 * devices, waits and resumes them; "core" goes on, with interrupts off, to
 * the system devices (sysdev_suspend), and waits there.
 */
int pm_suspend(void);
/* /sys/power (kernel/power/main.c). */
int pm_init(void);

#endif
