/*
 * device.h: the Linux 2.6 driver model: devices on buses, the drivers that
 * bind to them, and classes of devices as user space sees them (the LWN
 * article "Driver porting: Device classes").
 */
#ifndef KOBOLD_DEVICE_H
#define KOBOLD_DEVICE_H

#include <kobold/err.h>
#include <kobold/gfp.h>
#include <kobold/klist.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/list.h>
#include <kobold/module.h>
#include <kobold/semaphore.h>
#include <kobold/sysfs.h>
#include <kobold/types.h>

#define BUS_ID_SIZE 20

struct device;
struct device_driver;
struct bus_type;
struct class;
struct class_device;

/* As 2.6's: the attribute's owner is the module that defines it (THIS_MODULE). */
#define __ATTR(_name, _mode, _show, _store)                                \
	{ .attr = { .name = #_name, .owner = THIS_MODULE, .mode = _mode }, \
	  .show = _show,                                                   \
	  .store = _store }
#define __ATTR_RO(_name) __ATTR(_name, S_IRUGO, _name##_show, NULL)
/* Linux 3.11's: NAME_show and NAME_store, modes 0644 and 0200. */
#define __ATTR_RW(_name) __ATTR(_name, S_IRUGO | S_IWUSR, _name##_show, _name##_store)
#define __ATTR_WO(_name) __ATTR(_name, S_IWUSR, NULL, _name##_store)
/* clang-format off */
#define __ATTR_NULL { .attr = { .name = NULL } }	/* ends attribute arrays */
/* clang-format on */

/* What a suspend is for (2.6.11's pm_message_t; PM_EVENT_* in <linux/pm.h>). */
typedef struct pm_message {
	int event;
} pm_message_t;
#define PM_EVENT_ON 0
#define PM_EVENT_FREEZE 1
#define PM_EVENT_SUSPEND 2
#define PMSG_SUSPEND ((pm_message_t){ .event = PM_EVENT_SUSPEND })
#define PMSG_ON ((pm_message_t){ .event = PM_EVENT_ON })

/* ---- buses ---- */

struct bus_attribute {
	struct attribute attr;
	ssize_t (*show)(struct bus_type *bus, char *buf);
	ssize_t (*store)(struct bus_type *bus, const char *buf, size_t count);
};
#define BUS_ATTR(_name, _mode, _show, _store) \
	struct bus_attribute bus_attr_##_name = __ATTR(_name, _mode, _show, _store)

struct bus_type {
	const char *name;
	struct kset subsys;		 /* /sys/bus/<name> */
	struct kset drivers;		 /* /sys/bus/<name>/drivers; its list holds the drivers */
	struct kset devices;		 /* /sys/bus/<name>/devices (links) */
	struct klist klist_devices;	 /* devices on the bus, in add order (2.6.13's klists) */
	struct klist klist_drivers;	 /* its drivers, in registration order */
	struct bus_attribute *bus_attrs; /* arrays ended by __ATTR_NULL */
	struct device_attribute *dev_attrs;
	struct driver_attribute *drv_attrs;
	/* Nonzero if drv can drive dev. */
	int (*match)(struct device *dev, struct device_driver *drv);
	/* Adds the bus's variables to a device's events (see add_hotplug_env_var). */
	int (*hotplug)(struct device *dev, char **envp, int num_envp, char *buffer,
		       int buffer_size);
};

int bus_register(struct bus_type *bus);
void bus_unregister(struct bus_type *bus); /* warns and keeps it if devices or drivers remain */
/* fn returns nonzero to stop; it may unregister the device it is given, no other. */
int bus_for_each_dev(struct bus_type *bus, struct device *start, void *data,
		     int (*fn)(struct device *dev, void *data));
int bus_for_each_drv(struct bus_type *bus, struct device_driver *start, void *data,
		     int (*fn)(struct device_driver *drv, void *data));
int bus_create_file(struct bus_type *bus, struct bus_attribute *attr);
void bus_remove_file(struct bus_type *bus, struct bus_attribute *attr);

/* ---- drivers ---- */

struct driver_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device_driver *drv, char *buf);
	ssize_t (*store)(struct device_driver *drv, const char *buf, size_t count);
};
#define DRIVER_ATTR(_name, _mode, _show, _store) \
	struct driver_attribute driver_attr_##_name = __ATTR(_name, _mode, _show, _store)

