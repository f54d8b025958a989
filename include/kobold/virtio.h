/*
 * virtio.h: the virtio bus (virtio 1.1 spec §2-§4, Linux's <linux/virtio.h>).
 * A transport (virtio-pci) finds a device and registers a virtio_device;
 * a driver (virtio_blk) binds to it by device id and talks to it through
 * the transport's config ops and its virtqueues.
 */
#ifndef KOBOLD_VIRTIO_H
#define KOBOLD_VIRTIO_H

#include <asm/irq.h>
#include <kobold/device.h>
#include <kobold/list.h>
#include <kobold/types.h>

#define VIRTIO_DEV_ANY_ID 0xffffffffu

/* Device ids (§5): what the device is, whatever the transport. */
#define VIRTIO_ID_NET 1
#define VIRTIO_ID_BLOCK 2

struct virtio_device_id {
	u32 device;
	u32 vendor; /* VIRTIO_DEV_ANY_ID matches any */
};

/* A piece of a buffer, in low memory: the device gets its virt_to_phys address. */
struct scatterlist {
	void *buf;
	u32 length;
};

static inline void sg_set_buf(struct scatterlist *sg, void *buf, u32 length)
{
	sg->buf = buf;
	sg->length = length;
}

struct virtio_device;
struct virtqueue;
typedef void vq_callback_t(struct virtqueue *vq);

struct virtqueue {
	struct list_head list;	 /* in vdev->vqs */
	vq_callback_t *callback; /* from the interrupt handler, when buffers are used */
	const char *name;
	struct virtio_device *vdev;
	unsigned int index;
	unsigned int num_free; /* descriptors free */
	void *priv;	       /* the transport's (where to notify) */
};

/*
 * Split virtqueues (drivers/virtio/virtio_ring.c). Buffers go in as a list
 * of out (device-readable) then in (device-writable) pieces, with a token
 * given back by virtqueue_get_buf when the device has used them.
 * 0, -ENOSPC (ring full: retry after some complete) or -EINVAL.
 */
int virtqueue_add_buf(struct virtqueue *vq, struct scatterlist sg[], unsigned int out,
		      unsigned int in, void *data);
/* Tells the device about new buffers, unless it said it does not need to know. */
bool virtqueue_kick(struct virtqueue *vq);
/*
 * virtqueue_kick in two, as Linux's: prepare (under the queue's lock) says
 * whether the device must be told of what was added since; notify (after
 * the lock, it may exit to the hypervisor) tells it. notify: false if the
 * device is gone.
 */
bool virtqueue_kick_prepare(struct virtqueue *vq);
bool virtqueue_notify(struct virtqueue *vq);
/* Asks the device not to interrupt for used buffers (a hint: one may still come). */
void virtqueue_disable_cb(struct virtqueue *vq);
/* Asks for interrupts again; false if buffers were used meanwhile (collect them). */
bool virtqueue_enable_cb(struct virtqueue *vq);
/* The token of the next used buffer and how many bytes the device wrote; NULL if none. */
void *virtqueue_get_buf(struct virtqueue *vq, u32 *len);
/* After a reset: takes back a buffer the device never used (NULL when none is left). */
void *virtqueue_detach_unused_buf(struct virtqueue *vq);
unsigned int virtqueue_get_vring_size(const struct virtqueue *vq);

struct virtio_device {
	int index; /* virtio<index> */
	struct device dev;
	struct virtio_device_id id;
	const struct virtio_config_ops *config;
	struct list_head vqs;
	u64 features; /* negotiated: what both sides use */
	void *priv;   /* the driver's */
};

static inline struct virtio_device *dev_to_virtio(struct device *dev)
{
	return container_of(dev, struct virtio_device, dev);
}

struct virtio_driver {
	const char *name;
	const struct virtio_device_id *id_table; /* ends with device 0 */
	const unsigned int *feature_table;	 /* feature bits the driver implements */
	unsigned int feature_table_size;
	int (*probe)(struct virtio_device *vdev);
	void (*remove)(struct virtio_device *vdev);	    /* must reset the device */
	void (*config_changed)(struct virtio_device *vdev); /* interrupt context */
	void (*shutdown)(struct virtio_device *vdev);	    /* before poweroff: must reset the device */
	struct device_driver driver;
};

static inline struct virtio_driver *drv_to_virtio(struct device_driver *drv)
{
	return container_of(drv, struct virtio_driver, driver);
}

extern struct bus_type virtio_bus;

/* The virtio bus and the virtio-pci transport that puts devices on it. */
int virtio_init(void);

/* For transports: dev->dev.parent and dev->config set; resets the device and registers it. */
int register_virtio_device(struct virtio_device *dev);
void unregister_virtio_device(struct virtio_device *dev);
/* From the transport's interrupt handler: the device's configuration changed. */
void virtio_config_changed(struct virtio_device *dev);

int register_virtio_driver(struct virtio_driver *drv);
void unregister_virtio_driver(struct virtio_driver *drv);
/* DRIVER_OK: the driver is ready; the device may now use the queues (§3.1.1 step 8). */
void virtio_device_ready(struct virtio_device *dev);

#endif
