/*
 * virtio.c: the virtio bus (Linux's drivers/virtio/virtio.c). Binding a
 * driver runs the initialization sequence of virtio 1.1 §3.1.1: reset,
 * ACKNOWLEDGE, DRIVER, feature negotiation, FEATURES_OK, the driver's own
 * setup, DRIVER_OK.
 */
#include <kobold/virtio.h>

#include <kobold/errno.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/virtio_config.h>
#include <kobold/virtio_pci.h>

#define VIRTIO_MAX_DEVICES 64
static u64 index_used; /* virtio<N> names in use; the lowest free is reused */

static ssize_t device_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "0x%04x\n", dev_to_virtio(dev)->id.device);
}

static ssize_t vendor_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "0x%04x\n", dev_to_virtio(dev)->id.vendor);
}

static ssize_t status_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	struct virtio_device *vdev = dev_to_virtio(dev);

	return scnprintf(buf, SYSFS_PAGE_SIZE, "0x%08x\n", vdev->config->get_status(vdev));
}

static ssize_t modalias_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	struct virtio_device *vdev = dev_to_virtio(dev);

	return scnprintf(buf, SYSFS_PAGE_SIZE, "virtio:d%08Xv%08X\n", vdev->id.device,
			 vdev->id.vendor);
}

/* One character per feature bit, bit 0 first, as Linux prints them. */
static ssize_t features_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	struct virtio_device *vdev = dev_to_virtio(dev);
	int i;

	for (i = 0; i < 64; i++)
		buf[i] = virtio_has_feature(vdev, (unsigned int)i) ? '1' : '0';
	buf[i++] = '\n';
	return i;
}

static struct device_attribute virtio_dev_attrs[] = {
	__ATTR_RO(device),
	__ATTR_RO(vendor),
	__ATTR_RO(status),
	__ATTR_RO(modalias),
	__ATTR_RO(features),
	__ATTR_NULL,
};

static bool virtio_id_match(const struct virtio_device *vdev, const struct virtio_device_id *id)
{
	return id->device == vdev->id.device &&
	       (id->vendor == VIRTIO_DEV_ANY_ID || id->vendor == vdev->id.vendor);
}

static int virtio_dev_match(struct device *dev, struct device_driver *drv)
{
	const struct virtio_device_id *ids = drv_to_virtio(drv)->id_table;

	for (; ids && ids->device; ids++)
		if (virtio_id_match(dev_to_virtio(dev), ids))
			return 1;
	return 0;
}

static int virtio_hotplug(struct device *dev, char **envp, int num_envp, char *buffer,
			  int buffer_size)
{
	struct virtio_device *vdev = dev_to_virtio(dev);
	int i = 0, len = 0;

	return add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				   "MODALIAS=virtio:d%08Xv%08X", vdev->id.device, vdev->id.vendor);
}

struct bus_type virtio_bus = {
	.name = "virtio",
	.match = virtio_dev_match,
	.hotplug = virtio_hotplug,
	.dev_attrs = virtio_dev_attrs,
};

static int event_idx = -1;
module_param(event_idx, int,
	     "VIRTIO_RING_F_EVENT_IDX: 1 for every device, 0 for none, -1 where the driver asks (docs/performance.md)");

/*
 * The features the driver implements, plus VERSION_1 and indirect
 * descriptors; the event index (the ring's business) where the driver's
 * table lists it (virtio_blk), unless event_idx says otherwise.
 */
static u64 driver_features(const struct virtio_driver *drv)
{
	u64 f = 1ull << VIRTIO_F_VERSION_1 | 1ull << VIRTIO_RING_F_INDIRECT_DESC;

	for (unsigned int i = 0; i < drv->feature_table_size; i++)
		f |= 1ull << drv->feature_table[i];
	if (event_idx == 0)
		f &= ~(1ull << VIRTIO_RING_F_EVENT_IDX);
	else if (event_idx > 0)
		f |= 1ull << VIRTIO_RING_F_EVENT_IDX;
	return f;
}

