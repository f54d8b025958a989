/*
 * class.c: device classes, as the LWN article "Driver porting: Device
 * classes" describes them (Linux 2.6's drivers/base/class.c): struct class
 * (/sys/class/<name>), struct class_device (/sys/class/<name>/<class_id>),
 * their attributes, and class interfaces that follow a class's devices.
 */
#include <kobold/blkdev.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "base.h"

struct kset class_subsys;
/* All class devices: no directory of its own, it only routes their events. */
static struct kset class_obj_subsys;

static struct class *to_class(struct kobject *kobj)
{
	return container_of(kobj, struct class, subsys.kobj);
}

/* ---- struct class ---- */

static ssize_t class_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct class_attribute *ca = container_of(attr, struct class_attribute, attr);

	return ca->show ? ca->show(to_class(kobj), buf) : -EIO;
}

static ssize_t class_attr_store(struct kobject *kobj, struct attribute *attr,
				const char *buf, size_t count)
{
	struct class_attribute *ca = container_of(attr, struct class_attribute, attr);

	return ca->store ? ca->store(to_class(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops class_sysfs_ops = {
	.show = class_attr_show,
	.store = class_attr_store,
};

static void class_release(struct kobject *kobj)
{
	struct class *cls = to_class(kobj);

	if (cls->class_release)
		cls->class_release(cls);
	else /* most classes are static, as in 2.6.15: only a debug note */
		pr_debug("class '%s' does not have a release() function, be careful\n",
			 cls->name);
}

static struct kobj_type ktype_class = {
	.release = class_release,
	.sysfs_ops = &class_sysfs_ops,
};

int class_create_file(struct class *cls, const struct class_attribute *attr)
{
	return sysfs_create_file(&cls->subsys.kobj, &attr->attr);
}

void class_remove_file(struct class *cls, const struct class_attribute *attr)
{
	sysfs_remove_file(&cls->subsys.kobj, &attr->attr);
}

static int add_class_attrs(struct class *cls)
{
	struct class_attribute *a;
	int err;

	for (a = cls->class_attrs; a && a->attr.name; a++) {
		err = class_create_file(cls, a);
		if (err)
			return err;
	}
	return 0;
}

/* On failure the class is the caller's again and its release has not run (2.6). */
int class_register(struct class *cls)
{
	int err;

	if (!cls->name || !*cls->name)
		return -EINVAL;
	if (cls->subsys.kobj.state == KOBJ_STATE_ADDED ||
	    cls->subsys.kobj.state == KOBJ_STATE_DELETED) {
		pr_err("class '%s': %s, cannot register it again\n", cls->name,
		       cls->subsys.kobj.state == KOBJ_STATE_ADDED ? "already registered"
								  : "still held by its class devices");
		return -EBUSY;
	}
	INIT_LIST_HEAD(&cls->children);
	INIT_LIST_HEAD(&cls->devices);
	INIT_LIST_HEAD(&cls->interfaces);
	init_MUTEX(&cls->sem);
	err = kobject_set_name(&cls->subsys.kobj, "%s", cls->name);
	if (err)
		return err;
	cls->subsys.kobj.kset = &class_subsys;
	cls->subsys.kobj.parent = NULL;
	err = kset_register(&cls->subsys);
	if (err)
		return err;
	err = add_class_attrs(cls);
	if (err) {
		kobject_del(&cls->subsys.kobj);
		kobject_forget(&cls->subsys.kobj);
		return err;
	}
	devmodel_trace_kobj("class_register", &cls->subsys.kobj, NULL);
	return 0;
}

/*
 * As in 2.6, the class goes even with devices left (a driver bug: it warns).
 * Each class device pins its class until its own release, so a device kept
 * alive by an open file can still call cls->release.
 */
void class_unregister(struct class *cls)
{
	WARN(!list_empty(&cls->children) || !list_empty(&cls->devices),
	     "class '%s': class_unregister with class devices still registered", cls->name);
	devmodel_trace_kobj("class_unregister", &cls->subsys.kobj, NULL);
	kset_unregister(&cls->subsys);
}

/* As 2.6's class_get/class_put: a reference on the class's own kobject. */
struct class *class_get(struct class *cls)
{
	return cls ? container_of(kset_get(&cls->subsys), struct class, subsys) : NULL;
}

void class_put(struct class *cls)
{
	if (cls)
		kset_put(&cls->subsys);
}

static void class_create_release(struct class *cls)
{
	kfree(cls);
}

struct class *class_create(struct module *owner, const char *name)
{
	struct class *cls = kzalloc(sizeof(*cls));
	int err;

	if (!cls)
		return ERR_PTR(-ENOMEM);
	cls->name = name; /* not copied, as Linux: a string that outlives the class */
	cls->owner = owner;
	cls->class_release = class_create_release;
	err = class_register(cls);
	if (err) {
		kfree(cls);
		return ERR_PTR(err);
	}
	return cls;
}

void class_destroy(struct class *cls)
{
	if (IS_ERR_OR_NULL(cls))
		return;
	class_unregister(cls);
}

/* ---- struct class_device ---- */

static ssize_t class_dev_attr_show(struct kobject *kobj, struct attribute *attr,
				   char *buf)
{
	struct class_device_attribute *ca =
		container_of(attr, struct class_device_attribute, attr);

	return ca->show ? ca->show(to_class_dev(kobj), buf) : -EIO;
}

static ssize_t class_dev_attr_store(struct kobject *kobj, struct attribute *attr,
				    const char *buf, size_t count)
{
	struct class_device_attribute *ca =
		container_of(attr, struct class_device_attribute, attr);

	return ca->store ? ca->store(to_class_dev(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops class_dev_sysfs_ops = {
	.show = class_dev_attr_show,
	.store = class_dev_attr_store,
};

/* The device's own release, else its class's, else the article's complaint. */
static void class_dev_release(struct kobject *kobj)
{
	struct class_device *cd = to_class_dev(kobj);
	struct class *cls = cd->class;

	if (cd->release)
		cd->release(cd);
	else if (cls && cls->release)
		cls->release(cd);
	else
		WARN(1, "class_device '%s' does not have a release() function, it is broken and must be fixed.",
		     cd->class_id);
}

static struct kobj_type ktype_class_device = {
	.release = class_dev_release,
	.sysfs_ops = &class_dev_sysfs_ops,
};

static int class_hotplug_filter(struct kset *kset __unused, struct kobject *kobj)
{
	return get_ktype(kobj) == &ktype_class_device && to_class_dev(kobj)->class;
}

static const char *class_hotplug_name(struct kset *kset __unused, struct kobject *kobj)
{
	return to_class_dev(kobj)->class->name;
}

int add_physdev_vars(struct device *dev, char **envp, int num_envp, int *i, char *buffer,
		     int buffer_size, int *len)
{
	char path[256];
	int err = kobject_get_path(&dev->kobj, path, sizeof(path));

	if (err < 0)
		return err;
	err = add_hotplug_env_var(envp, num_envp, i, buffer, buffer_size, len,
				  "PHYSDEVPATH=%s", path);
	if (!err && dev->bus)
		err = add_hotplug_env_var(envp, num_envp, i, buffer, buffer_size, len,
					  "PHYSDEVBUS=%s", dev->bus->name);
	if (!err && dev->driver)
		err = add_hotplug_env_var(envp, num_envp, i, buffer, buffer_size, len,
					  "PHYSDEVDRIVER=%s", dev->driver->name);
	return err;
}

/* The device behind it, MAJOR and MINOR for a dev_t, then the class's own variables. */
static int class_hotplug(struct kset *kset __unused, struct kobject *kobj, char **envp,
			 int num_envp, char *buffer, int buffer_size)
{
	struct class_device *cd = to_class_dev(kobj);
	int i = 0, len = 0, err = 0;

	if (cd->dev) /* as 2.6.10 to 2.6.36: the device behind it */
		err = add_physdev_vars(cd->dev, envp, num_envp, &i, buffer, buffer_size, &len);
	if (!err && cd->devt) {
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "MAJOR=%u", MAJOR(cd->devt));
		if (!err)
			err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
						  "MINOR=%u", MINOR(cd->devt));
	}
	if (!err && cd->class->hotplug)
		err = cd->class->hotplug(cd, &envp[i], num_envp - i, &buffer[len],
					 buffer_size - len);
	return err;
}

static struct kset_hotplug_ops class_hotplug_ops = {
	.filter = class_hotplug_filter,
	.name = class_hotplug_name,
	.hotplug = class_hotplug,
};

/* As 2.6.15 to 2.6.25: write-only, and any write sends add, whatever it says. */
static ssize_t store_uevent(struct class_device *cd, const char *buf __unused, size_t count)
{
	kobject_hotplug(&cd->kobj, KOBJ_ADD);
	return (ssize_t)count;
}

static CLASS_DEVICE_ATTR(uevent, S_IWUSR, NULL, store_uevent);

static ssize_t show_dev(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u:%u\n", MAJOR(cd->devt), MINOR(cd->devt));
}

static CLASS_DEVICE_ATTR(dev, S_IRUGO, show_dev, NULL);

int class_device_create_file(struct class_device *cd,
			     const struct class_device_attribute *attr)
{
	return sysfs_create_file(&cd->kobj, &attr->attr);
}

void class_device_remove_file(struct class_device *cd,
			      const struct class_device_attribute *attr)
{
	sysfs_remove_file(&cd->kobj, &attr->attr);
}

void class_device_initialize(struct class_device *cd)
{
	cd->kobj.kset = &class_obj_subsys;
	kobject_init(&cd->kobj);
	INIT_LIST_HEAD(&cd->node);
}

struct class_device *class_device_get(struct class_device *cd)
{
	return cd ? to_class_dev(kobject_get(&cd->kobj)) : NULL;
}

void class_device_put(struct class_device *cd)
{
	if (cd)
		kobject_put(&cd->kobj);
}

#define BACK_LINK_LEN 64

/* The link back from the device, "CLASS:ID" as 2.6.15 (a disk's: block:vda, as 2.6.16). */
static void back_link_name(struct class_device *cd, char *buf, size_t size)
{
	scnprintf(buf, size, "%s:%s", cd->class->name, cd->class_id);
}

/* "device" and the device's link back; no "driver" link (2.6.12 removed it). */
static int add_links(struct class_device *cd)
{
	char name[BACK_LINK_LEN];
	int err;

	if (!cd->dev)
		return 0;
	err = sysfs_create_link(&cd->kobj, &cd->dev->kobj, "device");
	if (err)
		return err;
	back_link_name(cd, name, sizeof(name));
	return sysfs_create_link(&cd->dev->kobj, &cd->kobj, name);
}

static void remove_links(struct class_device *cd)
{
	char name[BACK_LINK_LEN];

	if (!cd->dev)
		return;
	back_link_name(cd, name, sizeof(name));
	sysfs_remove_link(&cd->dev->kobj, name);
	sysfs_remove_link(&cd->kobj, "device");
}

/* uevent, dev, the class's attributes and the links; all go with the directory. */
static int class_device_add_attrs(struct class_device *cd)
{
	struct class_device_attribute *a;
	int err;

	devmodel_trace_kobj("class_device_add_attrs", &cd->kobj, NULL);
	cd->uevent_attr = class_device_attr_uevent;
	cd->uevent_attr.attr.owner = cd->class->owner;
	cd->devt_attr = class_device_attr_dev;
	cd->devt_attr.attr.owner = cd->class->owner;
	err = class_device_create_file(cd, &cd->uevent_attr);
	if (!err && cd->devt)
		err = class_device_create_file(cd, &cd->devt_attr);
	for (a = cd->class->class_dev_attrs; !err && a && a->attr.name; a++)
		err = class_device_create_file(cd, a);
	for (const struct attribute_group **g = cd->groups; !err && g && *g; g++)
		err = sysfs_create_group(&cd->kobj, *g);
	return err ? err : add_links(cd);
}

static void class_device_remove_attrs(struct class_device *cd)
{
	struct class_device_attribute *a;

	devmodel_trace_kobj("class_device_remove_attrs", &cd->kobj, NULL);
	remove_links(cd);
	for (const struct attribute_group **g = cd->groups; g && *g; g++)
		sysfs_remove_group(&cd->kobj, *g);
	for (a = cd->class->class_dev_attrs; a && a->attr.name; a++)
		class_device_remove_file(cd, a);
	class_device_remove_file(cd, &cd->devt_attr);
	class_device_remove_file(cd, &cd->uevent_attr);
}

/*
 * An interface cannot veto a device (as in 2.6, which ignored add's return),
 * but its failure is reported; its remove() still runs for that device.
 */
static int interface_add(struct class_interface *intf, struct class_device *cd)
{
	int err = 0;

	devmodel_trace_kobj("class_interface_add", &cd->kobj, NULL);
	if (intf->add)
		err = intf->add(cd);
	if (err)
		pr_warn("class_interface: add for %s failed: %s\n", cd->class_id, kstrerror(err));
	return err;
}

static void interface_remove(struct class_interface *intf, struct class_device *cd)
{
	devmodel_trace_kobj("class_interface_remove", &cd->kobj, NULL);
	if (intf->remove)
		intf->remove(cd);
}

/* The same two for struct device members, through add_dev and remove_dev. */
static int interface_add_dev(struct class_interface *intf, struct device *dev)
{
	int err = 0;

	devmodel_trace_kobj("class_interface_add", &dev->kobj, NULL);
	if (intf->add_dev)
		err = intf->add_dev(dev);
	if (err)
		pr_warn("class_interface: add_dev for %s failed: %s\n", dev_name(dev),
			kstrerror(err));
	return err;
}

static void interface_remove_dev(struct class_interface *intf, struct device *dev)
{
	devmodel_trace_kobj("class_interface_remove", &dev->kobj, NULL);
	if (intf->remove_dev)
		intf->remove_dev(dev);
}

void class_add_device(struct device *dev)
{
	struct class_interface *intf;

	down(&dev->class->sem);
	list_add_tail(&dev->class_node, &dev->class->devices);
	list_for_each_entry(intf, &dev->class->interfaces, node)
		interface_add_dev(intf, dev);
	up(&dev->class->sem);
}

void class_remove_device(struct device *dev)
{
	struct class_interface *intf;

	down(&dev->class->sem);
	list_del_init(&dev->class_node);
	list_for_each_entry(intf, &dev->class->interfaces, node)
		interface_remove_dev(intf, dev);
	up(&dev->class->sem);
}

/* A node's type, as Linux's devtmpfs tells: the block class's devices are block devices. */
static umode_t class_device_node_mode(struct class_device *cd)
{
	return (cd->class == &block_class ? S_IFBLK : S_IFCHR) | 0600;
}

int class_device_add(struct class_device *cd)
{
	struct class_interface *intf;
	int err;

	cd = class_device_get(cd);
	if (!cd)
		return -EINVAL;
	err = -EINVAL;
	if (!cd->class_id[0] || !cd->class)
		goto out_put;
	err = kobject_set_name(&cd->kobj, "%s", cd->class_id);
	if (err)
		goto out_put;
	/* the parent (the class, or the parent device) is pinned until our release */
	cd->kobj.parent = cd->parent ? &cd->parent->kobj : &cd->class->subsys.kobj;
	err = kobject_add(&cd->kobj);
	if (err)
		goto out_put;
	devmodel_trace_kobj("class_device_add", &cd->kobj, NULL);
	err = class_device_add_attrs(cd);
	if (err)
		goto out_del;
	if (cd->devt) /* as device_add: the node exists before the event is sent */
		devtmpfs_create_node(cd->class_id, class_device_node_mode(cd), cd->devt);
	kobject_hotplug(&cd->kobj, KOBJ_ADD); /* 2.6.15's order: event, then interfaces */
	down(&cd->class->sem);
	list_add_tail(&cd->node, &cd->class->children);
	list_for_each_entry(intf, &cd->class->interfaces, node)
		interface_add(intf, cd);
	up(&cd->class->sem);
	class_device_put(cd);
	return 0;

out_del:
	kobject_del(&cd->kobj);
out_put:
	class_device_put(cd);
	return err;
}

int class_device_register(struct class_device *cd)
{
	devmodel_trace("class_device_register", cd->class_id, NULL);
	class_device_initialize(cd);
	return class_device_add(cd);
}

/*
 * 2.6.15's order: the interfaces' remove() (they still see the whole
 * device), then the links and attributes go, then the remove event, then
 * the directory.
 */
static bool __class_device_del(struct class_device *cd)
{
	struct class_interface *intf;

	if (WARN(cd->kobj.state != KOBJ_STATE_ADDED,
		 "class_device_del: '%s' is not registered (%s)", cd->class_id,
		 kobject_state_name(&cd->kobj)))
		return false;
	devmodel_trace_kobj("class_device_del", &cd->kobj, NULL);
	down(&cd->class->sem);
	list_del_init(&cd->node);
	list_for_each_entry(intf, &cd->class->interfaces, node)
		interface_remove(intf, cd);
	up(&cd->class->sem);
	if (cd->devt)
		devtmpfs_delete_node(cd->class_id, cd->devt);
	class_device_remove_attrs(cd);
	kobject_hotplug(&cd->kobj, KOBJ_REMOVE);
	kobject_del(&cd->kobj); /* and whatever the driver forgot to remove */
	return true;
}

void class_device_del(struct class_device *cd)
{
	__class_device_del(cd);
}

/* A second unregister only warns: the reference is not dropped twice. */
void class_device_unregister(struct class_device *cd)
{
	if (__class_device_del(cd))
		class_device_put(cd);
}

/* ---- struct class_interface ---- */

/* remove() for each class device up to and including last (NULL: all of them). */
static void interface_remove_through(struct class_interface *intf,
				     struct class_device *last)
{
	struct class_device *cd;

	list_for_each_entry(cd, &intf->class->children, node) {
		interface_remove(intf, cd);
		if (cd == last)
			return;
	}
}

/* remove_dev() for each struct device member up to and including last (NULL: all). */
static void interface_remove_dev_through(struct class_interface *intf, struct device *last)
{
	struct device *dev;

	list_for_each_entry(dev, &intf->class->devices, class_node) {
		interface_remove_dev(intf, dev);
		if (dev == last)
			return;
	}
}

/* add() for the class devices, then add_dev() for the devices; undone on failure. */
static int interface_add_all(struct class_interface *intf)
{
	struct class_device *cd;
	struct device *dev;
	int err;

	list_for_each_entry(cd, &intf->class->children, node) {
		err = interface_add(intf, cd);
		if (err) {
			interface_remove_through(intf, cd);
			return err;
		}
	}
	list_for_each_entry(dev, &intf->class->devices, class_node) {
		err = interface_add_dev(intf, dev);
		if (err) {
			interface_remove_through(intf, NULL);
			interface_remove_dev_through(intf, dev);
			return err;
		}
	}
	return 0;
}

static bool interface_registered(const struct class_interface *intf)
{
	return intf->node.next && !list_empty(&intf->node);
}

/*
 * Kobold's choice: an add() or add_dev() that fails undoes the interface for
 * both kinds of member and returns the error (Linux ignored their return).
 * remove() or remove_dev() runs for the failing device too. As 2.6, the
 * interface pins its class (class_get) until class_interface_unregister.
 */
int class_interface_register(struct class_interface *intf)
{
	int err;

	if (!intf || !intf->class || intf->class->subsys.kobj.state != KOBJ_STATE_ADDED)
		return -ENODEV;
	if (WARN(interface_registered(intf), "class_interface for '%s': registered twice",
		 intf->class->name))
		return -EBUSY;
	class_get(intf->class);
	down(&intf->class->sem);
	err = interface_add_all(intf);
	if (!err)
		list_add_tail(&intf->node, &intf->class->interfaces);
	up(&intf->class->sem);
	if (err)
		class_put(intf->class);
	return err;
}

void class_interface_unregister(struct class_interface *intf)
{
	if (!intf || !intf->class)
		return;
	if (WARN(!interface_registered(intf), "class_interface for '%s': not registered",
		 intf->class->name ? intf->class->name : ""))
		return;
	down(&intf->class->sem);
	list_del_init(&intf->node);
	interface_remove_through(intf, NULL);
	interface_remove_dev_through(intf, NULL);
	up(&intf->class->sem);
	class_put(intf->class);
}

int classes_init(void)
{
	int err;

	kobject_set_name(&class_subsys.kobj, "class");
	class_subsys.ktype = &ktype_class;
	err = kset_register(&class_subsys);
	if (err)
		return err;
	/* initialised only: routes class devices' events, has no directory */
	kobject_set_name(&class_obj_subsys.kobj, "class_obj");
	class_obj_subsys.ktype = &ktype_class_device;
	class_obj_subsys.hotplug_ops = &class_hotplug_ops;
	kset_init(&class_obj_subsys);
	return 0;
}
