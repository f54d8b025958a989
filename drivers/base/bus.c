/*
 * bus.c: bus types (Linux 2.6's drivers/base/bus.c): /sys/bus/<bus> with its
 * devices/ and drivers/ directories, the bus's lists, and bus attributes.
 * The lists are klists, as since 2.6.13: walking them holds no lock while
 * the walker's function runs, so a probe may sleep, register children on
 * another bus, or wait for a device being removed.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/string.h>

#include "base.h"

struct kset bus_subsys;

static struct bus_type *to_bus(struct kobject *kobj)
{
	return container_of(kobj, struct bus_type, subsys.kobj);
}

static ssize_t bus_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct bus_attribute *ba = container_of(attr, struct bus_attribute, attr);

	return ba->show ? ba->show(to_bus(kobj), buf) : -EIO;
}

static ssize_t bus_attr_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct bus_attribute *ba = container_of(attr, struct bus_attribute, attr);

	return ba->store ? ba->store(to_bus(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops bus_sysfs_ops = {
	.show = bus_attr_show,
	.store = bus_attr_store,
};

/* bus_types are static: nothing to free. */
static void bus_release(struct kobject *kobj __unused)
{
}

static struct kobj_type ktype_bus = {
	.release = bus_release,
	.sysfs_ops = &bus_sysfs_ops,
};

bool bus_is_registered(const struct bus_type *bus)
{
	return bus->subsys.kobj.state == KOBJ_STATE_ADDED;
}

int bus_create_file(struct bus_type *bus, struct bus_attribute *attr)
{
	return sysfs_create_file(&bus->subsys.kobj, &attr->attr);
}

void bus_remove_file(struct bus_type *bus, struct bus_attribute *attr)
{
	sysfs_remove_file(&bus->subsys.kobj, &attr->attr);
}

static int add_dev_attrs(struct device *dev)
{
	struct device_attribute *a;
	int err;

	for (a = dev->bus->dev_attrs; a && a->attr.name; a++) {
		err = device_create_file(dev, a);
		if (err)
			return err;
	}
	return 0;
}

static void remove_dev_attrs(struct device *dev)
{
	struct device_attribute *a;

	for (a = dev->bus->dev_attrs; a && a->attr.name; a++)
		device_remove_file(dev, a);
}

/* The bus's files for a new device: its attributes and the two links. */
int bus_add_device(struct device *dev)
{
	struct bus_type *bus = dev->bus;
	int err;

	if (!bus)
		return 0;
	err = add_dev_attrs(dev);
	if (err)
		return err;
	err = sysfs_create_link(&bus->devices.kobj, &dev->kobj, kobject_name(&dev->kobj));
	if (err)
		return err; /* device_add's unwinding removes the directory */
	err = sysfs_create_link(&dev->kobj, &bus->subsys.kobj, "subsystem");
	if (err) {
		sysfs_remove_link(&bus->devices.kobj, kobject_name(&dev->kobj));
		return err;
	}
	klist_add_tail(&dev->knode_bus, &bus->klist_devices);
	return 0;
}

void bus_remove_device(struct device *dev)
{
	struct bus_type *bus = dev->bus;

	if (!bus)
		return;
	sysfs_remove_link(&dev->kobj, "subsystem");
	sysfs_remove_link(&bus->devices.kobj, kobject_name(&dev->kobj));
	remove_dev_attrs(dev);
	klist_del(&dev->knode_bus);
}

int bus_for_each_dev(struct bus_type *bus, struct device *start, void *data,
		     int (*fn)(struct device *dev, void *data))
{
	struct klist_iter i;
	struct klist_node *n;
	bool started = !start;
	int err = 0;

	klist_iter_init(&bus->klist_devices, &i);
	while (!err && (n = klist_next(&i))) {
		struct device *dev = container_of(n, struct device, knode_bus);

		if (started)
			err = fn(dev, data);
		else
			started = dev == start;
	}
	klist_iter_exit(&i);
	return err;
}

int bus_for_each_drv(struct bus_type *bus, struct device_driver *start, void *data,
		     int (*fn)(struct device_driver *drv, void *data))
{
	struct klist_iter i;
	struct klist_node *n;
	bool started = !start;
	int err = 0;

	klist_iter_init(&bus->klist_drivers, &i);
	while (!err && (n = klist_next(&i))) {
		struct device_driver *drv = container_of(n, struct device_driver, knode_bus);

		if (started)
			err = fn(drv, data);
		else
			started = drv == start;
	}
	klist_iter_exit(&i);
	return err;
}

/* A device's name as written to a file: one trailing newline (echo's) is not part of it. */
static bool name_matches(const char *bus_id, const char *buf, size_t count)
{
	size_t len = strlen(bus_id);

	if (count && buf[count - 1] == '\n')
		count--;
	return count == len && memcmp(bus_id, buf, len) == 0;
}

struct name_query {
	const char *buf;
	size_t count;
	struct device *found;
};

static int match_name(struct device *dev, void *data)
{
	struct name_query *q = data;

	if (!name_matches(dev->bus_id, q->buf, q->count))
		return 0;
	q->found = get_device(dev);
	return 1;
}