struct device_driver {
	const char *name;
	struct bus_type *bus;
	struct module *owner;		  /* THIS_MODULE, as 2.6's (see device_add_attrs) */
	struct kobject kobj;		  /* /sys/bus/<bus>/drivers/<name> */
	struct klist klist_devices;	  /* bound devices (2.6.13's klist) */
	struct klist_node knode_bus;	  /* in bus->klist_drivers */
	int (*probe)(struct device *dev); /* 0 binds; an error leaves dev unbound */
	int (*remove)(struct device *dev);
	void (*shutdown)(struct device *dev); /* before poweroff and reboot */
	int (*suspend)(struct device *dev, pm_message_t state);
	int (*resume)(struct device *dev);
};

int driver_register(struct device_driver *drv);
void driver_unregister(struct device_driver *drv); /* calls remove for each bound device */
int driver_create_file(struct device_driver *drv, struct driver_attribute *attr);
void driver_remove_file(struct device_driver *drv, struct driver_attribute *attr);

/* Binding (drivers/base/dd.c). Registering either side binds matching pairs. */
int device_attach(struct device *dev); /* 1 if bound */
/* A device on bus by name, with a reference (put_device it), or NULL. */
struct device *bus_find_device_by_name(struct bus_type *bus, const char *name);
void driver_attach(struct device_driver *drv);
void device_release_driver(struct device *dev);

/* ---- devices ---- */

/* The attribute itself is passed since Linux 2.6.13, so one show() can serve many. */
struct device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct device *dev, struct device_attribute *attr, char *buf);
	ssize_t (*store)(struct device *dev, struct device_attribute *attr,
			 const char *buf, size_t count);
};
#define DEVICE_ATTR(_name, _mode, _show, _store) \
	struct device_attribute dev_attr_##_name = __ATTR(_name, _mode, _show, _store)
/* Linux 3.11's: dev_attr_NAME from NAME_show and/or NAME_store. */
#define DEVICE_ATTR_RO(_name) struct device_attribute dev_attr_##_name = __ATTR_RO(_name)
#define DEVICE_ATTR_RW(_name) struct device_attribute dev_attr_##_name = __ATTR_RW(_name)
#define DEVICE_ATTR_WO(_name) struct device_attribute dev_attr_##_name = __ATTR_WO(_name)

/*
 * Linux 3.11's: from NAME_attrs (a NULL-ended array of &dev_attr_X.attr),
 * NAME_group and NAME_groups, for class->dev_groups or dev->groups.
 */
#define __ATTRIBUTE_GROUPS(_name)                                 \
	static const struct attribute_group *_name##_groups[] = { \
		&_name##_group,                                   \
		NULL,                                             \
	}
#define ATTRIBUTE_GROUPS(_name)                               \
	static const struct attribute_group _name##_group = { \
		.attrs = _name##_attrs,                       \
	};                                                    \
	__ATTRIBUTE_GROUPS(_name)

/* A device's power state and its place on the PM core's list (2.6's struct dev_pm_info). */
struct dev_pm_info {
	pm_message_t power_state; /* PM_EVENT_ON, or how it was suspended */
	struct list_head entry;	  /* on dpm_active (add order) or dpm_off */
};

struct device {
	struct klist_node knode_bus;	/* in bus->klist_devices */
	struct klist_node knode_driver; /* in driver->klist_devices */
	/*
	 * Held around probe, remove, bind and unbind (2.6.13-2.6.34's dev->sem;
	 * a parent's before its child's, lockdep's subclass the depth).
	 */
	struct semaphore sem;
	struct device *parent;
	struct kobject kobj;
	char bus_id[BUS_ID_SIZE]; /* the name, unique on the bus */
	struct bus_type *bus;
	struct device_driver *driver; /* bound driver, or NULL */
	void *driver_data;
	void *platform_data;
	u64 coherent_dma_mask; /* what dma_alloc_coherent's buffers must lie below */
	dev_t devt;	       /* if set: a "dev" file "MAJ:MIN" */
	bool is_root;	       /* Kobold: made by root_device_register */
	struct dev_pm_info power;
	void (*release)(struct device *dev);
	/* The newer API (Linux 2.6.18 on): a device that is a member of a class. */
	struct class *class;		       /* if set: /sys/class/<class>/<name> links here */
	struct list_head class_node;	       /* in class->devices */
	const struct attribute_group **groups; /* NULL-ended; made at add */
	struct list_head devres_head;	       /* managed resources (devres.c), newest last */
	struct kobject *glue;		       /* Kobold: the <class> directory it sits in, if any */
	bool class_held;		       /* Kobold: device_add took a reference on class */
	/* The core's uevent and dev files, owned by the class's module (as class_device's). */
	struct device_attribute uevent_attr, devt_attr;
};

