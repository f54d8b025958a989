/*
 * dd.c: binding devices and drivers (Linux 2.6's drivers/base/dd.c). The bus's
 * match() pairs them, the driver's probe() accepts the device, and links
 * show the binding both ways in sysfs.
 */
#include <kobold/device.h>
#include <kobold/errno.h>

#include "base.h"

static void device_bind_driver(struct device *dev)
{
	struct device_driver *drv = dev->driver;

	list_add_tail(&dev->driver_list, &drv->devices);
	if (sysfs_create_link(&drv->kobj, &dev->kobj, kobject_name(&dev->kobj)) ||
	    sysfs_create_link(&dev->kobj, &drv->kobj, "driver"))
		pr_warn("%s: could not link to driver %s\n", dev->bus_id, drv->name);
	devmodel_trace_kobj("device_bind_driver", &dev->kobj, drv->name);
}

/* 0 if drv took dev; -ENODEV if they do not match; else probe's error. */
int driver_probe_device(struct device_driver *drv, struct device *dev)
{
	int err;

	if (drv->bus->match && !drv->bus->match(dev, drv))
		return -ENODEV;
	dev->driver = drv;
	if (drv->probe) {
		err = drv->probe(dev);
		if (err) {
			devres_release_all(dev); /* what probe() took before it failed */
			dev->driver = NULL;
			if (err != -ENODEV && err != -ENXIO)
				pr_warn("%s: probe of %s failed with error %d\n", drv->name,
					dev->bus_id, err);
			return err;
		}
	}
	device_bind_driver(dev);
	return 0;
}

static int try_driver(struct device_driver *drv, void *data)
{
	return driver_probe_device(drv, data) == 0;
}

int device_attach(struct device *dev)
{
	if (dev->driver)
		return 1;
	if (!dev->bus)
		return 0;
	return bus_for_each_drv(dev->bus, NULL, dev, try_driver);
}

static int try_device(struct device *dev, void *data)
{
	if (!dev->driver)
		driver_probe_device(data, dev);
	return 0;
}

void driver_attach(struct device_driver *drv)
{
	bus_for_each_dev(drv->bus, NULL, drv, try_device);
}

void device_release_driver(struct device *dev)
{
	struct device_driver *drv = dev->driver;

	if (!drv)
		return;
	devmodel_trace_kobj("device_release_driver", &dev->kobj, drv->name);
	sysfs_remove_link(&drv->kobj, kobject_name(&dev->kobj));
	sysfs_remove_link(&dev->kobj, "driver");
	list_del_init(&dev->driver_list);
	if (drv->remove)
		drv->remove(dev);
	devres_release_all(dev); /* after remove(), newest first (Linux 2.6.21) */
	dev->driver = NULL;
}
