/*
 * platform_device.h: the platform bus (Linux 2.6.15's <linux/platform_device.h>):
 * devices that no bus enumerates, the legacy ports of a PC, registered by
 * the code that knows they are there, and the drivers that bind to them by name.
 */
#ifndef KOBOLD_PLATFORM_DEVICE_H
#define KOBOLD_PLATFORM_DEVICE_H

#include <kobold/device.h>
#include <kobold/ioport.h>

struct platform_device {
	const char *name; /* the driver's name: match by it */
	int id;		  /* -1: the only one; else bus_id is "name.id" */
	struct device dev;
	u32 num_resources;
	struct resource *resource;
};

#define to_platform_device(x) container_of((x), struct platform_device, dev)

struct platform_driver {
	int (*probe)(struct platform_device *pdev);
	int (*remove)(struct platform_device *pdev);
	void (*shutdown)(struct platform_device *pdev);
	int (*suspend)(struct platform_device *pdev, pm_message_t state);
	int (*resume)(struct platform_device *pdev);
	struct device_driver driver; /* .name matches the devices' name */
};

#define to_platform_driver(drv) container_of((drv), struct platform_driver, driver)

extern struct bus_type platform_bus_type;
extern struct device platform_bus; /* /sys/devices/platform */

int platform_device_register(struct platform_device *pdev);
void platform_device_unregister(struct platform_device *pdev);

/* A device whose memory the bus owns (freed by its release): alloc, add, del, put. */
struct platform_device *platform_device_alloc(const char *name, int id);
int platform_device_add_resources(struct platform_device *pdev, const struct resource *res,
				  unsigned int num);
int platform_device_add_data(struct platform_device *pdev, const void *data, size_t size);
int platform_device_add(struct platform_device *pdev);
void platform_device_del(struct platform_device *pdev);
void platform_device_put(struct platform_device *pdev);
/* alloc + resources + add in one; NULL on failure (logged). */
struct platform_device *platform_device_register_simple(const char *name, int id,
							const struct resource *res,
							unsigned int num);

int platform_driver_register(struct platform_driver *drv);
void platform_driver_unregister(struct platform_driver *drv);

/* The num'th resource of type flags (IORESOURCE_IO, _MEM, _IRQ), or NULL. */
struct resource *platform_get_resource(struct platform_device *pdev, unsigned long flags,
				       unsigned int num);
int platform_get_irq(struct platform_device *pdev, unsigned int num);

static inline void *platform_get_drvdata(struct platform_device *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

static inline void platform_set_drvdata(struct platform_device *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

/* The bus and /sys/devices/platform; from driver_init, as Linux's. */
int platform_bus_init(void);

#endif
