/*
 * driver.c: struct device_driver (Linux 2.6's drivers/base/driver.c):
 * /sys/bus/<bus>/drivers/<name>, driver attributes, register and unregister.
 */
#include <kobold/device.h>
#include <kobold/errno.h>

#include "base.h"

static struct device_driver *to_drv(struct kobject *kobj)
{
	return container_of(kobj, struct device_driver, kobj);
}

static ssize_t drv_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct driver_attribute *da = container_of(attr, struct driver_attribute, attr);

	return da->show ? da->show(to_drv(kobj), buf) : -EIO;
}

static ssize_t drv_attr_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct driver_attribute *da = container_of(attr, struct driver_attribute, attr);

	return da->store ? da->store(to_drv(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops driver_sysfs_ops = {
	.show = drv_attr_show,
	.store = drv_attr_store,
};

/* Drivers are static (built-in modules): nothing to free. */
static void driver_release(struct kobject *kobj __unused)
{
}

struct kobj_type ktype_driver = {
	.release = driver_release,
	.sysfs_ops = &driver_sysfs_ops,
};

int driver_create_file(struct device_driver *drv, struct driver_attribute *attr)
{
	return sysfs_create_file(&drv->kobj, &attr->attr);
}

void driver_remove_file(struct device_driver *drv, struct driver_attribute *attr)
{
	sysfs_remove_file(&drv->kobj, &attr->attr);
}

static int add_drv_attrs(struct device_driver *drv)
{
	struct driver_attribute *a;
	int err;

	for (a = drv->bus->drv_attrs; a && a->attr.name; a++) {
		err = driver_create_file(drv, a);
		if (err)
			return err;
	}
	return 0;
}

int driver_register(struct device_driver *drv)
{
	int err;

	if (!drv->name || !drv->bus || !bus_is_registered(drv->bus))
		return -EINVAL;
	klist_init(&drv->klist_devices, NULL, NULL);
	err = kobject_set_name(&drv->kobj, "%s", drv->name);
	if (err)
		return err;
	drv->kobj.kset = &drv->bus->drivers;
	drv->kobj.parent = NULL;
	err = kobject_register(&drv->kobj);
	if (err)
		goto out_put;
	err = add_drv_attrs(drv) ?: add_bind_files(drv);
	if (err)
		goto out_unregister;
	devmodel_trace_kobj("driver_register", &drv->kobj, NULL);
	klist_add_tail(&drv->knode_bus, &drv->bus->klist_drivers);
	driver_attach(drv);
	return 0;

out_unregister:
	kobject_del(&drv->kobj);
out_put:
	kobject_put(&drv->kobj);
	return err;
}

void driver_unregister(struct device_driver *drv)
{
	if (WARN(drv->kobj.state != KOBJ_STATE_ADDED,
		 "driver_unregister: '%s' is not registered", drv->name ? drv->name : ""))
		return;
	devmodel_trace_kobj("driver_unregister", &drv->kobj, NULL);
	klist_del(&drv->knode_bus);
	driver_detach(drv);
	kobject_unregister(&drv->kobj);
}
