/*
 * core.c: struct device (Linux 2.6's drivers/base/core.c): registration,
 * the /sys/devices tree, device attributes and the device's events; and the
 * newer API's class members (device_create, Linux 2.6.18 on), placed as
 * Linux 2.6.25 without CONFIG_SYSFS_DEPRECATED placed them.
 */
#include <kobold/blkdev.h>
#include <kobold/device.h>
#include <kobold/mutex.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include <stdarg.h>

#include "base.h"

struct kset devices_subsys;
static struct kobject virtual_dir; /* /sys/devices/virtual: devices with no parent */

static ssize_t dev_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);

	return da->show ? da->show(to_dev(kobj), da, buf) : -EIO;
}

static ssize_t dev_attr_store(struct kobject *kobj, struct attribute *attr,
			      const char *buf, size_t count)
{
	struct device_attribute *da = container_of(attr, struct device_attribute, attr);

	return da->store ? da->store(to_dev(kobj), da, buf, count) : -EIO;
}

static const struct sysfs_ops dev_sysfs_ops = {
	.show = dev_attr_show,
	.store = dev_attr_store,
};

/* The device's own release, else its class's dev_release; then its class is let go. */
static void device_release(struct kobject *kobj)
{
	struct device *dev = to_dev(kobj);
	struct class *held = dev->class_held ? dev->class : NULL;

	devres_release_all(dev); /* as Linux: resources taken with no driver bound */
	if (dev->release)
		dev->release(dev);
	else if (dev->class && dev->class->dev_release)
		dev->class->dev_release(dev);
	else
		WARN(1, "Device '%s' does not have a release() function, it is broken and must be fixed.",
		     dev->bus_id);
	if (held)
		kobject_put(&held->subsys.kobj);
}

static struct kobj_type ktype_device = {
	.release = device_release,
	.sysfs_ops = &dev_sysfs_ops,
};

/* Events for devices on a bus or in a class, named after it (Linux 2.6.18). */
static int dev_hotplug_filter(struct kset *kset __unused, struct kobject *kobj)
{
	return get_ktype(kobj) == &ktype_device && (to_dev(kobj)->bus || to_dev(kobj)->class);
}

static const char *dev_hotplug_name(struct kset *kset __unused, struct kobject *kobj)
{
	struct device *dev = to_dev(kobj);

	return dev->bus ? dev->bus->name : dev->class->name;
}

/*
 * DEVNAME: the class's devnode() name, else the device's (as Linux from the
 * devtmpfs kernels on, which give it to every device with a dev_t; Kobold to
 * class members only, so bus devices keep 2.6.15's keys).
 */
static int dev_add_devname(struct device *dev, struct kobj_uevent_env *env)
{
	umode_t mode = 0;
	char *name = dev->class && dev->class->devnode ? dev->class->devnode(dev, &mode) : NULL;
	int err = add_uevent_var(env, "DEVNAME=%s", name ? name : dev_name(dev));

	if (!err && mode)
		err = add_uevent_var(env, "DEVMODE=0%o", mode & 0777);
	kfree(name);
	return err;
}

/* The device's variables in Linux's order, then the class's own. */
static int dev_uevent_vars(struct device *dev, struct kobj_uevent_env *env)
{
	int err = 0;

	if (dev->devt) {
		err = add_uevent_var(env, "MAJOR=%u", MAJOR(dev->devt));
		if (!err)
			err = add_uevent_var(env, "MINOR=%u", MINOR(dev->devt));
		if (!err && dev->class)
			err = dev_add_devname(dev, env);
	}
	if (!err && dev->driver)
		err = add_uevent_var(env, "DRIVER=%s", dev->driver->name);
	if (!err && dev->class && dev->class->dev_uevent)
		err = dev->class->dev_uevent(dev, env);
	return err;
}

/*
 * The event so far is 2.6.15's envp and buffer; the device's variables are
 * built in a kobj_uevent_env that starts as full as the event, so that
 * add_uevent_var fails exactly where the event would, then copied over.
 */
