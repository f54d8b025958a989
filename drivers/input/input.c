/*
 * input.c: the input core (Linux's drivers/input/input.c, with evdev's
 * device): /sys/class/input/inputN below the device the keys come from,
 * with name, phys and id/, and its event device eventN (13:64+N) as a child.
 */
#include <kobold/input.h>

#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static struct class *input_class;
static u32 input_ids, event_ids; /* inputN and eventN in use: the lowest free is reused */

static struct input_dev *to_input_dev(struct device *dev)
{
	return container_of(dev, struct input_dev, dev);
}

static int alloc_id(u32 *used)
{
	for (int i = 0; i < 32; i++)
		if (!(*used & (1u << i))) {
			*used |= 1u << i;
			return i;
		}
	return -ENOSPC;
}

static ssize_t name_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_input_dev(dev)->name ?: "");
}
static DEVICE_ATTR_RO(name);

static ssize_t phys_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_input_dev(dev)->phys ?: "");
}
static DEVICE_ATTR_RO(phys);

static struct attribute *input_dev_attrs[] = { &dev_attr_name.attr, &dev_attr_phys.attr, NULL };

static const struct attribute_group input_dev_attr_group = { .attrs = input_dev_attrs };

#define INPUT_ID_ATTR(field)                                                                \
	static ssize_t id_##field##_show(struct device *dev, struct device_attribute *attr, \
					 char *buf)                                         \
	{                                                                                   \
		return sysfs_emit(buf, "%04x\n", to_input_dev(dev)->id.field);              \
	}                                                                                   \
	static struct device_attribute dev_attr_id_##field =                                \
		__ATTR(field, S_IRUGO, id_##field##_show, NULL)

INPUT_ID_ATTR(bustype);
INPUT_ID_ATTR(vendor);
INPUT_ID_ATTR(product);
INPUT_ID_ATTR(version);

static struct attribute *input_id_attrs[] = {
	&dev_attr_id_bustype.attr,
	&dev_attr_id_vendor.attr,
	&dev_attr_id_product.attr,
	&dev_attr_id_version.attr,
	NULL,
};

static const struct attribute_group input_id_attr_group = { .name = "id", .attrs = input_id_attrs };

static const struct attribute_group *input_dev_groups[] = {
	&input_dev_attr_group,
	&input_id_attr_group,
	NULL,
};

/* Kobold's own: how many key events the device reported (Linux hands them to readers of /dev/input/eventN). */
static ssize_t events_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lu\n", to_input_dev(dev->parent)->events);
}
static DEVICE_ATTR_RO(events);

static struct attribute *evdev_attrs[] = { &dev_attr_events.attr, NULL };
ATTRIBUTE_GROUPS(evdev);

/* Event devices live in /dev/input, as Linux's input_devnode puts them. */
static char *input_devnode(struct device *dev, umode_t *mode)
{
	return dev->devt ? kasprintf("input/%s", dev_name(dev)) : NULL;
}

/* As Linux's input_dev_uevent: PRODUCT, NAME and PHYS for the input device. */
static int input_dev_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	struct input_dev *idev;

	if (dev->devt)
		return 0; /* the event device: MAJOR, MINOR and DEVNAME are the core's */
	idev = to_input_dev(dev);
	return add_uevent_var(env, "PRODUCT=%x/%x/%x/%x", idev->id.bustype, idev->id.vendor,
			      idev->id.product, idev->id.version)
		       ?: add_uevent_var(env, "NAME=\"%s\"", idev->name ?: "") ?
									       : add_uevent_var(env, "PHYS=\"%s\"", idev->phys ?: "");
}

static void input_dev_release(struct device *dev)
{
	struct input_dev *idev = to_input_dev(dev);

	if (idev->num >= 0)
		input_ids &= ~(1u << idev->num);
	kfree(idev);
}

static void evdev_release(struct device *dev)
{
	event_ids &= ~(1u << (MINOR(dev->devt) - EVDEV_MINOR_BASE));
	kfree(dev);
}

struct input_dev *input_allocate_device(void)
{
	struct input_dev *idev = kzalloc(sizeof(*idev));

	if (!idev)
		return NULL;
	idev->num = -1;
	idev->dev.release = input_dev_release;
	idev->dev.groups = input_dev_groups;
	device_initialize(&idev->dev);
	idev->dev.class = input_class;
	return idev;
}

void input_free_device(struct input_dev *idev)
{
	if (idev)
		put_device(&idev->dev);
}

/* eventN, the input device's child, as evdev's connect makes it. */
static int evdev_connect(struct input_dev *idev)
{
	struct device *ev = kzalloc(sizeof(*ev));
	int n = alloc_id(&event_ids), err;

	if (n < 0 || !ev) {
		if (n >= 0)
			event_ids &= ~(1u << n);
		kfree(ev);
		return n < 0 ? n : -ENOMEM;
	}
	ev->release = evdev_release;
	device_initialize(ev);
	ev->class = input_class;
	ev->parent = &idev->dev;
	ev->devt = MKDEV(INPUT_MAJOR, EVDEV_MINOR_BASE + n);
	ev->groups = evdev_groups;
	snprintf(ev->bus_id, BUS_ID_SIZE, "event%d", n);
	err = device_add(ev);
	if (err) {
		put_device(ev);
		return err;
	}
	idev->evdev = ev;
	return 0;
}

/* As Linux: "input: NAME as /devices/..." */
static void input_say_added(struct input_dev *idev)
{
	char path[256];

	if (kobject_get_path(&idev->dev.kobj, path, sizeof(path)) < 0)
		path[0] = '\0';
	pr_info("input: %s as %s\n", idev->name ?: "", path);
}

int input_register_device(struct input_dev *idev)
{
	int err;

	idev->num = alloc_id(&input_ids);
	if (idev->num < 0)
		return idev->num;
	snprintf(idev->dev.bus_id, BUS_ID_SIZE, "input%d", idev->num);
	err = device_add(&idev->dev);
	if (err)
		return err;
	err = evdev_connect(idev);
	if (err) {
		device_del(&idev->dev);
		return err;
	}
	input_say_added(idev);
	return 0;
}

void input_unregister_device(struct input_dev *idev)
{
	device_unregister(idev->evdev); /* the child first */
	idev->evdev = NULL;
	device_unregister(&idev->dev);
}

void input_report_key(struct input_dev *idev, unsigned int code, int value)
{
	idev->events++;
}

int input_init(void)
{
	struct class *cls = class_create(THIS_MODULE, "input");

	if (IS_ERR(cls))
		return (int)PTR_ERR(cls); /* input_class stays NULL: devices register without a class */
	input_class = cls;
	input_class->dev_uevent = input_dev_uevent;
	input_class->devnode = input_devnode;
	return 0;
}
