/*
 * reboot.c: poweroff and reboot as Linux 2.6's kernel/sys.c does them: every
 * driver's shutdown (children before parents), then the machine's own switch.
 */
#include <kobold/device.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/reboot.h>

void kernel_power_off(void)
{
	device_shutdown();
	printk(KERN_NOTICE "reboot: Power down\n");
	machine_power_off();
}

void kernel_restart(void)
{
	device_shutdown();
	printk(KERN_NOTICE "reboot: Restarting system\n");
	machine_restart();
}
