/*
 * virtio_ring.c: split virtqueues (virtio 1.1 §2.6, Linux's
 * drivers/virtio/virtio_ring.c). The driver chains free descriptors for a
 * buffer, publishes the chain's head in the available ring, and later
 * collects heads the device put in the used ring. The barriers are the
 * ones §2.6.13 asks for.
 */
#include <kobold/virtio_ring.h>

#include <asm/io.h>
#include <asm/page.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

struct vring_virtqueue {
	struct virtqueue vq;
	struct vring vring;
	u16 free_head;	   /* first free descriptor; free ones chain through .next */
	u16 avail_idx;	   /* our copy of avail->idx */
	u16 last_used_idx; /* the used entries we have collected */
	u16 num_added;	   /* published since the last kick */
	bool indirect;	   /* VIRTIO_RING_F_INDIRECT_DESC negotiated */
	bool event;	   /* VIRTIO_RING_F_EVENT_IDX negotiated */
	bool cb_off;	   /* virtqueue_disable_cb: no interrupt asked for */
	bool (*notify)(struct virtqueue *vq);
	void **data;		   /* the token of each chain, by head */
	struct vring_desc **indir; /* the indirect table of each chain, by head */
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
		return NULL; /* split queue sizes are powers of 2 (§2.6) */
	vvq = kzalloc(sizeof(*vvq));
	if (!vvq)
		return NULL;
	vvq->data = kzalloc(num * sizeof(void *));
	vvq->indir = kzalloc(num * sizeof(void *));
	if (!vvq->data || !vvq->indir) {
		kfree(vvq->data);
		kfree(vvq->indir);
		kfree(vvq);
		return NULL;
	}
	vring_init(&vvq->vring, num, pages, align);
	for (unsigned int i = 0; i < num - 1; i++)
		vvq->vring.desc[i].next = (u16)(i + 1);
	vvq->vq = (struct virtqueue){
		.callback = callback,
		.name = name,
		.vdev = vdev,
		.index = index,
		.num_free = num,
	};
	vvq->notify = notify;
	vvq->indirect = virtio_has_feature(vdev, VIRTIO_RING_F_INDIRECT_DESC);
	vvq->event = virtio_has_feature(vdev, VIRTIO_RING_F_EVENT_IDX);
	/*
	 * Interrupts on, unless nobody is called for them (§2.6.7: a hint, as
	 * Linux's); with the event index, used_event says for which entry.
	 */
	vvq->vring.avail->flags = callback ? 0 : VRING_AVAIL_F_NO_INTERRUPT;
	vring_used_event(&vvq->vring) = 0;
	list_add_tail(&vvq->vq.list, &vdev->vqs);
	return &vvq->vq;
}

void vring_del_virtqueue(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	unsigned long flags = local_irq_save();

	list_del(&vq->list);
	local_irq_restore(flags);
	for (unsigned int i = 0; i < vvq->vring.num; i++)
		kfree(vvq->indir[i]);
	kfree(vvq->indir);
	kfree(vvq->data);
	kfree(vvq);
}

/* The whole chain in a table of its own, the ring holding one descriptor for it (§2.6.5.3). */
static struct vring_desc *alloc_indirect(struct scatterlist sg[], unsigned int out,
					 unsigned int total)
{
	struct vring_desc *t = kmalloc(total * sizeof(*t));

	if (!t)
		return NULL;
	for (unsigned int n = 0; n < total; n++) {
		t[n].addr = virt_to_phys(sg[n].buf);
		t[n].len = sg[n].length;
		t[n].flags = (n + 1 < total ? VRING_DESC_F_NEXT : 0) |
			     (n >= out ? VRING_DESC_F_WRITE : 0);
		t[n].next = (u16)(n + 1);
	}
	return t;
}

