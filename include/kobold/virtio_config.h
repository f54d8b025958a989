/*
 * virtio_config.h: device status, feature bits and the operations each
 * transport provides (virtio 1.1 §2.1, §2.2, §6; Linux's <linux/virtio_config.h>).
 */
#ifndef KOBOLD_VIRTIO_CONFIG_H
#define KOBOLD_VIRTIO_CONFIG_H

#include <kobold/virtio.h>

/* Device status field (§2.1). */
#define VIRTIO_CONFIG_S_ACKNOWLEDGE 1 /* we have noticed the device */
#define VIRTIO_CONFIG_S_DRIVER 2      /* we know how to drive it */
#define VIRTIO_CONFIG_S_DRIVER_OK 4
#define VIRTIO_CONFIG_S_FEATURES_OK 8
#define VIRTIO_CONFIG_S_NEEDS_RESET 0x40
#define VIRTIO_CONFIG_S_FAILED 0x80

/* Device-independent feature bits (§6). */
#define VIRTIO_RING_F_INDIRECT_DESC 28 /* a descriptor may point to a table (§2.6.5.3) */
#define VIRTIO_RING_F_EVENT_IDX 29     /* used_event and avail_event (§2.6.7, §2.6.10) */
#define VIRTIO_F_VERSION_1 32	       /* the device follows virtio 1.x, not legacy */

struct virtio_config_ops {
	/* Device-specific configuration: len is 1, 2, 4 or 8, the field's width. */
	void (*get)(struct virtio_device *vdev, unsigned int offset, void *buf, unsigned int len);
	void (*set)(struct virtio_device *vdev, unsigned int offset, const void *buf,
		    unsigned int len);
	u32 (*generation)(struct virtio_device *vdev);
	u8 (*get_status)(struct virtio_device *vdev);
	void (*set_status)(struct virtio_device *vdev, u8 status);
	/* Writes 0 to status and waits until the device reads back 0 (§2.1.2). */
	void (*reset)(struct virtio_device *vdev);
	u64 (*get_features)(struct virtio_device *vdev);
	/* Writes vdev->features to the device. */
	int (*finalize_features)(struct virtio_device *vdev);
	int (*find_vqs)(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
			vq_callback_t *callbacks[], const char *const names[]);
	void (*del_vqs)(struct virtio_device *vdev);
	/* Optional (Linux 3.8's): the queue's interrupt to that CPU; 0 or -errno. */
	int (*set_vq_affinity)(struct virtqueue *vq, unsigned int cpu);
	const char *(*bus_name)(struct virtio_device *vdev); /* "modern" or "legacy" */
};

static inline bool virtio_has_feature(const struct virtio_device *vdev, unsigned int fbit)
{
	return vdev->features & (1ull << fbit);
}

static inline void virtio_add_status(struct virtio_device *vdev, u8 bits)
{
	vdev->config->set_status(vdev, vdev->config->get_status(vdev) | bits);
}

/* Reads one configuration field at its own width; the transport retries torn reads (§2.4.1). */
#define virtio_cread(vdev, structname, member, ptr)                                \
	(vdev)->config->get((vdev), __builtin_offsetof(structname, member), (ptr), \
			    sizeof(*(ptr)))

/* A feature-dependent field: 0 and *ptr untouched if fbit was not negotiated. */
#define virtio_cread_feature(vdev, fbit, structname, member, ptr) \
	(virtio_has_feature((vdev), (fbit)) ? (virtio_cread((vdev), structname, member, (ptr)), 0) : -ENOENT)

#endif
