/*
 * shutdown.c: device_shutdown (Linux 2.6's drivers/base/power/shutdown.c):
 * before the machine goes off or restarts, each bound driver's shutdown,
 * walking /sys/devices' list from its end, so children before their parents;
 * then the system devices' (the interrupt controllers last but one, as 2.6).
 * The walk holds the devices kset's rwsem: no device joins or leaves meanwhile.
 */
#include <kobold/device.h>
#include <kobold/sysdev.h>

#include "../base.h"

void device_shutdown(void)
{
	struct kobject *k;

	down_read(&devices_subsys.rwsem); /* 2.6.10 took it for write: nothing is added now either way */
	list_for_each_entry_reverse(k, &devices_subsys.list, entry) {
		struct device *dev = to_dev(k);

		if (!dev->driver || !dev->driver->shutdown)
			continue;
		devmodel_trace_kobj("device_shutdown", &dev->kobj, dev->driver->name);
		dev->driver->shutdown(dev);
	}
	up_read(&devices_subsys.rwsem);
	sysdev_shutdown();
}
