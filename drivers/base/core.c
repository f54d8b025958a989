/*
 * core.c: struct device (Linux 2.6's drivers/base/core.c): registration,
 * the /sys/devices tree, device attributes and the device's events.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "base.h"

struct kset devices_subsys;
static struct kobject virtual_dir;	/* /sys/devices/virtual: devices with no parent */

static ssize_t dev_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);

	return da->show ? da->show(to_dev(kobj), buf) : -EIO;
}

static ssize_t dev_attr_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);

	return da->store ? da->store(to_dev(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops dev_sysfs_ops = {
	.show = dev_attr_show,
	.store = dev_attr_store,
};

static void device_release(struct kobject *kobj)
{
	struct device *dev = to_dev(kobj);

	if (dev->release)
		dev->release(dev);
	else
		WARN(1, "Device '%s' does not have a release() function, it is broken and must be fixed.",
		     dev->bus_id);
}

static struct kobj_type ktype_device = {
	.release = device_release,
	.sysfs_ops = &dev_sysfs_ops,
};

/* Events for devices on a bus only, named after the bus. */
static int dev_hotplug_filter(struct kset *kset __unused, struct kobject *kobj)
{
	return get_ktype(kobj) == &ktype_device && to_dev(kobj)->bus;
}

static const char *dev_hotplug_name(struct kset *kset __unused, struct kobject *kobj)
{
	return to_dev(kobj)->bus->name;
}

static int dev_hotplug(struct kset *kset __unused, struct kobject *kobj, char **envp,
		       int num_envp, char *buffer, int buffer_size)
{
	struct device *dev = to_dev(kobj);
	int i = 0, len = 0, err = 0;

	if (dev->devt)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "MAJOR=%u", MAJOR(dev->devt)) ?:
		      add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "MINOR=%u", MINOR(dev->devt));
	if (!err && dev->driver)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "DRIVER=%s", dev->driver->name);
	if (!err && dev->bus->hotplug)
		err = dev->bus->hotplug(dev, &envp[i], num_envp - i, &buffer[len],
					buffer_size - len);
	return err;
}

static struct kset_hotplug_ops device_hotplug_ops = {
	.filter = dev_hotplug_filter,
	.name = dev_hotplug_name,
	.hotplug = dev_hotplug,
};

static ssize_t uevent_show(struct device *dev, char *buf)
{
	return kobject_uevent_show(&dev->kobj, buf);
}

static ssize_t uevent_store(struct device *dev, const char *buf, size_t count)
{
	return kobject_uevent_store(&dev->kobj, buf, count);
}

static struct device_attribute dev_attr_uevent =
	__ATTR(uevent, S_IRUGO | S_IWUSR, uevent_show, uevent_store);

static ssize_t dev_show(struct device *dev, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u:%u\n", MAJOR(dev->devt), MINOR(dev->devt));
}

static struct device_attribute dev_attr_dev = __ATTR(dev, S_IRUGO, dev_show, NULL);

int device_create_file(struct device *dev, struct device_attribute *attr)
{
	return sysfs_create_file(&dev->kobj, &attr->attr);
}

void device_remove_file(struct device *dev, struct device_attribute *attr)
{
	sysfs_remove_file(&dev->kobj, &attr->attr);
}

void device_initialize(struct device *dev)
{
	dev->kobj.kset = &devices_subsys;
	kobject_init(&dev->kobj);
	INIT_LIST_HEAD(&dev->bus_list);
	INIT_LIST_HEAD(&dev->driver_list);
	INIT_LIST_HEAD(&dev->power.entry);
}

struct device *get_device(struct device *dev)
{
	return dev ? to_dev(kobject_get(&dev->kobj)) : NULL;
}

void put_device(struct device *dev)
{
	if (dev)
		kobject_put(&dev->kobj);
}

