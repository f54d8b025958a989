/*
 * sys.c: the pseudo-bus of system devices (Linux 2.6's drivers/base/sys.c):
 * /sys/devices/system/<class>/<class><id>, and their suspend, resume and
 * shutdown in the order the PM core needs.
 */
#include <kobold/sysdev.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/string.h>

struct kset system_subsys;

static ssize_t sysdev_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct sysdev_attribute *sa = container_of(attr, struct sysdev_attribute, attr);

	return sa->show ? sa->show(container_of(kobj, struct sys_device, kobj), buf) : -EIO;
}

static ssize_t sysdev_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			    size_t count)
{
	struct sysdev_attribute *sa = container_of(attr, struct sysdev_attribute, attr);

	return sa->store ? sa->store(container_of(kobj, struct sys_device, kobj), buf, count) : -EIO;
}

static const struct sysfs_ops sysfs_ops = {
	.show = sysdev_show,
	.store = sysdev_store,
};

/* System devices and their classes are static objects: nothing to free. */
static void sysdev_release(struct kobject *kobj __unused)
{
}

static struct kobj_type ktype_sysdev = {
	.release = sysdev_release,
	.sysfs_ops = &sysfs_ops,
};

static struct kobj_type ktype_sysdev_class = {
	.release = sysdev_release,
};

int sysdev_create_file(struct sys_device *dev, struct sysdev_attribute *attr)
{
	return sysfs_create_file(&dev->kobj, &attr->attr);
}

void sysdev_remove_file(struct sys_device *dev, struct sysdev_attribute *attr)
{
	sysfs_remove_file(&dev->kobj, &attr->attr);
}

int sysdev_class_register(struct sysdev_class *cls)
{
	int err;

	memset(&cls->kset, 0, sizeof(cls->kset));
	err = kobject_set_name(&cls->kset.kobj, "%s", cls->name);
	if (err)
		return err;
	cls->kset.kobj.parent = &system_subsys.kobj;
	cls->kset.kobj.kset = &system_subsys;
	cls->kset.ktype = &ktype_sysdev;
	return kset_register(&cls->kset);
}

void sysdev_class_unregister(struct sysdev_class *cls)
{
	kset_unregister(&cls->kset);
}

int sysdev_register(struct sys_device *dev)
{
	struct sysdev_class *cls = dev->cls;
	int err;

	if (!cls)
		return -EINVAL;
	memset(&dev->kobj, 0, sizeof(dev->kobj));
	dev->kobj.kset = &cls->kset;
	dev->kobj.ktype = &ktype_sysdev;
	dev->kobj.parent = &cls->kset.kobj;
	err = kobject_set_name(&dev->kobj, "%s%u", cls->name, dev->id);
	if (err)
		return err; /* never initialised: nothing to undo */
	err = kobject_register(&dev->kobj);
	if (err)
		kobject_forget(&dev->kobj);
	return err;
}

void sysdev_unregister(struct sys_device *dev)
{
	kobject_unregister(&dev->kobj);
}

static struct sysdev_class *to_cls(struct kobject *k)
{
	return container_of(to_kset(k), struct sysdev_class, kset);
}

static struct sys_device *to_sysdev(struct kobject *k)
{
	return container_of(k, struct sys_device, kobj);
}

static void resume_one(struct sys_device *dev)
{
	devmodel_trace_kobj("sysdev_resume", &dev->kobj, NULL);
	if (dev->cls->resume && dev->cls->resume(dev))
		pr_err("PM: System device %s failed to resume\n", kobject_name(&dev->kobj));
}

/* Undo a failed sysdev_suspend: what was suspended before @failed, in the reverse order. */
static void resume_before(struct kobject *cls_k, struct kobject *failed)
{
	for (struct kobject *c = cls_k; &c->entry != &system_subsys.list;
	     c = list_entry(c->entry.next, struct kobject, entry)) {
		struct list_head *head = &to_cls(c)->kset.list;

		for (struct list_head *p = c == cls_k ? failed->entry.prev : head->prev; p != head;
		     p = p->prev)
			resume_one(to_sysdev(list_entry(p, struct kobject, entry)));
	}
}

int sysdev_suspend(pm_message_t state)
{
	struct kobject *c, *d;
	int err;

	/* interrupts are off and no other thread runs: no lock, as 2.6's */
	list_for_each_entry_reverse(c, &system_subsys.list, entry) {
		struct sysdev_class *cls = to_cls(c);

		list_for_each_entry(d, &cls->kset.list, entry) {
			devmodel_trace_kobj("sysdev_suspend", d, NULL);
			err = cls->suspend ? cls->suspend(to_sysdev(d), state) : 0;
			if (err) {
				pr_err("PM: System device %s failed to suspend: error %d\n",
				       kobject_name(d), err);
				resume_before(c, d);
				return err;
			}
		}
	}
	return 0;
}

int sysdev_resume(void)
{
	struct kobject *c, *d;

	list_for_each_entry(c, &system_subsys.list, entry) /* interrupts off, as suspend */
		list_for_each_entry(d, &to_cls(c)->kset.list, entry)
			resume_one(to_sysdev(d));
	return 0;
}

void sysdev_shutdown(void)
{
	struct kobject *c, *d;

	down_read(&system_subsys.rwsem); /* the classes' lists under it too, as 2.6.10 */
	list_for_each_entry_reverse(c, &system_subsys.list, entry) {
		struct sysdev_class *cls = to_cls(c);

		list_for_each_entry(d, &cls->kset.list, entry) {
			if (!cls->shutdown)
				continue;
			devmodel_trace_kobj("sysdev_shutdown", d, NULL);
			cls->shutdown(to_sysdev(d));
		}
	}
	up_read(&system_subsys.rwsem);
}

int system_bus_init(void)
{
	kobject_set_name(&system_subsys.kobj, "system");
	system_subsys.kobj.parent = &devices_subsys.kobj;
	system_subsys.ktype = &ktype_sysdev_class;
	return kset_register(&system_subsys);
}