/* Fills total free descriptors from sg and returns the head. */
static unsigned int add_direct(struct vring_virtqueue *vvq, struct scatterlist sg[],
			       unsigned int out, unsigned int total)
{
	volatile struct vring_desc *desc = vvq->vring.desc;
	unsigned int i, n, prev = 0, head;

	head = i = vvq->free_head;
	for (n = 0; n < total; n++) {
		desc[i].addr = virt_to_phys(sg[n].buf);
		desc[i].len = sg[n].length;
		desc[i].flags = VRING_DESC_F_NEXT | (n >= out ? VRING_DESC_F_WRITE : 0);
		prev = i;
		i = desc[i].next;
	}
	desc[prev].flags &= ~VRING_DESC_F_NEXT;
	vvq->free_head = (u16)i;
	vvq->vq.num_free -= total;
	return head;
}

static unsigned int add_indirect(struct vring_virtqueue *vvq, struct vring_desc *table,
				 unsigned int total)
{
	unsigned int head = vvq->free_head;
	volatile struct vring_desc *d = &vvq->vring.desc[head];

	d->addr = virt_to_phys(table);
	d->len = total * sizeof(*table);
	d->flags = VRING_DESC_F_INDIRECT;
	vvq->free_head = d->next;
	vvq->vq.num_free--;
	vvq->indir[head] = table;
	return head;
}

int virtqueue_add_buf(struct virtqueue *vq, struct scatterlist sg[], unsigned int out,
		      unsigned int in, void *data)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	struct vring_desc *table = NULL;
	unsigned int total = out + in, head;

	if (!total || !data || (total > vvq->vring.num && !vvq->indirect))
		return -EINVAL;
	if (vvq->indirect && total > 1 && vq->num_free) {
		table = alloc_indirect(sg, out, total);
		if (!table) /* the ring's own descriptors will do, if it has room */
			pr_warn("virtio: %s: could not allocate an indirect table, using %u descriptors of the ring\n",
				vq->name, total);
	}
	if (!table && vq->num_free < total)
		return -ENOSPC;
	head = table ? add_indirect(vvq, table, total) : add_direct(vvq, sg, out, total);
	vvq->data[head] = data;
	vvq->vring.avail->ring[vvq->avail_idx % vvq->vring.num] = (u16)head;
	/* The device must see the descriptors and the ring entry before the index (§2.6.13). */
	wmb();
	vvq->vring.avail->idx = ++vvq->avail_idx;
	vvq->num_added++;
	return 0;
}

/*
 * A store-load fence that holds under QEMU's TCG too. The event index is a
 * handshake (§2.6.7.2, §2.6.10.2): we store our index, fence, and load the
 * device's event index; the device stores its event index, fences, and
 * loads our index; one of the two must see the other's store. QEMU before
 * 8.1 translates a guest's mfence to nothing while it runs one vCPU
 * (tcg_gen_mb without CF_PARALLEL), although its device threads read the
 * rings meanwhile; the host CPU may then let our load pass our store (x86
 * reorders a store with a later load), both sides miss, and a kick or an
 * interrupt is lost for good: a deep blk bench stalled with 32 requests the
 * device had not been told about. A read of the device's own status
 * register goes into QEMU's device code, which takes its global lock with a
 * locked instruction: a full fence on the host, and no side effect.
 */
static char *fence = "status";
module_param(fence, charp, "the event index's fence: status (default), mfence or lock (docs/performance.md)");

static void virtio_mb(struct vring_virtqueue *vvq)
{
	struct virtio_device *vdev = vvq->vq.vdev;

	if (fence[0] == 'l') { /* a locked add: a plain one on the host under one-vCPU TCG */
		__asm__ volatile("lock; addl $0,(%%esp)" ::: "memory", "cc");
		return;
	}
	mb();		     /* alone: nothing on the host under one-vCPU TCG */
	if (fence[0] != 'm') /* status */
		(void)vdev->config->get_status(vdev);
}

