/*
 * platform.c: the platform bus (Linux 2.6.15's drivers/base/platform.c):
 * /sys/devices/platform and /sys/bus/platform, devices matched to drivers by name.
 */
#include <kobold/platform_device.h>

#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "base.h"

/* The bus's own directory is static: nothing to free. */
static void platform_bus_release(struct device *dev __unused)
{
}

struct device platform_bus = {
	.bus_id = "platform",
	.is_root = true,
	.release = platform_bus_release,
};

/* As 2.6.15: the device's name against the driver's. */
static int platform_match(struct device *dev, struct device_driver *drv)
{
	return strncmp(to_platform_device(dev)->name, drv->name, BUS_ID_SIZE) == 0;
}

struct bus_type platform_bus_type = {
	.name = "platform",
	.match = platform_match,
};

struct resource *platform_get_resource(struct platform_device *pdev, unsigned long flags,
				       unsigned int num)
{
	for (u32 i = 0; i < pdev->num_resources; i++) {
		struct resource *r = &pdev->resource[i];

		if ((r->flags & (IORESOURCE_IO | IORESOURCE_MEM | IORESOURCE_IRQ)) == flags &&
		    num-- == 0)
			return r;
	}
	return NULL;
}

int platform_get_irq(struct platform_device *pdev, unsigned int num)
{
	struct resource *r = platform_get_resource(pdev, IORESOURCE_IRQ, num);

	return r ? (int)r->start : -ENXIO;
}

/* A device from platform_device_alloc, with its name stored behind it. */
struct platform_object {
	struct platform_device pdev;
	char name[];
};

static void platform_device_release(struct device *dev)
{
	struct platform_device *pdev = to_platform_device(dev);

	kfree(dev->platform_data);
	kfree(pdev->resource);
	kfree(container_of(pdev, struct platform_object, pdev));
}

struct platform_device *platform_device_alloc(const char *name, int id)
{
	size_t len = strlen(name);
	struct platform_object *pa = kzalloc(sizeof(*pa) + len + 1);

	if (!pa)
		return NULL;
	memcpy(pa->name, name, len + 1);
	pa->pdev.name = pa->name;
	pa->pdev.id = id;
	pa->pdev.dev.release = platform_device_release;
	device_initialize(&pa->pdev.dev);
	return &pa->pdev;
}

int platform_device_add_resources(struct platform_device *pdev, const struct resource *res,
				  unsigned int num)
{
	struct resource *r = kmalloc(num * sizeof(*r));

	if (!r)
		return -ENOMEM;
	memcpy(r, res, num * sizeof(*r));
	kfree(pdev->resource);
	pdev->resource = r;
	pdev->num_resources = num;
	return 0;
}

int platform_device_add_data(struct platform_device *pdev, const void *data, size_t size)
{
	void *d = kmalloc(size);

	if (!d)
		return -ENOMEM;
	memcpy(d, data, size);
	kfree(pdev->dev.platform_data);
	pdev->dev.platform_data = d;
	return 0;
}

/* Named "name" when id is -1 (the only one), else "name.id", below /sys/devices/platform. */
int platform_device_add(struct platform_device *pdev)
{
	int n;

	if (!pdev || !pdev->name || !*pdev->name)
		return -EINVAL;
	if (!pdev->dev.parent)
		pdev->dev.parent = &platform_bus;
	pdev->dev.bus = &platform_bus_type;
	if (pdev->id != -1)
		n = snprintf(pdev->dev.bus_id, BUS_ID_SIZE, "%s.%d", pdev->name, pdev->id);
	else
		n = snprintf(pdev->dev.bus_id, BUS_ID_SIZE, "%s", pdev->name);
	if (n >= BUS_ID_SIZE)
		return -EINVAL;
	return device_add(&pdev->dev);
}

void platform_device_del(struct platform_device *pdev)
{
	if (pdev)
		device_del(&pdev->dev);
}

void platform_device_put(struct platform_device *pdev)
{
	if (pdev)
		put_device(&pdev->dev);
}

int platform_device_register(struct platform_device *pdev)
{
	device_initialize(&pdev->dev);
	return platform_device_add(pdev);
}

void platform_device_unregister(struct platform_device *pdev)
{
	platform_device_del(pdev);
	platform_device_put(pdev);
}

struct platform_device *platform_device_register_simple(const char *name, int id,
							const struct resource *res,
							unsigned int num)
{
	struct platform_device *pdev = platform_device_alloc(name, id);
	int err = -ENOMEM;

	if (!pdev)
		goto out;
	err = num ? platform_device_add_resources(pdev, res, num) : 0;
	if (!err)
		err = platform_device_add(pdev);
	if (!err)
		return pdev;
	platform_device_put(pdev);
out:
	pr_err("platform %s.%d: registration failed: %d\n", name, id, err);
	return NULL;
}

/* The bus calls the device_driver's methods; these pass them on. */
static int platform_drv_probe(struct device *dev)
{
	return to_platform_driver(dev->driver)->probe(to_platform_device(dev));
}

static int platform_drv_remove(struct device *dev)
{
	return to_platform_driver(dev->driver)->remove(to_platform_device(dev));
}

static void platform_drv_shutdown(struct device *dev)
{
	to_platform_driver(dev->driver)->shutdown(to_platform_device(dev));
}

static int platform_drv_suspend(struct device *dev, pm_message_t state)
{
	return to_platform_driver(dev->driver)->suspend(to_platform_device(dev), state);
}

static int platform_drv_resume(struct device *dev)
{
	return to_platform_driver(dev->driver)->resume(to_platform_device(dev));
}

int platform_driver_register(struct platform_driver *drv)
{
	drv->driver.bus = &platform_bus_type;
	if (drv->probe)
		drv->driver.probe = platform_drv_probe;
	if (drv->remove)
		drv->driver.remove = platform_drv_remove;
	if (drv->shutdown)
		drv->driver.shutdown = platform_drv_shutdown;
	if (drv->suspend)
		drv->driver.suspend = platform_drv_suspend;
	if (drv->resume)
		drv->driver.resume = platform_drv_resume;
	return driver_register(&drv->driver);
}

void platform_driver_unregister(struct platform_driver *drv)
{
	driver_unregister(&drv->driver);
}

int platform_bus_init(void)
{
	int err = device_register(&platform_bus);

	if (err)
		return err;
	err = bus_register(&platform_bus_type);
	if (err)
		device_unregister(&platform_bus);
	return err;
}
