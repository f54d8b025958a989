/*
 * vtconsole.c: /sys/class/vtconsole/vtcon0 (Linux's drivers/tty/vt/vt.c),
 * the VGA text console as a device of the newer API: class_create,
 * device_create, DEVICE_ATTR_RW/RO and ATTRIBUTE_GROUPS. A member of a
 * class with no parent, it lives in /sys/devices/virtual/vtconsole/vtcon0
 * and /sys/class/vtconsole/vtcon0 is a link to it.
 */
#include <kobold/console.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/string.h>

static struct class *vtconsole_class;

/* 1 while the console driver draws the text console; writing 0 detaches it. */
static ssize_t bind_show(struct device *dev __unused, struct device_attribute *attr __unused,
			 char *buf)
{
	return sysfs_emit(buf, "%i\n", vgacon_bound());
}

static ssize_t bind_store(struct device *dev __unused, struct device_attribute *attr __unused,
			  const char *buf, size_t count)
{
	bool on;
	int err = kstrtobool(buf, &on);

	if (err)
		return err;
	vgacon_bind(on);
	return (ssize_t)count;
}
static DEVICE_ATTR_RW(bind);

/* "(S)" for a driver built in, "(M)" for a module; then the driver's description. */
static ssize_t name_show(struct device *dev __unused, struct device_attribute *attr __unused,
			 char *buf)
{
	return sysfs_emit(buf, "(S) VGA+\n");
}
static DEVICE_ATTR_RO(name);

static struct attribute *con_dev_attrs[] = {
	&dev_attr_bind.attr,
	&dev_attr_name.attr,
	NULL,
};
ATTRIBUTE_GROUPS(con_dev);

int vtconsole_init(void)
{
	struct device *dev;

	vtconsole_class = class_create(THIS_MODULE, "vtconsole");
	if (IS_ERR(vtconsole_class))
		return (int)PTR_ERR(vtconsole_class);
	vtconsole_class->dev_groups = con_dev_groups;
	dev = device_create(vtconsole_class, NULL, MKDEV(0, 0), NULL, "vtcon%i", 0);
	if (IS_ERR(dev)) {
		class_destroy(vtconsole_class);
		return (int)PTR_ERR(dev);
	}
	return 0;
}