static int dev_hotplug(struct kset *kset __unused, struct kobject *kobj, char **envp,
		       int num_envp, char *buffer, int buffer_size)
{
	struct device *dev = to_dev(kobj);
	struct kobj_uevent_env *env = kzalloc(sizeof(*env));
	int i = 0, len = 0, err, k, first;

	if (!env)
		return -ENOMEM;
	first = env->envp_idx = UEVENT_NUM_ENVP - (num_envp - 1); /* one kept for NULL */
	env->buflen = UEVENT_BUFFER_SIZE - buffer_size;
	err = dev_uevent_vars(dev, env);
	for (k = first; !err && k < env->envp_idx; k++)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len, "%s",
					  env->envp[k]);
	kfree(env);
	if (!err && dev->bus && dev->bus->hotplug)
		err = dev->bus->hotplug(dev, &envp[i], num_envp - i, &buffer[len],
					buffer_size - len);
	return err;
}

static struct kset_hotplug_ops device_hotplug_ops = {
	.filter = dev_hotplug_filter,
	.name = dev_hotplug_name,
	.hotplug = dev_hotplug,
};

static ssize_t uevent_show(struct device *dev, struct device_attribute *attr __unused,
			   char *buf)
{
	return kobject_uevent_show(&dev->kobj, buf);
}

static ssize_t uevent_store(struct device *dev, struct device_attribute *attr __unused,
			    const char *buf, size_t count)
{
	return kobject_uevent_store(&dev->kobj, buf, count);
}

static struct device_attribute dev_attr_uevent =
	__ATTR(uevent, S_IRUGO | S_IWUSR, uevent_show, uevent_store);

static ssize_t dev_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
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
	init_MUTEX(&dev->sem);
	INIT_LIST_HEAD(&dev->power.entry);
	INIT_LIST_HEAD(&dev->class_node);
	INIT_LIST_HEAD(&dev->devres_head);
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

static int device_add_groups(struct device *dev, const struct attribute_group **groups)
{
	int err = 0;

	for (; !err && groups && *groups; groups++)
		err = sysfs_create_group(&dev->kobj, *groups);
	return err; /* on failure device_add removes the directory, and the rest with it */
}

/*
 * uevent and dev, then the groups. They pin the class's module, as
 * class_device's do, or else the module of a driver bound before the add
 * (2.6.20's device_add gave them dev->driver->owner).
 */
static int device_add_attrs(struct device *dev)
{
	struct module *owner = dev->driver ? dev->driver->owner : NULL;
	int err;

	if (dev->class)
		owner = dev->class->owner;

	dev->uevent_attr = dev_attr_uevent;
	dev->uevent_attr.attr.owner = owner;
	dev->devt_attr = dev_attr_dev;
	dev->devt_attr.attr.owner = owner;
	err = device_create_file(dev, &dev->uevent_attr);
	if (!err && dev->devt)
		err = device_create_file(dev, &dev->devt_attr);
	if (!err && dev->class)
		err = device_add_groups(dev, dev->class->dev_groups);
	return err ? err : device_add_groups(dev, dev->groups);
}

/*
 * The "glue" directory /sys/devices/.../<class> that keeps a class's devices
 * apart from their parent's other children (Linux 2.6.25's class_dirs); it
 * goes when its last device does.
 */
struct class_dir {
	struct kobject kobj;
	struct class *class;
	struct kobject *parent;
	unsigned int users; /* devices added in it */
	struct list_head node;
};

static LIST_HEAD(class_dirs);
static DEFINE_MUTEX(gdp_mutex); /* class_dirs and each dir's users (2.6.34's gdp_mutex) */

static void class_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct class_dir, kobj));
}

static struct kobj_type ktype_class_dir = {
	.release = class_dir_release,
};

static struct class_dir *class_dir_find(struct class *cls, struct kobject *parent)
{
	struct class_dir *cd;

	list_for_each_entry(cd, &class_dirs, node)
		if (cd->class == cls && cd->parent == parent)
			return cd;
	return NULL;
}

static struct kobject *__class_dir_get(struct class *cls, struct kobject *parent)
{
	struct class_dir *cd = class_dir_find(cls, parent);
	int err;

