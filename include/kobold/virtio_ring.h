/*
 * virtio_ring.h: the split virtqueue in memory (virtio 1.1 §2.6): a table
 * of descriptors, the available ring the driver fills and the used ring
 * the device fills. All fields are little-endian, as x86 is.
 */
#ifndef KOBOLD_VIRTIO_RING_H
#define KOBOLD_VIRTIO_RING_H

#include <kobold/virtio.h>
#include <kobold/virtio_config.h>

#define VRING_DESC_F_NEXT 1	 /* the chain continues in .next */
#define VRING_DESC_F_WRITE 2	 /* device-writable (else device-readable) */
#define VRING_DESC_F_INDIRECT 4	 /* addr/len: a table of descriptors (§2.6.5.3) */
#define VRING_USED_F_NO_NOTIFY 1 /* the device needs no kick (§2.6.10) */
#define VRING_AVAIL_F_NO_INTERRUPT 1

struct vring_desc { /* §2.6.5 */
	u64 addr;
	u32 len;
	u16 flags;
	u16 next;
};

struct vring_avail { /* §2.6.6 */
	u16 flags;
	u16 idx;
	u16 ring[];
};

struct vring_used_elem {
	u32 id;	 /* head of the used descriptor chain */
	u32 len; /* bytes written into it */
};

struct vring_used { /* §2.6.8 */
	u16 flags;
	u16 idx;
	struct vring_used_elem ring[];
};

struct vring {
	unsigned int num;
	volatile struct vring_desc *desc;
	volatile struct vring_avail *avail;
	volatile struct vring_used *used;
};

/*
 * With VIRTIO_RING_F_EVENT_IDX, one more u16 ends each ring: the driver's
 * used_event (interrupt me once used->idx passes it) after the available
 * ring, the device's avail_event (kick me once avail->idx passes it) after
 * the used ring (§2.6.7.1, §2.6.10.1).
 */
#define vring_used_event(vr) ((vr)->avail->ring[(vr)->num])
#define vring_avail_event(vr) (*(volatile u16 *)&(vr)->used->ring[(vr)->num])

/* True if event_idx lies in [old, new): the other side asked to hear of an entry among those. */
static inline bool vring_need_event(u16 event_idx, u16 new_idx, u16 old)
{
	return (u16)(new_idx - event_idx - 1) < (u16)(new_idx - old);
}

/*
 * The legacy layout (§2.6.2): descriptors, then the available ring, then
 * the used ring at the next multiple of align (4096 for legacy PCI). Modern
 * devices take three addresses, so any layout would do; we use this one too.
 */
static inline unsigned long vring_size(unsigned int num, unsigned long align)
{
	unsigned long avail_end = 16ul * num + 2ul * (3 + num);

	return ALIGN_UP(avail_end, align) + 2ul * 3 + 8ul * num;
}

/* The virtqueue a transport creates on memory it found for the rings. */
struct virtqueue *vring_new_virtqueue(unsigned int index, unsigned int num, unsigned long align,
				      struct virtio_device *vdev, void *pages,
				      bool (*notify)(struct virtqueue *vq),
				      vq_callback_t *callback, const char *name);
void vring_del_virtqueue(struct virtqueue *vq);
/* For the transport's interrupt handler: calls the callback if buffers were used. */
enum irqreturn vring_interrupt(int irq, void *vq);

/* Where the rings are, for the transport to tell the device. */
u64 virtqueue_get_desc_addr(const struct virtqueue *vq);
u64 virtqueue_get_avail_addr(const struct virtqueue *vq);
u64 virtqueue_get_used_addr(const struct virtqueue *vq);

#endif
