/* base.h (internal): what the files of drivers/base share. */
#ifndef DRIVERS_BASE_BASE_H
#define DRIVERS_BASE_BASE_H

#include <kobold/device.h>

int devices_init(void);
int buses_init(void);
int classes_init(void);
int firmware_init(void);
int ksysfs_init(void);

int bus_add_device(struct device *dev);
void bus_remove_device(struct device *dev);
bool bus_is_registered(const struct bus_type *bus);
extern struct kobj_type ktype_driver;

/* drivers/base/power/main.c: the PM core's list of devices. */
void device_pm_add(struct device *dev);
void device_pm_remove(struct device *dev);

int add_bind_files(struct device_driver *drv);
/* A struct device member joins or leaves its class and the class's interfaces. */
void class_add_device(struct device *dev);
void class_remove_device(struct device *dev);

/* Called with dev->sem held (and the parent's, where 2.6.18 took it). */
int driver_probe_device(struct device_driver *drv, struct device *dev);
void driver_detach(struct device_driver *drv);

/*
 * dev->sem, down and up. Devices nest (a parent's probe registers its
 * children, whose attach takes theirs), so lockdep sees each depth of the
 * tree as a subclass of its own: a parent's before its child's is the
 * order, and the inverse is reported.
 */
static inline unsigned int device_depth(const struct device *dev)
{
	unsigned int depth = 0;

	while ((dev = dev->parent) && depth < MAX_LOCKDEP_SUBCLASSES - 1)
		depth++;
	return depth;
}

static inline void device_sem_down(struct device *dev) { down_nested(&dev->sem, device_depth(dev)); }
static inline void device_sem_up(struct device *dev) { up(&dev->sem); }

#endif