	if (cd) {
		cd->users++;
		return &cd->kobj;
	}
	cd = kzalloc(sizeof(*cd));
	if (!cd)
		return ERR_PTR(-ENOMEM);
	cd->kobj.ktype = &ktype_class_dir;
	kobject_init(&cd->kobj);
	cd->kobj.parent = parent;
	err = kobject_set_name(&cd->kobj, "%s", cls->name) ?: kobject_add(&cd->kobj);
	if (err) {
		kobject_put(&cd->kobj);
		return ERR_PTR(err);
	}
	cd->class = cls;
	cd->parent = parent;
	cd->users = 1;
	list_add_tail(&cd->node, &class_dirs);
	return &cd->kobj;
}

static struct kobject *class_dir_get(struct class *cls, struct kobject *parent)
{
	struct kobject *kobj;

	mutex_lock(&gdp_mutex);
	kobj = __class_dir_get(cls, parent);
	mutex_unlock(&gdp_mutex);
	return kobj;
}

static void class_dir_put(struct device *dev)
{
	struct class_dir *cd;

	if (!dev->glue)
		return;
	cd = container_of(dev->glue, struct class_dir, kobj);
	dev->glue = NULL;
	mutex_lock(&gdp_mutex);
	if (--cd->users) {
		mutex_unlock(&gdp_mutex);
		return;
	}
	list_del_init(&cd->node);
	kobject_del(&cd->kobj); /* freed when the last device in it is released */
	mutex_unlock(&gdp_mutex);
	kobject_put(&cd->kobj);
}

/*
 * Where the device's directory goes: under its parent; a class member in a
 * <class> directory there (none if the parent is of a class too), or in
 * /sys/devices/virtual/<class> without a parent; with neither parent nor
 * class, /sys/devices/NAME, as 2.6.
 */
static struct kobject *device_parent_kobj(struct device *dev)
{
	struct kobject *parent = dev->parent ? &dev->parent->kobj : NULL;

	if (dev->class && !(dev->parent && dev->parent->class)) {
		parent = class_dir_get(dev->class, parent ? parent : &virtual_dir);
		if (!IS_ERR(parent))
			dev->glue = parent;
		return parent;
	}
	return parent;
}

/* subsystem, /sys/class/<class>/<name> and device -> parent (Linux 2.6.25's). */
static int device_add_class_symlinks(struct device *dev)
{
	struct kobject *cls_kobj = &dev->class->subsys.kobj;
	int err;

	err = sysfs_create_link(&dev->kobj, cls_kobj, "subsystem");
	if (err)
		return err;
	err = sysfs_create_link(cls_kobj, &dev->kobj, dev_name(dev));
	if (err)
		return err; /* device_add's unwinding takes the subsystem link */
	if (dev->parent)
		err = sysfs_create_link(&dev->kobj, &dev->parent->kobj, "device");
	return err;
}

static void device_remove_class_symlinks(struct device *dev)
{
	if (!dev->class)
		return;
	sysfs_remove_link(&dev->kobj, "device");
	sysfs_remove_link(&dev->class->subsys.kobj, dev_name(dev));
	sysfs_remove_link(&dev->kobj, "subsystem");
}

/* A class member pins its registered class until its release; -EINVAL otherwise. */
static int device_hold_class(struct device *dev)
{
	if (!dev->class)
		return 0;
	if (dev->bus || dev->class->subsys.kobj.state != KOBJ_STATE_ADDED)
		return -EINVAL; /* Kobold: one subsystem link, so a bus or a class */
	if (!dev->class_held)
		kobject_get(&dev->class->subsys.kobj);
	dev->class_held = true;
	return 0;
}

/*
 * The device's /dev node, as Linux's devtmpfs makes it from device_add: its
 * class's devnode() name and mode if it gives them, else its own name, 0600.
 */
