/*
 * virtio_ring.c: split virtqueues (virtio 1.1 §2.6, Linux's
 * drivers/virtio/virtio_ring.c). The driver chains free descriptors for a
 * buffer, publishes the chain's head in the available ring, and later
 * collects heads the device put in the used ring. The barriers are the
 * ones §2.6.13 asks for.
 */
#include <kobold/virtio_ring.h>

#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

struct vring_virtqueue {
	struct virtqueue vq;
	struct vring vring;
	u16 free_head;		/* first free descriptor; free ones chain through .next */
	u16 avail_idx;		/* our copy of avail->idx */
	u16 last_used_idx;	/* the used entries we have collected */
	u16 num_added;		/* published since the last kick */
	bool (*notify)(struct virtqueue *vq);
	void **data;		/* the token of each chain, by head */
};

#define to_vvq(_vq) container_of(_vq, struct vring_virtqueue, vq)

static void vring_init(struct vring *vr, unsigned int num, void *p, unsigned long align)
{
	vr->num = num;
	vr->desc = p;
	vr->avail = (void *)((char *)p + 16ul * num);
	vr->used = (void *)ALIGN_UP((unsigned long)&vr->avail->ring[num] + sizeof(u16), align);
}

struct virtqueue *vring_new_virtqueue(unsigned int index, unsigned int num, unsigned long align,
				      struct virtio_device *vdev, void *pages,
				      bool (*notify)(struct virtqueue *vq),
				      vq_callback_t *callback, const char *name)
{
	struct vring_virtqueue *vvq;

	if (!num || num > 32768 || (num & (num - 1)))
		return NULL;	/* split queue sizes are powers of 2 (§2.6) */
	vvq = kzalloc(sizeof(*vvq));
	if (!vvq)
		return NULL;
	vvq->data = kzalloc(num * sizeof(void *));
	if (!vvq->data) {
		kfree(vvq);
		return NULL;
	}
	vring_init(&vvq->vring, num, pages, align);
	for (unsigned int i = 0; i < num - 1; i++)
		vvq->vring.desc[i].next = (u16)(i + 1);
	vvq->vq = (struct virtqueue){ .callback = callback, .name = name, .vdev = vdev,
				      .index = index, .num_free = num };
	vvq->notify = notify;
	/* We want every interrupt: no VRING_AVAIL_F_NO_INTERRUPT, no event index. */
	vvq->vring.avail->flags = 0;
	list_add_tail(&vvq->vq.list, &vdev->vqs);
	return &vvq->vq;
}

void vring_del_virtqueue(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	unsigned long flags = local_irq_save();

	list_del(&vq->list);
	local_irq_restore(flags);
	kfree(vvq->data);
	kfree(vvq);
}

int virtqueue_add_buf(struct virtqueue *vq, struct scatterlist sg[], unsigned int out,
		      unsigned int in, void *data)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	volatile struct vring_desc *desc = vvq->vring.desc;
	unsigned int total = out + in, i, n, prev = 0, head;

	if (!total || !data || total > vvq->vring.num)
		return -EINVAL;
	if (vq->num_free < total)
		return -ENOSPC;
	head = i = vvq->free_head;
	for (n = 0; n < total; n++) {
		desc[i].addr = (u32)(unsigned long)sg[n].buf;	/* identity-mapped */
		desc[i].len = sg[n].length;
		desc[i].flags = VRING_DESC_F_NEXT | (n >= out ? VRING_DESC_F_WRITE : 0);
		prev = i;
		i = desc[i].next;
	}
	desc[prev].flags &= ~VRING_DESC_F_NEXT;
	vvq->free_head = (u16)i;
	vq->num_free -= total;
	vvq->data[head] = data;
	vvq->vring.avail->ring[vvq->avail_idx % vvq->vring.num] = (u16)head;
	/* The device must see the descriptors and the ring entry before the index (§2.6.13). */
	wmb();
	vvq->vring.avail->idx = ++vvq->avail_idx;
	vvq->num_added++;
	return 0;
}

bool virtqueue_kick(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	bool needs;

	/* The index update must be visible before we read the device's flags (§2.6.13.4). */
	mb();
	needs = vvq->num_added && !(vvq->vring.used->flags & VRING_USED_F_NO_NOTIFY);
	vvq->num_added = 0;
	return needs ? vvq->notify(vq) : true;
}

/* Returns the chain at head to the free list. */
static void detach_buf(struct vring_virtqueue *vvq, unsigned int head)
{
	volatile struct vring_desc *desc = vvq->vring.desc;
	unsigned int i = head;

	vvq->data[head] = NULL;
	vvq->vq.num_free++;
	while (desc[i].flags & VRING_DESC_F_NEXT) {
		i = desc[i].next;
		vvq->vq.num_free++;
	}
	desc[i].next = vvq->free_head;
	vvq->free_head = (u16)head;
}

static bool more_used(const struct vring_virtqueue *vvq)
{
	return vvq->last_used_idx != vvq->vring.used->idx;
}

void *virtqueue_get_buf(struct virtqueue *vq, u32 *len)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	volatile struct vring_used_elem *e;
	unsigned int id;
	void *data;

	if (!more_used(vvq))
		return NULL;
	/* Read the used entry only after the index that says it is there (§2.6.13). */
	rmb();
	e = &vvq->vring.used->ring[vvq->last_used_idx % vvq->vring.num];
	id = e->id;
	if (len)
		*len = e->len;
	if (id >= vvq->vring.num || !vvq->data[id]) {
		pr_err("virtio: %s: device used bad descriptor %u\n", vq->name, id);
		return NULL;
	}
	data = vvq->data[id];
	detach_buf(vvq, id);
	vvq->last_used_idx++;
	return data;
}

void *virtqueue_detach_unused_buf(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);

	for (unsigned int i = 0; i < vvq->vring.num; i++) {
		void *data = vvq->data[i];

		if (data) {
			detach_buf(vvq, i);
			return data;
		}
	}
	return NULL;
}

enum irqreturn vring_interrupt(int irq, void *_vq)
{
	struct virtqueue *vq = _vq;

	if (!more_used(to_vvq(vq)))
		return IRQ_NONE;
	if (vq->callback)
		vq->callback(vq);
	return IRQ_HANDLED;
}

unsigned int virtqueue_get_vring_size(const struct virtqueue *vq)
{
	return to_vvq((struct virtqueue *)vq)->vring.num;
}

u64 virtqueue_get_desc_addr(const struct virtqueue *vq)
{
	return (unsigned long)to_vvq((struct virtqueue *)vq)->vring.desc;
}

u64 virtqueue_get_avail_addr(const struct virtqueue *vq)
{
	return (unsigned long)to_vvq((struct virtqueue *)vq)->vring.avail;
}

u64 virtqueue_get_used_addr(const struct virtqueue *vq)
{
	return (unsigned long)to_vvq((struct virtqueue *)vq)->vring.used;
}
