/*
 * serio.c: the serio bus (Linux 2.6's drivers/input/serio/serio.c):
 * /sys/bus/serio, ports named serioN below their controller, drivers bound
 * by the port's type, protocol, id and extra byte.
 */
#include <kobold/serio.h>

#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static int serio_no; /* serioN: never reused, as Linux's counter */

static ssize_t description_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", to_serio_port(dev)->name);
}

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct serio_device_id *id = &to_serio_port(dev)->id;

	return scnprintf(buf, SYSFS_PAGE_SIZE, "serio:ty%02Xpr%02Xid%02Xex%02X\n", id->type,
			 id->proto, id->id, id->extra);
}

static struct device_attribute serio_device_attrs[] = {
	__ATTR_RO(description),
	__ATTR_RO(modalias),
	__ATTR_NULL,
};

#define SERIO_ID_ATTR(field)                                                       \
	static ssize_t id_##field##_show(struct device *dev,                       \
					 struct device_attribute *attr, char *buf) \
	{                                                                          \
		return scnprintf(buf, SYSFS_PAGE_SIZE, "%02x\n",                   \
				 to_serio_port(dev)->id.field);                    \
	}                                                                          \
	static struct device_attribute dev_attr_id_##field =                       \
		__ATTR(field, S_IRUGO, id_##field##_show, NULL)

SERIO_ID_ATTR(type);
SERIO_ID_ATTR(proto);
SERIO_ID_ATTR(id);
SERIO_ID_ATTR(extra);

static struct attribute *serio_id_attrs[] = {
	&dev_attr_id_type.attr,
	&dev_attr_id_proto.attr,
	&dev_attr_id_id.attr,
	&dev_attr_id_extra.attr,
	NULL,
};

static const struct attribute_group serio_id_attr_group = {
	.name = "id",
	.attrs = serio_id_attrs,
};

static ssize_t serio_driver_description_show(struct device_driver *drv, char *buf)
{
	struct serio_driver *sdrv = to_serio_driver(drv);

	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n",
			 sdrv->description ? sdrv->description : "(none)");
}

static struct driver_attribute serio_driver_attrs[] = {
	__ATTR(description, S_IRUGO, serio_driver_description_show, NULL),
	__ATTR_NULL,
};

static bool serio_match_port(const struct serio_device_id *ids, struct serio *serio)
{
	for (; ids->type; ids++)
		if ((ids->type == SERIO_ANY || ids->type == serio->id.type) &&
		    (ids->proto == SERIO_ANY || ids->proto == serio->id.proto) &&
		    (ids->extra == SERIO_ANY || ids->extra == serio->id.extra) &&
		    (ids->id == SERIO_ANY || ids->id == serio->id.id))
			return true;
	return false;
}

static int serio_bus_match(struct device *dev, struct device_driver *drv)
{
	return serio_match_port(to_serio_driver(drv)->id_table, to_serio_port(dev));
}

#define SERIO_ADD_HOTPLUG_VAR(fmt, val)                                                      \
	do {                                                                                 \
		int err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len, \
					      fmt, val);                                     \
		if (err)                                                                     \
			return err;                                                          \
	} while (0)

static int serio_hotplug(struct device *dev, char **envp, int num_envp, char *buffer,
			 int buffer_size)
{
	struct serio_device_id *id = &to_serio_port(dev)->id;
	int i = 0, len = 0;

	SERIO_ADD_HOTPLUG_VAR("SERIO_TYPE=%02x", id->type);
	SERIO_ADD_HOTPLUG_VAR("SERIO_PROTO=%02x", id->proto);
	SERIO_ADD_HOTPLUG_VAR("SERIO_ID=%02x", id->id);
	SERIO_ADD_HOTPLUG_VAR("SERIO_EXTRA=%02x", id->extra);
	return add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				   "MODALIAS=serio:ty%02Xpr%02Xid%02Xex%02X", id->type, id->proto,
				   id->id, id->extra);
}

static int serio_driver_probe(struct device *dev)
{
	struct serio *serio = to_serio_port(dev);

	return to_serio_driver(dev->driver)->connect(serio, to_serio_driver(dev->driver));
}

static int serio_driver_remove(struct device *dev)
{
	to_serio_driver(dev->driver)->disconnect(to_serio_port(dev));
	return 0;
}

static void serio_shutdown(struct device *dev)
{
	struct serio_driver *drv = to_serio_driver(dev->driver);

	if (drv->cleanup)
		drv->cleanup(to_serio_port(dev));
}

struct bus_type serio_bus = {
	.name = "serio",
	.match = serio_bus_match,
	.hotplug = serio_hotplug,
	.dev_attrs = serio_device_attrs,
	.drv_attrs = serio_driver_attrs,
};

static void serio_release_port(struct device *dev)
{
	kfree(to_serio_port(dev));
}

int serio_register_port(struct serio *serio)
{
	int err;

	device_initialize(&serio->dev);
	snprintf(serio->dev.bus_id, BUS_ID_SIZE, "serio%d", serio_no++);
	serio->dev.bus = &serio_bus;
	serio->dev.release = serio_release_port;
	err = device_add(&serio->dev);
	if (err)
		return err;
	if (sysfs_create_group(&serio->dev.kobj, &serio_id_attr_group))
		pr_warn("serio: %s: no id/ directory\n", serio->dev.bus_id);
	return 0;
}

void serio_unregister_port(struct serio *serio)
{
	sysfs_remove_group(&serio->dev.kobj, &serio_id_attr_group);
	device_unregister(&serio->dev);
}

int serio_register_driver(struct serio_driver *drv)
{
	drv->driver.bus = &serio_bus;
	drv->driver.probe = serio_driver_probe;
	drv->driver.remove = serio_driver_remove;
	drv->driver.shutdown = serio_shutdown;
	return driver_register(&drv->driver);
}

void serio_unregister_driver(struct serio_driver *drv)
{
	driver_unregister(&drv->driver);
}

int serio_open(struct serio *serio, struct serio_driver *drv)
{
	unsigned long flags = local_irq_save();

	serio->drv = drv;
	local_irq_restore(flags);
	if (serio->open && serio->open(serio)) {
		serio->drv = NULL;
		return -EIO;
	}
	return 0;
}

void serio_close(struct serio *serio)
{
	unsigned long flags;

	if (serio->close)
		serio->close(serio);
	flags = local_irq_save();
	serio->drv = NULL;
	local_irq_restore(flags);
}

enum irqreturn serio_interrupt(struct serio *serio, unsigned char data, unsigned int flags)
{
	if (serio->drv && serio->drv->interrupt)
		return serio->drv->interrupt(serio, data, flags);
	return IRQ_HANDLED; /* nobody listens: the byte is dropped, as Linux */
}

int serio_init(void)
{
	return bus_register(&serio_bus);
}