static void device_node(struct device *dev, bool add)
{
	umode_t mode = 0;
	char *name;

	if (!dev->devt)
		return;
	name = dev->class && dev->class->devnode ? dev->class->devnode(dev, &mode) : NULL;
	if (add)
		devtmpfs_create_node(name ? name : dev_name(dev),
				     (dev->class == &block_class ? S_IFBLK : S_IFCHR) |
					     (mode ? mode & 0777 : 0600),
				     dev->devt);
	else if (devtmpfs_delete_node(name ? name : dev_name(dev), dev->devt) == -ENOENT && name)
		devtmpfs_delete_node(dev_name(dev), dev->devt); /* devnode's name failed at add */
	kfree(name);
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
	err = device_hold_class(dev) ?: kobject_set_name(&dev->kobj, "%s", dev->bus_id);
	if (err)
		goto out_put;
	dev->kobj.parent = device_parent_kobj(dev);
	err = IS_ERR(dev->kobj.parent) ? (int)PTR_ERR(dev->kobj.parent) : 0;
	if (err) {
		dev->kobj.parent = NULL;
		goto out_put;
	}
	err = kobject_add(&dev->kobj);
	if (err)
		goto out_glue;
	err = device_add_attrs(dev);
	if (!err && dev->class)
		err = device_add_class_symlinks(dev);
	if (!err)
		err = bus_add_device(dev);
	if (err)
		goto out_del;
	device_pm_add(dev);
	devmodel_trace_kobj("device_add", &dev->kobj, NULL);
	device_node(dev, true); /* before the event, so a listener can open it */
	kobject_hotplug(&dev->kobj, KOBJ_ADD);
	if (dev->bus)
		device_attach(dev);
	if (dev->class)
		class_add_device(dev); /* then the class's interfaces (Linux 2.6.19) */
	put_device(dev);
	return 0;

out_del:
	device_remove_class_symlinks(dev);
	kobject_del(&dev->kobj); /* takes the files with the directory */
out_glue:
	class_dir_put(dev);
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
	if (dev->class)
		class_remove_device(dev); /* the interfaces' remove_dev first */
	device_release_driver(dev);
	device_node(dev, false);
	kobject_hotplug(&dev->kobj, KOBJ_REMOVE); /* while the device is whole */
	device_pm_remove(dev);
	device_remove_class_symlinks(dev);
	bus_remove_device(dev);
	kobject_del(&dev->kobj); /* and every file and link left in it */
	class_dir_put(dev);
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

static void device_create_release(struct device *dev)
{
	kfree(dev);
}

static struct device *device_create_vargs(struct class *cls, struct device *parent,
					  dev_t devt, void *drvdata,
					  const struct attribute_group **groups, const char *fmt,
					  va_list ap)
{
	struct device *dev;
	int err, n;

	if (IS_ERR_OR_NULL(cls))
		return ERR_PTR(-ENODEV);
	dev = kzalloc(sizeof(*dev));
	if (!dev)
		return ERR_PTR(-ENOMEM);
	dev->release = device_create_release; /* set first: put_device frees it */
	device_initialize(dev);
	dev->class = cls;
	dev->parent = parent;
	dev->devt = devt;
	dev->groups = groups;
	dev_set_drvdata(dev, drvdata);
	n = vsnprintf(dev->bus_id, BUS_ID_SIZE, fmt, ap);
	if (n >= BUS_ID_SIZE)
		err = -ENAMETOOLONG;
	else if (n <= 0)
		err = -EINVAL;
	else
		err = device_add(dev);
	if (err) {
		pr_err("device_create: %s: error %d\n", dev->bus_id, err);
		put_device(dev);
		return ERR_PTR(err);
	}
	return dev;
}

struct device *device_create(struct class *cls, struct device *parent, dev_t devt,
			     void *drvdata, const char *fmt, ...)
{
	struct device *dev;
	va_list ap;

	va_start(ap, fmt);
	dev = device_create_vargs(cls, parent, devt, drvdata, NULL, fmt, ap);
	va_end(ap);
	return dev;
}

struct device *device_create_with_groups(struct class *cls, struct device *parent, dev_t devt,
					 void *drvdata, const struct attribute_group **groups,
					 const char *fmt, ...)
{
	struct device *dev;
	va_list ap;

	va_start(ap, fmt);
	dev = device_create_vargs(cls, parent, devt, drvdata, groups, fmt, ap);
	va_end(ap);
	return dev;
}

void device_destroy(struct class *cls, dev_t devt)
{
	struct device *dev, *found = NULL;

	if (IS_ERR_OR_NULL(cls) || !cls->devices.next)
		return;
	down(&cls->sem);
	list_for_each_entry(dev, &cls->devices, class_node) {
		if (dev->devt == devt) {
			found = get_device(dev);
			break;
		}
	}
	up(&cls->sem); /* device_unregister takes it again: not held across */
	if (found) {
		device_unregister(found);
		put_device(found);
	}
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
