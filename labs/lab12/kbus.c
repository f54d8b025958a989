/*
 * kbus.c: lab 12's starter (docs/labs/lab12-bus.md): the bus kbus, its
 * devices and its driver kbus_misc are declared and registered; the TODOs
 * are the lab: match by type, the bus attributes add and del, and the
 * driver's probe and remove with a misc device.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/miscdevice.h>
#include <kobold/module.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define KBUS_TYPE_SIZE 16
#define KBUS_MINOR_BASE 64 /* the misc minors kbus_misc hands out */
#define KBUS_MINORS 16

struct kbus_device {
	char type[KBUS_TYPE_SIZE];
	struct device dev;
};

struct kbus_driver {
	const char *type;
	struct device_driver driver;
};

#define to_kbus_device(d) container_of(d, struct kbus_device, dev)
#define to_kbus_driver(d) container_of(d, struct kbus_driver, driver)

static struct device *kbus_root;

/* ---- the bus ---- */

/* TODO: nonzero when the device's type is the driver's. */
static int kbus_match(struct device *dev, struct device_driver *drv)
{
	return 0;
}

/* TODO: KBUS_TYPE=<the device's type> in every event of a kbus device. */
static int kbus_hotplug(struct device *dev, char **envp, int num_envp, char *buffer,
			int buffer_size)
{
	return 0;
}

static ssize_t type_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", to_kbus_device(dev)->type);
}

static struct device_attribute kbus_dev_attrs[] = {
	__ATTR_RO(type),
	__ATTR_NULL,
};

/* __unused: until add_store sets it as the device's release. */
static void __unused kbus_release(struct device *dev)
{
	kfree(to_kbus_device(dev));
}

/*
 * TODO: "NAME TYPE": a new kbus_device named NAME (at most BUS_ID_SIZE - 1
 * characters, no '/') of that type, under kbus_root, released by
 * kbus_release. -EINVAL for a malformed line, -EEXIST for a taken name.
 */
static ssize_t add_store(struct bus_type *bus, const char *buf, size_t count)
{
	return -ENOSYS;
}

/* TODO: "NAME": removes that device; -ENODEV if there is none. */
static ssize_t del_store(struct bus_type *bus, const char *buf, size_t count)
{
	return -ENOSYS;
}

static struct bus_attribute kbus_bus_attrs[] = {
	__ATTR(add, S_IWUSR, NULL, add_store),
	__ATTR(del, S_IWUSR, NULL, del_store),
	__ATTR_NULL,
};

static struct bus_type kbus_type = {
	.name = "kbus",
	.match = kbus_match,
	.hotplug = kbus_hotplug,
	.bus_attrs = kbus_bus_attrs,
	.dev_attrs = kbus_dev_attrs,
};

/* ---- the driver of type "misc" ---- */

static struct miscdevice *kbus_minors[KBUS_MINORS];

static int kbus_misc_open(struct inode *inode, struct file *file)
{
	int slot = (int)MINOR(inode->i_rdev) - KBUS_MINOR_BASE;

	if (slot < 0 || slot >= KBUS_MINORS || !kbus_minors[slot])
		return -ENODEV;
	file->private_data = kbus_minors[slot];
	return 0;
}

static ssize_t kbus_misc_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	struct miscdevice *misc = file->private_data;
	char line[BUS_ID_SIZE + 1];
	size_t len = (size_t)scnprintf(line, sizeof(line), "%s\n", misc->name);

	if (*pos >= (loff_t)len)
		return 0;
	if (n > len - (size_t)*pos)
		n = len - (size_t)*pos;
	memcpy(buf, line + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

/* __unused: until the probe registers the misc device. */
static const struct file_operations __unused kbus_misc_fops = {
	.owner = THIS_MODULE,
	.open = kbus_misc_open,
	.read = kbus_misc_read,
};

/*
 * TODO: a misc device named after dev, with kbus_misc_fops, a free minor
 * from KBUS_MINOR_BASE on (kbus_minors[] says which are taken) and dev as
 * its parent; kept in dev's driver data.
 */
static int kbus_misc_probe(struct device *dev)
{
	return 0;
}

/* TODO: undo the probe. */
static int kbus_misc_remove(struct device *dev)
{
	return 0;
}

static struct kbus_driver kbus_misc_driver = {
	.type = "misc",
	.driver = {
		.name = "kbus_misc",
		.bus = &kbus_type,
		.owner = THIS_MODULE,
		.probe = kbus_misc_probe,
		.remove = kbus_misc_remove,
	},
};

/* ---- the module ---- */

static int kbus_unregister_one(struct device *dev, void *data)
{
	device_unregister(dev);
	return 0;
}

static int kbus_init(void)
{
	int err = bus_register(&kbus_type);

	if (err)
		return err;
	kbus_root = root_device_register("kbus");
	if (!kbus_root) {
		err = -ENOMEM;
		goto out_bus;
	}
	err = driver_register(&kbus_misc_driver.driver);
	if (err)
		goto out_root;
	return 0;

out_root:
	root_device_unregister(kbus_root);
out_bus:
	bus_unregister(&kbus_type);
	return err;
}

static void kbus_exit(void)
{
	bus_for_each_dev(&kbus_type, NULL, NULL, kbus_unregister_one);
	driver_unregister(&kbus_misc_driver.driver);
	root_device_unregister(kbus_root);
	bus_unregister(&kbus_type);
}

module_init(kbus_init);
module_exit(kbus_exit);