static inline struct device *to_dev(struct kobject *kobj)
{
	return container_of(kobj, struct device, kobj);
}

static inline void *dev_get_drvdata(struct device *dev)
{
	return dev->driver_data;
}

static inline void dev_set_drvdata(struct device *dev, void *data)
{
	dev->driver_data = data;
}

static inline const char *dev_name(const struct device *dev)
{
	return dev->bus_id;
}

/*
 * The device must start zeroed. With no parent it goes under
 * /sys/devices/virtual. After device_initialize, drop it with put_device.
 */
void device_initialize(struct device *dev);
int device_add(struct device *dev);
int device_register(struct device *dev);
void device_del(struct device *dev);
void device_unregister(struct device *dev);
struct device *get_device(struct device *dev);
void put_device(struct device *dev);
int device_create_file(struct device *dev, struct device_attribute *attr);
void device_remove_file(struct device *dev, struct device_attribute *attr);
/*
 * For hotplug callbacks (see add_hotplug_env_var): PHYSDEVPATH, and
 * PHYSDEVBUS and PHYSDEVDRIVER when dev has them, as 2.6.10 to 2.6.36 put in
 * the events of class devices, disks and partitions with a device behind them.
 */
int add_physdev_vars(struct device *dev, char **envp, int num_envp, int *i, char *buffer,
		     int buffer_size, int *len);

/*
 * The newer API: a device of class cls, named by fmt (at most BUS_ID_SIZE - 1
 * characters, else -ENAMETOOLONG), under parent or /sys/devices/virtual/<class>.
 * drvdata as Linux 2.6.27 on. Returns the device or an ERR_PTR; the core frees it.
 */
struct device *device_create(struct class *cls, struct device *parent, dev_t devt,
			     void *drvdata, const char *fmt, ...) __printf(5, 6);
/* The same, with attribute groups made before the add event (Linux 3.11). */
struct device *device_create_with_groups(struct class *cls, struct device *parent, dev_t devt,
					 void *drvdata, const struct attribute_group **groups,
					 const char *fmt, ...) __printf(6, 7);
/* Unregisters the device of cls with that dev_t, made by device_create. */
void device_destroy(struct class *cls, dev_t devt);

/* ---- devres: resources freed when the driver lets go (drivers/base/devres.c) ---- */

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp);
void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp);
void devm_kfree(struct device *dev, const void *p);
int devm_add_action(struct device *dev, void (*action)(void *), void *data);
/* As devm_add_action, but on failure runs action(data) at once (Linux 4.6). */
int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data);
void devm_remove_action(struct device *dev, void (*action)(void *), void *data);
/* Every managed resource of dev, newest first; the core calls it after remove() or a failed probe(). */
int devres_release_all(struct device *dev);

/* A device at /sys/devices/NAME (as pci0000:00); NULL on failure (logged). */
struct device *root_device_register(const char *name);
void root_device_unregister(struct device *dev);

/*
 * Power management (drivers/base/power/, as 2.6.15's). device_shutdown calls
 * each bound driver's shutdown, the last device added first (children before
 * parents), before poweroff and reboot. device_suspend suspends every device
 * in the same order; if a driver's suspend fails, the devices already
 * suspended are resumed and its error returned. device_resume resumes them
 * in add order (parents first).
 */
void device_shutdown(void);
int device_suspend(pm_message_t state);
void device_resume(void);

/* ---- /sys/firmware (drivers/base/firmware.c) ---- */

extern struct kset firmware_subsys;
int firmware_register(struct kset *s);

/* ---- classes ---- */

struct class_attribute {
	struct attribute attr;
	ssize_t (*show)(struct class *cls, char *buf);
	ssize_t (*store)(struct class *cls, const char *buf, size_t count);
};
#define CLASS_ATTR(_name, _mode, _show, _store) \
	struct class_attribute class_attr_##_name = __ATTR(_name, _mode, _show, _store)