static int device_add_attrs(struct device *dev)
{
	int err = device_create_file(dev, &dev_attr_uevent);

	if (!err && dev->devt)
		err = device_create_file(dev, &dev_attr_dev);
	return err;
}

static struct kobject *device_parent_kobj(struct device *dev)
{
	if (dev->parent)
		return &dev->parent->kobj;
	return dev->is_root ? NULL : &virtual_dir;
}

int device_add(struct device *dev)
{
	int err;

	dev = get_device(dev);
	if (!dev)
		return -EINVAL;
	err = -EINVAL;
	if (!dev->bus_id[0] || (dev->bus && !bus_is_registered(dev->bus)))
		goto out_put;
	err = kobject_set_name(&dev->kobj, "%s", dev->bus_id);
	if (err)
		goto out_put;
	dev->kobj.parent = device_parent_kobj(dev);
	err = kobject_add(&dev->kobj);
	if (err)
		goto out_put;
	err = device_add_attrs(dev);
	if (err)
		goto out_del;
	err = bus_add_device(dev);
	if (err)
		goto out_del;
	device_pm_add(dev);
	devmodel_trace_kobj("device_add", &dev->kobj, NULL);
	kobject_hotplug(&dev->kobj, KOBJ_ADD);
	if (dev->bus)
		device_attach(dev);
	put_device(dev);
	return 0;

out_del:
	kobject_del(&dev->kobj);	/* takes the files with the directory */
out_put:
	put_device(dev);
	return err;
}

int device_register(struct device *dev)
{
	device_initialize(dev);
	return device_add(dev);
}

/* false (and a warning) if dev was not registered: then nothing is done. */
static bool __device_del(struct device *dev)
{
	if (WARN(dev->kobj.state != KOBJ_STATE_ADDED,
		 "device_del: '%s' is not registered (%s)", dev->bus_id,
		 kobject_state_name(&dev->kobj)))
		return false;
	devmodel_trace_kobj("device_del", &dev->kobj, NULL);
	device_release_driver(dev);
	kobject_hotplug(&dev->kobj, KOBJ_REMOVE);	/* while the device is whole */
	device_pm_remove(dev);
	bus_remove_device(dev);
	kobject_del(&dev->kobj);	/* and every file and link left in it */
	return true;
}

void device_del(struct device *dev)
{
	__device_del(dev);
}

void device_unregister(struct device *dev)
{
	if (__device_del(dev))
		put_device(dev);
}

static void root_device_release(struct device *dev)
{
	kfree(dev);
}

struct device *root_device_register(const char *name)
{
	struct device *dev = kzalloc(sizeof(*dev));
	int err = -ENOMEM;

	if (!dev)
		goto out;
	err = -EINVAL;
	if (!name || strscpy(dev->bus_id, name, BUS_ID_SIZE) <= 0) {
		kfree(dev);
		goto out;
	}
	dev->is_root = true;
	dev->release = root_device_release;
	err = device_register(dev);
	if (err) {
		put_device(dev);
		goto out;
	}
	return dev;
out:
	pr_err("root_device_register: %s: error %d\n", name ? name : "(null)", err);
	return NULL;
}

void root_device_unregister(struct device *dev)
{
	device_unregister(dev);
}

/* /sys/devices and the directories in it are static: nothing to free. */
static void static_dir_release(struct kobject *kobj __unused)
{
}

static struct kobj_type ktype_static_dir = {
	.release = static_dir_release,
};

int devices_init(void)
{
	int err;

	kobject_set_name(&devices_subsys.kobj, "devices");
	devices_subsys.ktype = &ktype_device;
	devices_subsys.hotplug_ops = &device_hotplug_ops;
	err = kset_register(&devices_subsys);
	if (err)
		return err;
	kobject_set_name(&virtual_dir, "virtual");
	virtual_dir.parent = &devices_subsys.kobj;
	virtual_dir.ktype = &ktype_static_dir;
	kobject_init(&virtual_dir);
	return kobject_add(&virtual_dir);
}
