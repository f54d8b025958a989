/*
 * main.c: the PM core's list of devices and suspend/resume (Linux 2.6.15's
 * drivers/base/power/{main,suspend,resume}.c). Devices join dpm_active as
 * they are added; suspend walks it from the end (the last added, so children
 * before parents) moving each to dpm_off; resume walks dpm_off back.
 */
#include <kobold/device.h>
#include <kobold/printk.h>

#include "../base.h"

static LIST_HEAD(dpm_active); /* running, in add order */
static LIST_HEAD(dpm_off);    /* suspended, the last suspended first */

static struct device *to_device(struct list_head *entry)
{
	return container_of(entry, struct device, power.entry);
}

void device_pm_add(struct device *dev)
{
	list_add_tail(&dev->power.entry, &dpm_active);
}

void device_pm_remove(struct device *dev)
{
	list_del_init(&dev->power.entry);
}

static int suspend_device(struct device *dev, pm_message_t state)
{
	struct device_driver *drv = dev->driver;
	int err = 0;

	devmodel_trace_kobj("device_suspend", &dev->kobj, drv ? drv->name : NULL);
	if (drv && drv->suspend)
		err = drv->suspend(dev, state);
	if (!err)
		dev->power.power_state = state;
	return err;
}

static void resume_device(struct device *dev)
{
	struct device_driver *drv = dev->driver;

	devmodel_trace_kobj("device_resume", &dev->kobj, drv ? drv->name : NULL);
	if (drv && drv->resume && drv->resume(dev))
		pr_err("PM: Device %s failed to resume\n", dev->bus_id);
	dev->power.power_state = PMSG_ON;
}

/* dpm_resume: every suspended device, back onto dpm_active in add order. */
void device_resume(void)
{
	while (!list_empty(&dpm_off)) {
		struct device *dev = to_device(dpm_off.next);

		list_move_tail(&dev->power.entry, &dpm_active);
		resume_device(dev);
	}
}

int device_suspend(pm_message_t state)
{
	while (!list_empty(&dpm_active)) {
		struct device *dev = get_device(to_device(dpm_active.prev));
		int err = suspend_device(dev, state);

		if (err) {
			pr_err("Could not suspend device %s: error %d\n", dev->bus_id, err);
			put_device(dev);
			device_resume();
			return err;
		}
		list_move(&dev->power.entry, &dpm_off);
		put_device(dev);
	}
	return 0;
}