struct class_device_attribute {
	struct attribute attr;
	ssize_t (*show)(struct class_device *dev, char *buf);
	ssize_t (*store)(struct class_device *dev, const char *buf, size_t count);
};
#define CLASS_DEVICE_ATTR(_name, _mode, _show, _store)            \
	struct class_device_attribute class_device_attr_##_name = \
		__ATTR(_name, _mode, _show, _store)

struct class {
	const char *name;
	struct module *owner;		     /* 2.6.13: its devices' uevent and dev files pin it */
	struct kset subsys;		     /* /sys/class/<name> */
	struct list_head children;	     /* class devices, in add order */
	struct list_head devices;	     /* struct device members, in add order */
	struct list_head interfaces;	     /* in registration order */
	struct semaphore sem;		     /* the three lists above, and the interfaces' add and remove calls */
	struct class_attribute *class_attrs; /* arrays ended by __ATTR_NULL */
	struct class_device_attribute *class_dev_attrs;
	int (*hotplug)(struct class_device *dev, char **envp, int num_envp,
		       char *buffer, int buffer_size);
	void (*release)(struct class_device *dev); /* for devices without their own */
	void (*class_release)(struct class *cls);
	/* For struct device members (the newer API: dev_uevent, dev_release 2.6.19). */
	const struct attribute_group **dev_groups; /* Linux 3.11: made at each add */
	int (*dev_uevent)(struct device *dev, struct kobj_uevent_env *env);
	char *(*devnode)(struct device *dev, umode_t *mode); /* /dev name, if not the device's */
	void (*dev_release)(struct device *dev);	     /* for devices without their own */
};

struct class_device {
	struct list_head node; /* in class->children */
	struct kobject kobj;   /* /sys/class/<class>/<class_id> */
	struct class *class;
	dev_t devt;	    /* if set: a "dev" file and MAJOR/MINOR in events */
	struct device *dev; /* if set: a "device" link, and CLASS:ID back from it */
	void *class_data;
	struct class_device *parent; /* optional: a subdirectory of another */
	void (*release)(struct class_device *dev);
	char class_id[BUS_ID_SIZE];
	/* NULL-ended; made before the add event, so udev's rules see them (2.6.18's groups). */
	const struct attribute_group **groups;
	/* The core's uevent and dev files, owned by the class's module (as 2.6.15's). */
	struct class_device_attribute uevent_attr, devt_attr;
};

struct class_interface {
	struct list_head node;
	struct class *class;
	int (*add)(struct class_device *dev); /* for class_device members */
	void (*remove)(struct class_device *dev);
	int (*add_dev)(struct device *dev); /* struct device members: 2.6.19, in 6.4's form */
	void (*remove_dev)(struct device *dev);
};

static inline struct class_device *to_class_dev(struct kobject *kobj)
{
	return container_of(kobj, struct class_device, kobj);
}

static inline void *class_get_devdata(struct class_device *dev)
{
	return dev->class_data;
}

static inline void class_set_devdata(struct class_device *dev, void *data)
{
	dev->class_data = data;
}

/* A class allocated by the core (Linux 2.6.13); an ERR_PTR on failure. */
struct class *class_create(struct module *owner, const char *name);
void class_destroy(struct class *cls); /* NULL or an ERR_PTR: nothing done */
int class_register(struct class *cls);
void class_unregister(struct class *cls); /* warns and keeps it if devices remain */
struct class *class_get(struct class *cls);
void class_put(struct class *cls);
int class_create_file(struct class *cls, const struct class_attribute *attr);
void class_remove_file(struct class *cls, const struct class_attribute *attr);

/* The class device must start zeroed; after initialize, drop it with class_device_put. */
void class_device_initialize(struct class_device *dev);
int class_device_add(struct class_device *dev);
int class_device_register(struct class_device *dev);
void class_device_del(struct class_device *dev);
void class_device_unregister(struct class_device *dev);
struct class_device *class_device_get(struct class_device *dev);
void class_device_put(struct class_device *dev);
int class_device_create_file(struct class_device *dev,
			     const struct class_device_attribute *attr);
void class_device_remove_file(struct class_device *dev,
			      const struct class_device_attribute *attr);

int class_interface_register(struct class_interface *intf);
void class_interface_unregister(struct class_interface *intf);

/* The top of /sys: devices, bus, class. */
extern struct kset devices_subsys;
extern struct kset bus_subsys;
extern struct kset class_subsys;

/* Builds sysfs and /sys/{devices,bus,class,kernel}; first, before any registration. */
int driver_init(void);

#endif