static struct device *find_device_by_text(struct bus_type *bus, const char *buf, size_t count)
{
	struct name_query q = { buf, count, NULL };

	bus_for_each_dev(bus, NULL, &q, match_name);
	return q.found;
}

struct device *bus_find_device_by_name(struct bus_type *bus, const char *name)
{
	return find_device_by_text(bus, name, strlen(name));
}

/* /sys/bus/<bus>/drivers/<drv>/unbind: the device named must be bound to drv. */
static ssize_t driver_unbind(struct device_driver *drv, const char *buf, size_t count)
{
	struct device *dev = find_device_by_text(drv->bus, buf, count);
	ssize_t err = -ENODEV;

	if (dev && dev->driver == drv) {
		if (dev->parent) /* 2.6.18's rule: the parent's dev->sem first */
			device_sem_down(dev->parent);
		device_release_driver(dev);
		if (dev->parent)
			device_sem_up(dev->parent);
		err = (ssize_t)count;
	}
	put_device(dev);
	return err;
}
static DRIVER_ATTR(unbind, S_IWUSR, NULL, driver_unbind);

/* .../bind: the device named must match drv and be unbound; probe's error comes back. */
static ssize_t driver_bind(struct device_driver *drv, const char *buf, size_t count)
{
	struct device *dev = find_device_by_text(drv->bus, buf, count);
	ssize_t err = -ENODEV;

	if (!dev || (drv->bus->match && !drv->bus->match(dev, drv))) {
		put_device(dev);
		return -ENODEV;
	}
	if (dev->parent)
		device_sem_down(dev->parent);
	device_sem_down(dev);
	if (dev->driver)
		err = -EBUSY;
	else
		err = driver_probe_device(drv, dev) ?: (ssize_t)count;
	device_sem_up(dev);
	if (dev->parent)
		device_sem_up(dev->parent);
	put_device(dev);
	return err;
}
static DRIVER_ATTR(bind, S_IWUSR, NULL, driver_bind);

/* As Linux 2.6.13 on: every driver of every bus gets the two files. */
int add_bind_files(struct device_driver *drv)
{
	int err = driver_create_file(drv, &driver_attr_unbind);

	if (!err)
		err = driver_create_file(drv, &driver_attr_bind);
	return err;
}

static int add_bus_attrs(struct bus_type *bus)
{
	struct bus_attribute *a;
	int err;

	for (a = bus->bus_attrs; a && a->attr.name; a++) {
		err = bus_create_file(bus, a);
		if (err)
			return err;
	}
	return 0;
}

static int register_child_kset(struct bus_type *bus, struct kset *kset, const char *name)
{
	int err = kobject_set_name(&kset->kobj, "%s", name);

	if (err)
		return err;
	kset->kobj.parent = &bus->subsys.kobj;
	return kset_register(kset);
}

/* A device on the bus's list is pinned there (2.6.13's klist_devices_get). */
static void klist_devices_get(struct klist_node *n)
{
	get_device(container_of(n, struct device, knode_bus));
}

static void klist_devices_put(struct klist_node *n)
{
	put_device(container_of(n, struct device, knode_bus));
}

int bus_register(struct bus_type *bus)
{
	int err;

	if (!bus->name || !*bus->name)
		return -EINVAL;
	err = kobject_set_name(&bus->subsys.kobj, "%s", bus->name);
	if (err)
		return err;
	bus->subsys.kobj.kset = &bus_subsys;
	bus->subsys.kobj.parent = NULL;
	klist_init(&bus->klist_devices, klist_devices_get, klist_devices_put);
	klist_init(&bus->klist_drivers, NULL, NULL);
	err = kset_register(&bus->subsys);
	if (err)
		return err;
	err = register_child_kset(bus, &bus->devices, "devices");
	if (err)
		goto out_subsys;
	bus->drivers.ktype = &ktype_driver; /* the type of its members */
	err = register_child_kset(bus, &bus->drivers, "drivers");
	if (err)
		goto out_devices;
	err = add_bus_attrs(bus);
	if (err)
		goto out_drivers;
	devmodel_trace_kobj("bus_register", &bus->subsys.kobj, NULL);
	return 0;

out_drivers:
	kset_unregister(&bus->drivers);
out_devices:
	kset_unregister(&bus->devices);
out_subsys:
	kset_unregister(&bus->subsys);
	return err;
}

void bus_unregister(struct bus_type *bus)
{
	if (WARN(!list_empty(&bus->klist_devices.k_list) || !list_empty(&bus->klist_drivers.k_list),
		 "bus '%s': bus_unregister with devices or drivers still registered",
		 bus->name))
		return;
	devmodel_trace_kobj("bus_unregister", &bus->subsys.kobj, NULL);
	kset_unregister(&bus->drivers);
	kset_unregister(&bus->devices);
	kset_unregister(&bus->subsys);
}

int buses_init(void)
{
	kobject_set_name(&bus_subsys.kobj, "bus");
	bus_subsys.ktype = &ktype_bus;
	return kset_register(&bus_subsys);
}
