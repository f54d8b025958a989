/*
 * init.c: bringing the device model up (Linux 2.6's drivers/base/init.c):
 * sysfs, then /sys/kernel, /sys/devices, /sys/bus, /sys/class, /sys/firmware, the platform bus
 * and /sys/devices/system with its cpu class.
 */
#include <kobold/device.h>
#include <kobold/platform_device.h>
#include <kobold/string.h>
#include <kobold/sysdev.h>

#include "base.h"

struct kset kernel_subsys;

static ssize_t uevent_seqnum_show(struct kset *kset __unused, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%llu\n", (unsigned long long)uevent_seqnum);
}

static struct subsys_attribute uevent_seqnum_attr = {
	.attr = { .name = "uevent_seqnum", .mode = S_IRUGO },
	.show = uevent_seqnum_show,
};

int ksysfs_init(void)
{
	int err;

	kobject_set_name(&kernel_subsys.kobj, "kernel");
	err = kset_register(&kernel_subsys);
	if (err)
		return err;
	return subsys_create_file(&kernel_subsys, &uevent_seqnum_attr);
}

int driver_init(void)
{
	static bool done;
	int err;

	if (done)
		return 0;
	err = sysfs_init();
	if (!err)
		err = ksysfs_init();
	if (!err)
		err = devices_init();
	if (!err)
		err = buses_init();
	if (!err)
		err = classes_init();
	if (!err)
		err = firmware_init();
	if (!err)
		err = platform_bus_init();
	if (!err)
		err = system_bus_init();
	if (!err)
		err = cpu_dev_init();
	if (err)
		pr_err("driver_init: error %d\n", err);
	done = !err;
	return err;
}

#ifdef KOBOLD_HOST
/* The host test binary has no kmain: bring the model up before main(), as boot does. */
static void __attribute__((constructor)) host_driver_init(void)
{
	driver_init();
}
#endif