/*
 * Without the event index Kobold notifies after every batch, even while the
 * device has set VRING_USED_F_NO_NOTIFY (§2.6.10.2 says SHOULD NOT, not
 * MUST NOT): that flag is the same handshake, and a notification is cheap
 * beside the request. With it, only when avail_event lies among the entries
 * added since the last kick.
 */
bool virtqueue_kick_prepare(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	u16 new_idx = vvq->avail_idx, old_idx = (u16)(new_idx - vvq->num_added);
	bool needs = vvq->num_added;

	if (vvq->event && needs) {
		virtio_mb(vvq); /* avail->idx before avail_event (§2.6.13.4) */
		needs = vring_need_event(vring_avail_event(&vvq->vring), new_idx, old_idx);
	}
	vvq->num_added = 0;
	return needs;
}

bool virtqueue_notify(struct virtqueue *vq)
{
	return to_vvq(vq)->notify(vq);
}

bool virtqueue_kick(struct virtqueue *vq)
{
	return virtqueue_kick_prepare(vq) ? virtqueue_notify(vq) : true;
}

/* Returns the chain at head to the free list. */
static void detach_buf(struct vring_virtqueue *vvq, unsigned int head)
{
	volatile struct vring_desc *desc = vvq->vring.desc;
	unsigned int i = head;

	vvq->data[head] = NULL;
	vvq->vq.num_free++;
	if (vvq->indir[head]) { /* one ring descriptor, a table of our own */
		kfree(vvq->indir[head]);
		vvq->indir[head] = NULL;
		desc[head].next = vvq->free_head;
		vvq->free_head = (u16)head;
		return;
	}
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

/*
 * The used ring is empty: with the event index, ask for an interrupt at the
 * next entry (used_event), then look again, since the device may have added
 * one before it saw used_event (§2.6.7.2). True if it did.
 */
static bool vring_rearm(struct vring_virtqueue *vvq)
{
	if (!vvq->event || vvq->cb_off)
		return false;
	vring_used_event(&vvq->vring) = vvq->last_used_idx;
	virtio_mb(vvq); /* used_event before used->idx */
	return more_used(vvq);
}

void *virtqueue_get_buf(struct virtqueue *vq, u32 *len)
{
	struct vring_virtqueue *vvq = to_vvq(vq);
	volatile struct vring_used_elem *e;
	unsigned int id;
	void *data;

	if (!more_used(vvq) && !vring_rearm(vvq))
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

/*
 * Without the event index the flag asks (§2.6.7); with it the device reads
 * only used_event, which is moved half the index space away, so that no
 * interrupt comes for 32,768 entries.
 */
void virtqueue_disable_cb(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);

	vvq->cb_off = true;
	if (vvq->event)
		vring_used_event(&vvq->vring) = (u16)(vvq->last_used_idx + 0x8000);
	else
		vvq->vring.avail->flags |= VRING_AVAIL_F_NO_INTERRUPT;
}

/*
 * Interrupts again, from the next used entry; then the used ring is read
 * once more, since the device may have added entries before it saw the
 * request (Linux's virtqueue_enable_cb race; virtio_mb orders the store and
 * the load).
 */
bool virtqueue_enable_cb(struct virtqueue *vq)
{
	struct vring_virtqueue *vvq = to_vvq(vq);

	vvq->cb_off = false;
	if (vvq->event)
		vring_used_event(&vvq->vring) = vvq->last_used_idx;
	else
		vvq->vring.avail->flags &= ~VRING_AVAIL_F_NO_INTERRUPT;
	virtio_mb(vvq);
	return !more_used(vvq);
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
	return virt_to_phys(to_vvq((struct virtqueue *)vq)->vring.desc);
}

u64 virtqueue_get_avail_addr(const struct virtqueue *vq)
{
	return virt_to_phys(to_vvq((struct virtqueue *)vq)->vring.avail);
}

u64 virtqueue_get_used_addr(const struct virtqueue *vq)
{
	return virt_to_phys(to_vvq((struct virtqueue *)vq)->vring.used);
}