/* §3.1.1 steps 4-6: what both sides offer, then FEATURES_OK if the device is 1.x. */
static int virtio_negotiate(struct virtio_device *vdev, const struct virtio_driver *drv)
{
	int err;

	vdev->features = vdev->config->get_features(vdev) & driver_features(drv);
	err = vdev->config->finalize_features(vdev);
	if (err)
		return err;
	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1))
		return 0; /* legacy devices have no FEATURES_OK step */
	virtio_add_status(vdev, VIRTIO_CONFIG_S_FEATURES_OK);
	if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_FEATURES_OK)) {
		pr_err("virtio %s: device refused our features\n", vdev->dev.bus_id);
		return -ENODEV;
	}
	return 0;
}

static int virtio_dev_probe(struct device *dev)
{
	struct virtio_device *vdev = dev_to_virtio(dev);
	struct virtio_driver *drv = drv_to_virtio(dev->driver);
	int err;

	virtio_add_status(vdev, VIRTIO_CONFIG_S_DRIVER);
	err = virtio_negotiate(vdev, drv);
	if (!err)
		err = drv->probe(vdev);
	if (err) {
		virtio_add_status(vdev, VIRTIO_CONFIG_S_FAILED);
		return err;
	}
	if (!(vdev->config->get_status(vdev) & VIRTIO_CONFIG_S_DRIVER_OK))
		virtio_device_ready(vdev);
	return 0;
}

static int virtio_dev_remove(struct device *dev)
{
	struct virtio_device *vdev = dev_to_virtio(dev);

	drv_to_virtio(dev->driver)->remove(vdev);
	WARN(vdev->config->get_status(vdev), "virtio %s: driver did not reset the device",
	     dev->bus_id);
	vdev->features = 0;
	/* Ready for the next driver: the device is known, but nobody drives it. */
	virtio_add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	return 0;
}

static void virtio_dev_shutdown(struct device *dev)
{
	drv_to_virtio(dev->driver)->shutdown(dev_to_virtio(dev));
}

void virtio_device_ready(struct virtio_device *vdev)
{
	virtio_add_status(vdev, VIRTIO_CONFIG_S_DRIVER_OK);
}

void virtio_config_changed(struct virtio_device *vdev)
{
	struct device_driver *drv = vdev->dev.driver;

	if (drv && drv_to_virtio(drv)->config_changed)
		drv_to_virtio(drv)->config_changed(vdev);
}

static int alloc_index(void)
{
	for (int i = 0; i < VIRTIO_MAX_DEVICES; i++) {
		if (!(index_used & (1ull << i))) {
			index_used |= 1ull << i;
			return i;
		}
	}
	return -ENOSPC;
}

int register_virtio_device(struct virtio_device *vdev)
{
	int err;

	device_initialize(&vdev->dev); /* from here on, put_device frees it */
	vdev->index = alloc_index();
	if (vdev->index < 0)
		return vdev->index;
	vdev->dev.bus = &virtio_bus;
	snprintf(vdev->dev.bus_id, BUS_ID_SIZE, "virtio%d", vdev->index);
	INIT_LIST_HEAD(&vdev->vqs);
	/* Firmware may have left the device running (§3.1.1 steps 1-2). */
	vdev->config->reset(vdev);
	virtio_add_status(vdev, VIRTIO_CONFIG_S_ACKNOWLEDGE);
	err = device_add(&vdev->dev);
	if (err)
		index_used &= ~(1ull << vdev->index); /* the caller puts the device */
	return err;
}

void unregister_virtio_device(struct virtio_device *vdev)
{
	int index = vdev->index;

	device_unregister(&vdev->dev);
	index_used &= ~(1ull << index);
}

int register_virtio_driver(struct virtio_driver *drv)
{
	drv->driver.name = drv->name;
	drv->driver.bus = &virtio_bus;
	drv->driver.probe = virtio_dev_probe;
	drv->driver.remove = virtio_dev_remove;
	if (drv->shutdown)
		drv->driver.shutdown = virtio_dev_shutdown;
	return driver_register(&drv->driver);
}

void unregister_virtio_driver(struct virtio_driver *drv)
{
	driver_unregister(&drv->driver);
}

int virtio_init(void)
{
	int err = bus_register(&virtio_bus);

	if (err)
		goto out;
	err = virtio_pci_init();
	if (err)
		goto out_bus;
	return 0;

out_bus:
	bus_unregister(&virtio_bus);
out:
	pr_err("virtio: init failed: %d\n", err);
	return err;
}
