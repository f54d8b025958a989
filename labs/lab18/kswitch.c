/*
 * kswitch.c: lab 18's switch with four ports, each a device of the class
 * kswitch (/sys/class/kswitch/portN) with a label, unique across the
 * switch; /sys/class/kswitch/reset clears them all. Two of the device
 * model's locks guard the labels: a port's dev->sem and the class's sem,
 * taken in the model's order, dev->sem first (docs/locking.md).
 *
 * Lab 18 starter (docs/labs/lab18-deadlock.md): copy this file to
 * drivers/misc/kswitch.c. Everything works, and one function takes the
 * locks in the wrong order: the lock validator will tell you which.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/semaphore.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define KSWITCH_PORTS 4
#define KSWITCH_LABEL_SIZE 16

/*
 * A port's label is written with its dev->sem and the class's sem held, in
 * that order, so either of them is enough to read it: a port's own show
 * takes its dev->sem, and the walk over every port takes the class's sem.
 */
struct kport {
	char label[KSWITCH_LABEL_SIZE];
};

static struct device *ports[KSWITCH_PORTS];

static struct kport *to_kport(struct device *dev) { return dev_get_drvdata(dev); }

/* With the class's sem held: is label another port's? */
static bool kswitch_label_taken(struct class *cls, struct device *self, const char *label)
{
	struct device *dev;

	list_for_each_entry(dev, &cls->devices, class_node)
		if (dev != self && !strcmp(to_kport(dev)->label, label))
			return true;
	return false;
}

static ssize_t label_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	ssize_t n;

	down(&dev->sem);
	n = scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", to_kport(dev)->label);
	up(&dev->sem);
	return n;
}

static ssize_t label_store(struct device *dev, struct device_attribute *attr, const char *buf,
			   size_t count)
{
	char label[KSWITCH_LABEL_SIZE];
	const char *nl = strchr(buf, '\n');
	size_t len = nl ? (size_t)(nl - buf) : strlen(buf);
	int err = 0;

	if (len >= sizeof(label))
		return -EINVAL;
	memcpy(label, buf, len);
	label[len] = '\0';
	down(&dev->sem);
	down(&dev->class->sem);
	if (len && kswitch_label_taken(dev->class, dev, label))
		err = -EEXIST;
	else
		strscpy(to_kport(dev)->label, label, sizeof(label));
	up(&dev->class->sem);
	up(&dev->sem);
	return err ? err : (ssize_t)count;
}
static DEVICE_ATTR_RW(label);

static struct attribute *kswitch_attrs[] = {
	&dev_attr_label.attr,
	NULL,
};
ATTRIBUTE_GROUPS(kswitch);

/* /sys/class/kswitch/reset: "1" clears every port's label. */
static ssize_t reset_store(struct class *cls, const char *buf, size_t count)
{
	if (!sysfs_streq(buf, "1"))
		return -EINVAL;
	down(&cls->sem);
	for (int i = 0; i < KSWITCH_PORTS; i++) {
		down(&ports[i]->sem);
		to_kport(ports[i])->label[0] = '\0';
		up(&ports[i]->sem);
	}
	up(&cls->sem);
	return (ssize_t)count;
}

static struct class_attribute kswitch_class_attrs[] = {
	__ATTR(reset, S_IWUSR, NULL, reset_store),
	__ATTR_NULL,
};

static struct class kswitch_class = {
	.name = "kswitch",
	.owner = THIS_MODULE,
	.class_attrs = kswitch_class_attrs,
	.dev_groups = kswitch_groups,
};

static void kswitch_remove_ports(void)
{
	for (int i = KSWITCH_PORTS - 1; i >= 0; i--) {
		struct kport *port;

		if (!ports[i])
			continue;
		port = to_kport(ports[i]);
		device_unregister(ports[i]);
		kfree(port);
		ports[i] = NULL;
	}
}

static int kswitch_init(void)
{
	int err = class_register(&kswitch_class);

	if (err)
		return err;
	for (int i = 0; i < KSWITCH_PORTS; i++) {
		struct kport *port = kzalloc(sizeof(*port));
		struct device *dev;

		if (!port) {
			err = -ENOMEM;
			goto out_ports;
		}
		dev = device_create(&kswitch_class, NULL, 0, port, "port%d", i);
		if (IS_ERR(dev)) {
			kfree(port);
			err = (int)PTR_ERR(dev);
			goto out_ports;
		}
		ports[i] = dev;
	}
	return 0;

out_ports:
	kswitch_remove_ports();
	class_unregister(&kswitch_class);
	return err;
}

static void kswitch_exit(void)
{
	kswitch_remove_ports();
	class_unregister(&kswitch_class);
}

module_init(kswitch_init);
module_exit(kswitch_exit);
