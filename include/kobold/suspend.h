/*
 * suspend.h: system sleep (Linux's <linux/suspend.h>, kernel/power/):
 * /sys/power/state and pm_test, and the device walk they run.
 */
#ifndef KOBOLD_SUSPEND_H
#define KOBOLD_SUSPEND_H

/* How far a test suspend goes before it turns back (Linux's pm_test levels). */
enum pm_test_level { TEST_NONE,
		     TEST_DEVICES };

extern enum pm_test_level pm_test_level;

/* Suspend to RAM: with pm_test "devices", the devices' suspend, a wait, their resume. */
int pm_suspend(void);
/* /sys/power (kernel/power/main.c). */
int pm_init(void);

#endif
