/*
 * devres.c: managed device resources (Linux 2.6.21's drivers/base/devres.c):
 * memory and actions tied to a driver's hold on a device, released newest
 * first after the driver's remove() or a failed probe().
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "base.h"

struct devres {
	struct list_head node;	   /* in dev->devres_head */
	void (*action)(void *arg); /* for devm_add_action */
	void *arg;
	unsigned long long data[]; /* devm_kmalloc's memory, aligned */
};

static struct devres *devres_alloc(size_t size)
{
	struct devres *dr = kzalloc(sizeof(*dr) + size);

	if (dr)
		INIT_LIST_HEAD(&dr->node);
	return dr;
}

static void devres_add(struct device *dev, struct devres *dr)
{
	list_add_tail(&dr->node, &dev->devres_head);
}

void *devm_kmalloc(struct device *dev, size_t size, gfp_t gfp __unused)
{
	struct devres *dr = devres_alloc(size);

	if (!dr)
		return NULL;
	devres_add(dev, dr);
	return dr->data;
}

void *devm_kzalloc(struct device *dev, size_t size, gfp_t gfp)
{
	return devm_kmalloc(dev, size, gfp); /* devres_alloc zeroes */
}

/* Freeing memory devm_kmalloc did not give is a driver bug: warn, change nothing. */
void devm_kfree(struct device *dev, const void *p)
{
	struct devres *dr;

	if (!p)
		return;
	list_for_each_entry(dr, &dev->devres_head, node) {
		if (!dr->action && (const void *)dr->data == p) {
			list_del(&dr->node);
			kfree(dr);
			return;
		}
	}
	WARN(1, "devm_kfree: %s: %p is not managed memory of this device", dev_name(dev), p);
}

int devm_add_action(struct device *dev, void (*action)(void *), void *data)
{
	struct devres *dr = devres_alloc(0);

	if (!dr)
		return -ENOMEM;
	dr->action = action;
	dr->arg = data;
	devres_add(dev, dr);
	return 0;
}

int devm_add_action_or_reset(struct device *dev, void (*action)(void *), void *data)
{
	int err = devm_add_action(dev, action, data);

	if (err)
		action(data);
	return err;
}

void devm_remove_action(struct device *dev, void (*action)(void *), void *data)
{
	struct devres *dr;

	list_for_each_entry(dr, &dev->devres_head, node) {
		if (dr->action == action && dr->arg == data) {
			list_del(&dr->node);
			kfree(dr);
			return;
		}
	}
	WARN(1, "devm_remove_action: %s: no such action", dev_name(dev));
}

int devres_release_all(struct device *dev)
{
	int n = 0;

	if (!dev->devres_head.next) /* never initialised: nothing was added */
		return 0;
	while (!list_empty(&dev->devres_head)) {
		struct devres *dr = list_entry(dev->devres_head.prev, struct devres, node);

		list_del(&dr->node);
		if (dr->action)
			dr->action(dr->arg);
		kfree(dr);
		n++;
	}
	if (n)
		devmodel_trace_kobj("devres_release_all", &dev->kobj, NULL);
	return n;
}
