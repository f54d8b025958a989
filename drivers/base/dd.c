/*
 * dd.c: binding devices and drivers (Linux 2.6's drivers/base/dd.c). The bus's
 * match() pairs them, the driver's probe() accepts the device, and links
 * show the binding both ways in sysfs. Probe and remove run with dev->sem
 * held, as 2.6.13-2.6.18's dd.c: a device is bound or unbound by one
 * thread at a time, and a driver attaching to all its devices takes each
 * parent's semaphore first (2.6.18: "Needed for USB").
 */
#include <kobold/device.h>
#include <kobold/errno.h>

#include "base.h"

static void device_bind_driver(struct device *dev)
{
	struct device_driver *drv = dev->driver;

	klist_add_tail(&dev->knode_driver, &drv->klist_devices);
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
	int ret = 0;

	device_sem_down(dev);
	if (dev->driver)
		ret = 1;
	else if (dev->bus)
		ret = bus_for_each_drv(dev->bus, NULL, dev, try_driver);
	device_sem_up(dev);
	return ret;
}

static int try_device(struct device *dev, void *data)
{
	struct device_driver *drv = data;

	if (drv->bus->match && !drv->bus->match(dev, drv))
		return 0; /* no lock taken for a device that is not ours */
	if (dev->parent)
		device_sem_down(dev->parent);
	device_sem_down(dev);
	if (!dev->driver)
		driver_probe_device(drv, dev);
	device_sem_up(dev);
	if (dev->parent)
		device_sem_up(dev->parent);
	return 0;
}

void driver_attach(struct device_driver *drv)
{
	bus_for_each_dev(drv->bus, NULL, drv, try_device);
}

/* With dev->sem held. */
static void __device_release_driver(struct device *dev)
{
	struct device_driver *drv = dev->driver;

	if (!drv)
		return;
	devmodel_trace_kobj("device_release_driver", &dev->kobj, drv->name);
	sysfs_remove_link(&drv->kobj, kobject_name(&dev->kobj));
	sysfs_remove_link(&dev->kobj, "driver");
	klist_del(&dev->knode_driver);
	if (drv->remove)
		drv->remove(dev);
	devres_release_all(dev); /* after remove(), newest first (Linux 2.6.21) */
	dev->driver = NULL;
}

void device_release_driver(struct device *dev)
{
	device_sem_down(dev);
	__device_release_driver(dev);
	device_sem_up(dev);
}

/* The first device still bound to drv, held; NULL when none is left. */
static struct device *first_bound(struct device_driver *drv)
{
	struct klist_iter i;
	struct klist_node *n;
	struct device *dev = NULL;

	klist_iter_init(&drv->klist_devices, &i);
	n = klist_next(&i);
	if (n)
		dev = get_device(container_of(n, struct device, knode_driver));
	klist_iter_exit(&i);
	return dev;
}

/* Every device drv is bound to, unbound: 2.6.18's driver_detach, parents' semaphores first. */
void driver_detach(struct device_driver *drv)
{
	struct device *dev;

	while ((dev = first_bound(drv))) {
		if (dev->parent)
			device_sem_down(dev->parent);
		device_sem_down(dev);
		if (dev->driver == drv)
			__device_release_driver(dev);
		device_sem_up(dev);
		if (dev->parent)
			device_sem_up(dev->parent);
		put_device(dev);
	}
}
