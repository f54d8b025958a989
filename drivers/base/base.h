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

int driver_probe_device(struct device_driver *drv, struct device *dev);

#endif
