/*
 * virtio_blk.c: disks on virtio (QEMU: -drive if=none,id=d0,file=IMG
 * -device virtio-blk-pci,drive=d0), named vda, vdb, ... (virtio 1.1 §5.2).
 * Each request is a chain: a header the device reads, the data, and a
 * status byte the device writes. With indirect descriptors each request
 * takes one slot of the ring, so the disk's queue depth is the ring's size
 * and the block layer never gives us more; without them, requests that do
 * not fit wait in a software queue and enter as completions free descriptors.
 * A submitter that sends several requests at once (rq->more) gets one
 * notification for all (virtblk_commit), as blk-mq's bd->last. With
 * VIRTIO_BLK_F_MQ the device has num_queues request queues, each with its
 * own interrupt vector; a request goes to the submitting CPU's queue.
 */
#include <asm/io.h>
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/smp.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/virtio.h>
#include <kobold/virtio_blk.h>
#include <kobold/virtio_config.h>
#include <kobold/workqueue.h>

#define VIRTBLK_MINORS 16 /* per disk: the disk and 15 partitions, as Linux */
#define VIRTBLK_MAX_DISKS 64
#define VIRTBLK_MAX_SEGS 64	/* data pieces in one request */
#define VIRTBLK_MAX_SECTORS 256 /* 128 KiB, Linux's default max_sectors_kb */
#define VIRTBLK_ID_TIMEOUT_MS 5000
#define VIRTBLK_VQ_NAME_LEN 16

/* One request queue of the device (Linux's struct virtio_blk_vq). */
struct virtio_blk_vq {
	struct virtqueue *vq;
	spinlock_t lock;	  /* the ring and pending */
	struct list_head pending; /* accepted, waiting for room in the ring */
	char name[VIRTBLK_VQ_NAME_LEN];
};

struct virtio_blk {
	struct virtio_device *vdev;
	struct virtio_blk_vq *vqs;
	unsigned int num_vqs;
	struct gendisk *disk;
	int index;	       /* vd<a + index> */
	u32 seg_size;	       /* largest data piece (size_max) */
	unsigned int max_segs; /* most data pieces (seg_max, ring size) */
	char serial[VIRTIO_BLK_ID_BYTES + 1];
	struct work_struct config_work; /* a config change, handled outside the interrupt */
};

struct virtblk_req {
	struct list_head node;	    /* in pending until it enters the ring */
	struct virtblk_req *merged; /* the next one this request carries (virtblk_merge) */
	struct request *rq;	    /* NULL for the driver's own (GET_ID) */
	struct virtio_blk_outhdr out_hdr;
	void *buf;
	u32 len;
	bool write;
	u8 status;	    /* written by the device */
	volatile bool done; /* for the driver's own */
	int error;
};

static int virtblk_major;
static u64 index_used; /* vdX names in use: the lowest free one is reused */

static int status_to_errno(u8 status)
{
	switch (status) {
	case VIRTIO_BLK_S_OK:
		return 0;
	case VIRTIO_BLK_S_UNSUPP:
		return -EOPNOTSUPP;
	default:
		return -EIO;
	}
}

/* Header, data cut into pieces of at most seg_size, status (§5.2.6). */
static unsigned int virtblk_build_sg(struct virtio_blk *vblk, struct virtblk_req *vbr,
				     struct scatterlist *sg, unsigned int *out)
{
	unsigned int n = 0;
	u32 done = 0;

	sg_set_buf(&sg[n++], &vbr->out_hdr, sizeof(vbr->out_hdr));
	while (done < vbr->len && n <= vblk->max_segs) {
		u32 piece = min(vbr->len - done, vblk->seg_size);

		sg_set_buf(&sg[n++], (u8 *)vbr->buf + done, piece);
		done += piece;
	}
	*out = vbr->write ? n : 1;
	sg_set_buf(&sg[n++], &vbr->status, sizeof(vbr->status));
	return n;
}

/*
 * Moves waiting requests into the ring while it has room; under the
 * queue's lock. Says whether the device must be notified, if kick: the
 * caller notifies after dropping the lock (a notification is an exit to
 * the hypervisor, and the other CPU may want the queue meanwhile).
 */
/* Whether next continues vbr's transfer on the disk, in one data piece of its own. */
static bool virtblk_mergeable(struct virtio_blk *vblk, struct virtblk_req *vbr,
			      struct virtblk_req *next, u32 bytes)
{
	return next->rq && next->out_hdr.type == vbr->out_hdr.type &&
	       next->out_hdr.sector == vbr->out_hdr.sector + bytes / SECTOR_SIZE &&
	       next->len <= vblk->seg_size &&
	       bytes + next->len <= vblk->disk->max_sectors * SECTOR_SIZE;
}

/*
 * The back merge of Linux's elevator, within what waits in pending: the
 * requests that follow first on the disk, in order, ride in its chain as
 * more data pieces (one header, one status), so the device sees one
 * request for a run of adjacent blocks. The chain's pieces go into sg.
 */
static unsigned int virtblk_merge(struct virtio_blk *vblk, struct virtio_blk_vq *bvq,
				  struct virtblk_req *first, struct scatterlist *sg,
				  unsigned int *out)
{
	struct virtblk_req *vbr = first, *next;
	unsigned int n = 1;
	u32 bytes = first->len;

	first->merged = NULL;
	if (!first->rq || first->len > vblk->seg_size ||
	    (first->out_hdr.type != VIRTIO_BLK_T_IN && first->out_hdr.type != VIRTIO_BLK_T_OUT))
		return virtblk_build_sg(vblk, first, sg, out);
	sg_set_buf(&sg[0], &first->out_hdr, sizeof(first->out_hdr));
	sg_set_buf(&sg[n++], first->buf, first->len);
	while (vbr->node.next != &bvq->pending && n < vblk->max_segs + 1) {
		next = list_entry(vbr->node.next, struct virtblk_req, node);
		if (!virtblk_mergeable(vblk, first, next, bytes))
			break;
		sg_set_buf(&sg[n++], next->buf, next->len);
		bytes += next->len;
		vbr->merged = next;
		next->merged = NULL;
		vbr = next;
	}
	*out = first->write ? n : 1;
	sg_set_buf(&sg[n++], &first->status, sizeof(first->status));
	return n;
}

static void virtblk_unmerge(struct virtblk_req *vbr)
{
	while (vbr) {
		struct virtblk_req *next = vbr->merged;

		vbr->merged = NULL;
		vbr = next;
	}
}

static bool virtblk_feed(struct virtio_blk *vblk, struct virtio_blk_vq *bvq, bool kick)
{
	struct scatterlist sg[VIRTBLK_MAX_SEGS + 2];

	while (!list_empty(&bvq->pending)) {
		struct virtblk_req *vbr = list_first_entry(&bvq->pending, struct virtblk_req, node);
		unsigned int out, n = virtblk_merge(vblk, bvq, vbr, sg, &out);
		int err = virtqueue_add_buf(bvq->vq, sg, out, n - out, vbr);

		if (err == -ENOSPC) {
			virtblk_unmerge(vbr); /* gathered again when room comes */
			break;		      /* the next completion feeds us again */
		}
		for (struct virtblk_req *v = vbr; v; v = v->merged) {
			list_del_init(&v->node);
			if (v != vbr)
				v->rq->merged = true; /* the disk's stat counts it in merges */
		}
		if (err) {
			vbr->status = VIRTIO_BLK_S_IOERR;
			continue; /* cannot happen with our limits; never hang on it */
		}
	}
	return kick && virtqueue_kick_prepare(bvq->vq);
}

static void virtblk_complete_one(struct virtblk_req *vbr, int error)
{
	if (!vbr->rq) {
		vbr->error = error;
		vbr->done = true; /* its waiter frees it */
		return;
	}
	blk_end_request(vbr->rq, error);
	kfree(vbr);
}

/* A request and those merged into it: one status for all. */
static void virtblk_complete(struct virtblk_req *vbr, int error)
{
	while (vbr) {
		struct virtblk_req *next = vbr->merged;

		virtblk_complete_one(vbr, error);
		vbr = next;
	}
}

/*
 * Takes every used buffer of the queue, then feeds the ring from pending.
 * virtqueue_get_buf reads the used ring until it is empty and, with the
 * event index, asks for the next interrupt and reads once more, so that an
 * entry the device adds meanwhile is not left without an interrupt (the
 * race Linux's virtblk_done closes with virtqueue_enable_cb). The count.
 */
static int virtblk_drain(struct virtio_blk *vblk, struct virtio_blk_vq *bvq)
{
	struct virtblk_req *vbr;
	unsigned long flags;
	bool kick;
	int n = 0;
	u32 len;

	spin_lock_irqsave(&bvq->lock, flags);
	while ((vbr = virtqueue_get_buf(bvq->vq, &len))) {
		virtblk_complete(vbr, status_to_errno(vbr->status));
		n++;
	}
	kick = virtblk_feed(vblk, bvq, true);
	spin_unlock_irqrestore(&bvq->lock, flags);
	if (kick)
		virtqueue_notify(bvq->vq);
	return n;
}

/* A queue's callback, from the interrupt handler. */
static void virtblk_done(struct virtqueue *vq)
{
	struct virtio_blk *vblk = vq->vdev->priv;

	virtblk_drain(vblk, &vblk->vqs[vq->index]);
}

/* queue/io_poll: completions taken by the waiter, without the interrupt (Linux's blk_poll). */
static int virtblk_poll(struct gendisk *disk)
{
	struct virtio_blk *vblk = disk->private_data;
	int n = 0;

	for (unsigned int i = 0; i < vblk->num_vqs; i++)
		n += virtblk_drain(vblk, &vblk->vqs[i]);
	return n;
}

/*
 * While a waiter polls, the queues ask for no interrupt; after, they ask
 * again and take what the device used in between (virtqueue_enable_cb's
 * second look), waking whoever waits for it.
 */
static void virtblk_poll_irq(struct gendisk *disk, bool on)
{
	struct virtio_blk *vblk = disk->private_data;

	for (unsigned int i = 0; i < vblk->num_vqs; i++) {
		struct virtio_blk_vq *bvq = &vblk->vqs[i];
		unsigned long flags;
		bool missed = false;

		spin_lock_irqsave(&bvq->lock, flags);
		if (on)
			missed = !virtqueue_enable_cb(bvq->vq);
		else
			virtqueue_disable_cb(bvq->vq);
		spin_unlock_irqrestore(&bvq->lock, flags);
		if (missed)
			virtblk_drain(vblk, bvq);
	}
}

/*
 * Into the ring, and the device told, at once; unless more follow (kick
 * false): then it waits in pending, where the rest of the batch may merge
 * with it, until the batch's last request or virtblk_commit (2.6's
 * plugging, blk-mq's bd->last).
 */
static void virtblk_queue(struct virtio_blk *vblk, struct virtio_blk_vq *bvq,
			  struct virtblk_req *vbr, bool kick)
{
	unsigned long flags;

	spin_lock_irqsave(&bvq->lock, flags);
	list_add_tail(&vbr->node, &bvq->pending);
	if (kick)
		kick = virtblk_feed(vblk, bvq, true);
	spin_unlock_irqrestore(&bvq->lock, flags);
	if (kick)
		virtqueue_notify(bvq->vq);
}

/* blk-mq's commit_rqs: what was queued with rq->more goes in, with one notification. */
static void virtblk_commit(struct gendisk *disk)
{
	struct virtio_blk *vblk = disk->private_data;

	for (unsigned int i = 0; i < vblk->num_vqs; i++) {
		struct virtio_blk_vq *bvq = &vblk->vqs[i];
		unsigned long flags;
		bool kick;

		spin_lock_irqsave(&bvq->lock, flags);
		kick = virtblk_feed(vblk, bvq, true);
		spin_unlock_irqrestore(&bvq->lock, flags);
		if (kick)
			virtqueue_notify(bvq->vq);
	}
}

/* The submitting CPU's queue, as blk-mq maps CPUs to hardware queues. */
static struct virtio_blk_vq *virtblk_cpu_vq(struct virtio_blk *vblk)
{
	return &vblk->vqs[vblk->num_vqs == 1 ? 0 : smp_processor_id() % vblk->num_vqs];
}

static struct virtblk_req *virtblk_alloc_req(u32 type, u64 sector, void *buf, u32 len)
{
	struct virtblk_req *vbr = kzalloc(sizeof(*vbr));

	if (!vbr)
		return NULL;
	INIT_LIST_HEAD(&vbr->node);
	vbr->out_hdr.type = type;
	vbr->out_hdr.sector = sector;
	vbr->buf = buf;
	vbr->len = len;
	vbr->write = type == VIRTIO_BLK_T_OUT;
	vbr->status = 0xff; /* a device that writes nothing is an error */
	return vbr;
}

static int virtblk_submit(struct gendisk *disk, struct request *rq)
{
	struct virtio_blk *vblk = disk->private_data;
	struct virtblk_req *vbr;
	u32 type = VIRTIO_BLK_T_IN;

	if (rq->op == REQ_OP_FLUSH && !virtio_has_feature(vblk->vdev, VIRTIO_BLK_F_FLUSH)) {
		blk_end_request(rq, 0); /* no write cache: writes are already stable */
		return 0;
	}
	if (rq->op == REQ_OP_WRITE)
		type = VIRTIO_BLK_T_OUT;
	else if (rq->op == REQ_OP_FLUSH)
		type = VIRTIO_BLK_T_FLUSH;
	vbr = virtblk_alloc_req(type, rq->op == REQ_OP_FLUSH ? 0 : rq->sector, rq->buffer,
				rq->nr_sectors * SECTOR_SIZE);
	if (!vbr)
		return -ENOMEM;
	vbr->rq = rq;
	virtblk_queue(vblk, virtblk_cpu_vq(vblk), vbr, !rq->more);
	return 0;
}

static const struct block_device_operations virtblk_fops = {
	.owner = THIS_MODULE,
	.submit = virtblk_submit,
	.commit = virtblk_commit,
	.poll = virtblk_poll,
	.poll_irq = virtblk_poll_irq,
};

/* Waits for one of the driver's own requests, for a while: a broken device must not hang us. */
static int virtblk_wait(struct virtblk_req *vbr)
{
	unsigned long end = jiffies + VIRTBLK_ID_TIMEOUT_MS * HZ / 1000;

	for (;;) {
		local_irq_disable();
		if (vbr->done || (long)(jiffies - end) >= 0)
			break;
		safe_halt();
	}
	local_irq_enable();
	return vbr->done ? vbr->error : -ETIMEDOUT;
}

/* VIRTIO_BLK_T_GET_ID: the serial QEMU was given (-device ...,serial=). */
static void virtblk_get_id(struct virtio_blk *vblk)
{
	u8 *id = kzalloc(VIRTIO_BLK_ID_BYTES);
	struct virtblk_req *vbr = NULL;
	int err;

	if (id)
		vbr = virtblk_alloc_req(VIRTIO_BLK_T_GET_ID, 0, id, VIRTIO_BLK_ID_BYTES);
	if (!vbr) {
		pr_warn("%s: no serial number: %s\n", vblk->disk->disk_name, kstrerror(-ENOMEM));
		kfree(id);
		return;
	}
	virtblk_queue(vblk, &vblk->vqs[0], vbr, true);
	err = virtblk_wait(vbr);
	if (err == -ETIMEDOUT) {
		pr_err("%s: GET_ID timed out\n", vblk->disk->disk_name);
		return; /* the device still owns both buffers: leak them */
	}
	if (!err)
		memcpy(vblk->serial, id, VIRTIO_BLK_ID_BYTES);
	kfree(vbr);
	kfree(id);
}

static ssize_t serial_show(struct class_device *cd, char *buf)
{
	struct gendisk *disk = container_of(cd, struct gendisk, cdev);
	struct virtio_blk *vblk = disk->private_data;

	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", vblk->serial);
}
static CLASS_DEVICE_ATTR(serial, S_IRUGO, serial_show, NULL);

static struct attribute *virtblk_attrs[] = {
	&class_device_attr_serial.attr,
	NULL,
};

static const struct attribute_group virtblk_group = { .attrs = virtblk_attrs };
static const struct attribute_group *virtblk_groups[] = { &virtblk_group, NULL };

static int alloc_index(void)
{
	for (int i = 0; i < VIRTBLK_MAX_DISKS; i++) {
		if (!(index_used & (1ull << i))) {
			index_used |= 1ull << i;
			return i;
		}
	}
	return -ENOSPC;
}

/* vda ... vdz, then vdaa ..., as Linux's virtblk_name_format. */
static void virtblk_name(char *buf, size_t size, int index)
{
	if (index < 26)
		scnprintf(buf, size, "vd%c", 'a' + index);
	else
		scnprintf(buf, size, "vd%c%c", 'a' + index / 26 - 1, 'a' + index % 26);
}

/* The limits the device states (§5.2.4), within what our ring and stack take. */
static u32 virtblk_limits(struct virtio_blk *vblk)
{
	struct virtio_device *vdev = vblk->vdev;
	u32 size_max = 0, seg_max = 1, blk_size = SECTOR_SIZE;
	u32 max_bytes, step;

	virtio_cread_feature(vdev, VIRTIO_BLK_F_SIZE_MAX, struct virtio_blk_config, size_max,
			     &size_max);
	virtio_cread_feature(vdev, VIRTIO_BLK_F_SEG_MAX, struct virtio_blk_config, seg_max,
			     &seg_max);
	virtio_cread_feature(vdev, VIRTIO_BLK_F_BLK_SIZE, struct virtio_blk_config, blk_size,
			     &blk_size);
	vblk->seg_size = size_max ? size_max : 0xffffffffu;
	vblk->max_segs = min(min(seg_max ? seg_max : 1, (u32)VIRTBLK_MAX_SEGS),
			     virtqueue_get_vring_size(vblk->vqs[0].vq) - 2);
	max_bytes = VIRTBLK_MAX_SECTORS * SECTOR_SIZE;
	if ((u64)vblk->seg_size * vblk->max_segs < max_bytes)
		max_bytes = vblk->seg_size * vblk->max_segs;
	/* Whole logical blocks per request, so that none is split across two. */
	step = blk_size >= SECTOR_SIZE && !(blk_size % SECTOR_SIZE) ? blk_size / SECTOR_SIZE : 1;
	return max(max_bytes / SECTOR_SIZE / step * step, step);
}

/*
 * One ring slot per request with indirect tables, else three (header,
 * data, status) at least; in the ring of one queue, since all of a CPU's
 * requests may go to the same one.
 */
static unsigned int virtblk_queue_depth(struct virtio_blk *vblk)
{
	unsigned int num = virtqueue_get_vring_size(vblk->vqs[0].vq);

	if (virtio_has_feature(vblk->vdev, VIRTIO_RING_F_INDIRECT_DESC))
		return num;
	return max(num / 3, 1u);
}

static int virtblk_setup_disk(struct virtio_blk *vblk)
{
	struct gendisk *disk = alloc_disk();
	u64 capacity = 0;

	if (!disk)
		return -ENOMEM;
	vblk->disk = disk;
	disk->major = (unsigned int)virtblk_major;
	disk->first_minor = (unsigned int)vblk->index * VIRTBLK_MINORS;
	disk->minors = VIRTBLK_MINORS;
	virtblk_name(disk->disk_name, sizeof(disk->disk_name), vblk->index);
	virtio_cread(vblk->vdev, struct virtio_blk_config, capacity, &capacity);
	set_capacity(disk, capacity);
	disk->read_only = virtio_has_feature(vblk->vdev, VIRTIO_BLK_F_RO);
	disk->max_sectors = virtblk_limits(vblk);
	disk->queue_depth = virtblk_queue_depth(vblk);
	disk->fops = &virtblk_fops;
	disk->private_data = vblk;
	disk->driverfs_dev = &vblk->vdev->dev;
	return 0;
}

/*
 * The host changed the disk's configuration: QEMU's block_resize set a new
 * capacity. Lab 11 (docs/labs/lab11-config-interrupt.md), TODO: read the
 * capacity, give it to the block layer, send the disk's change event.
 */
static void virtblk_config_changed_work(struct work_struct *work)
{
}

/*
 * The config interrupt: its own MSI-X vector, or bit 1 of the ISR byte on
 * the INTx line (drivers/virtio/virtio_pci_common.c). Interrupt context.
 * Lab 11, TODO: hand the work to virtblk_config_changed_work.
 */
static void virtblk_config_changed(struct virtio_device *vdev)
{
}

/* How many request queues: the device's num_queues, at most one a CPU (as Linux's). */
static unsigned int virtblk_num_queues(struct virtio_device *vdev)
{
	u16 num = 1;

	virtio_cread_feature(vdev, VIRTIO_BLK_F_MQ, struct virtio_blk_config, num_queues, &num);
	return min(max((unsigned int)num, 1u), num_online_cpus());
}

/* The request queues: "requests" alone (2.6.31-3.16), else req.0, req.1, ... (3.17 on names all so); each with its callback. */
static int virtblk_init_vqs(struct virtio_blk *vblk)
{
	struct virtio_device *vdev = vblk->vdev;
	unsigned int n = virtblk_num_queues(vdev);
	vq_callback_t **callbacks = kzalloc(n * sizeof(*callbacks));
	const char **names = kzalloc(n * sizeof(*names));
	struct virtqueue **vqs = kzalloc(n * sizeof(*vqs));
	int err = -ENOMEM;

	vblk->vqs = kzalloc(n * sizeof(*vblk->vqs));
	if (!callbacks || !names || !vqs || !vblk->vqs)
		goto out;
	for (unsigned int i = 0; i < n; i++) {
		callbacks[i] = virtblk_done;
		if (n == 1) /* Linux 2.6.24's one queue */
			scnprintf(vblk->vqs[i].name, VIRTBLK_VQ_NAME_LEN, "requests");
		else
			scnprintf(vblk->vqs[i].name, VIRTBLK_VQ_NAME_LEN, "req.%u", i);
		names[i] = vblk->vqs[i].name;
		spin_lock_init(&vblk->vqs[i].lock);
		INIT_LIST_HEAD(&vblk->vqs[i].pending);
	}
	err = vdev->config->find_vqs(vdev, n, vqs, callbacks, names);
	if (err)
		goto out;
	for (unsigned int i = 0; i < n; i++) {
		vblk->vqs[i].vq = vqs[i];
		/* Queue i serves CPU i: its completions interrupt that CPU (as blk-mq's map). */
		if (n > 1 && vdev->config->set_vq_affinity &&
		    vdev->config->set_vq_affinity(vqs[i], i))
			pr_warn("virtio_blk %s: %s interrupts CPU 0, not %u\n", vdev->dev.bus_id,
				vblk->vqs[i].name, i);
	}
	vblk->num_vqs = n;
out:
	if (err) {
		kfree(vblk->vqs);
		vblk->vqs = NULL;
	}
	kfree(vqs);
	kfree(names);
	kfree(callbacks);
	return err;
}

static int virtblk_probe(struct virtio_device *vdev)
{
	struct virtio_blk *vblk = kzalloc(sizeof(*vblk));
	int err = -ENOMEM;

	if (!vblk)
		goto out;
	INIT_WORK(&vblk->config_work, virtblk_config_changed_work);
	vblk->vdev = vdev;
	vdev->priv = vblk;
	vblk->index = alloc_index();
	if (vblk->index < 0) {
		err = vblk->index;
		goto out_free;
	}
	err = virtblk_init_vqs(vblk);
	if (err)
		goto out_index;
	err = virtblk_setup_disk(vblk);
	if (err)
		goto out_vqs;
	virtio_device_ready(vdev); /* GET_ID needs a live device */
	virtblk_get_id(vblk);
	vblk->disk->cdev.groups = virtblk_groups; /* serial exists when udev sees the disk */
	err = add_disk(vblk->disk);
	if (err)
		goto out_vqs;
	pr_info("virtio_blk %s: [%s] %llu 512-byte logical blocks, %s transport%s\n",
		vdev->dev.bus_id, vblk->disk->disk_name, (unsigned long long)vblk->disk->capacity,
		vdev->config->bus_name(vdev), vblk->disk->read_only ? ", read-only" : "");
	return 0;

out_vqs:
	vdev->config->reset(vdev); /* 1.x queues go only with a reset: else the next probe finds them enabled */
	/* A config change during probe may have queued the work, or run it; none comes after the reset. */
	cancel_work_sync(&vblk->config_work);
	vdev->config->del_vqs(vdev);
	kfree(vblk->vqs);
	if (vblk->disk)
		put_disk(vblk->disk); /* after the work that uses it, as in remove */
out_index:
	index_used &= ~(1ull << vblk->index);
out_free:
	kfree(vblk);
out:
	return err;
}

/* After a reset the device touches nothing: what it held will never complete. */
static void virtblk_fail_queue(struct virtio_blk_vq *bvq)
{
	struct virtblk_req *vbr;
	unsigned long flags;

	spin_lock_irqsave(&bvq->lock, flags);
	while ((vbr = virtqueue_detach_unused_buf(bvq->vq)))
		virtblk_complete(vbr, -ENODEV);
	while (!list_empty(&bvq->pending)) {
		vbr = list_first_entry(&bvq->pending, struct virtblk_req, node);
		list_del_init(&vbr->node);
		virtblk_complete_one(vbr, -ENODEV); /* not in the ring: carries none */
	}
	spin_unlock_irqrestore(&bvq->lock, flags);
}

static void virtblk_fail_all(struct virtio_blk *vblk)
{
	for (unsigned int i = 0; i < vblk->num_vqs; i++)
		virtblk_fail_queue(&vblk->vqs[i]);
}

static void virtblk_remove(struct virtio_device *vdev)
{
	struct virtio_blk *vblk = vdev->priv;

	del_gendisk(vblk->disk); /* no new I/O; the remove event */
	vdev->config->reset(vdev);
	/* No interrupt after the reset queues it again; a run on another CPU ends before vblk goes. */
	cancel_work_sync(&vblk->config_work);
	virtblk_fail_all(vblk);
	vdev->config->del_vqs(vdev);
	kfree(vblk->vqs);
	put_disk(vblk->disk);
	index_used &= ~(1ull << vblk->index);
	vdev->priv = NULL;
	kfree(vblk);
}

/* Before poweroff: what the device caches goes to the disk, then the device stops. */
static void virtblk_shutdown(struct virtio_device *vdev)
{
	struct virtio_blk *vblk = vdev->priv;
	int err = blk_rw(vblk->disk, REQ_OP_FLUSH, 0, 0, NULL);

	if (err)
		pr_err("%s: flush before shutdown failed: %s\n", vblk->disk->disk_name,
		       kstrerror(err));
	vdev->config->reset(vdev);
	virtblk_fail_all(vblk);
	devmodel_trace("virtblk_shutdown", vblk->disk->disk_name,
		       err ? "reset (flush failed)" : "flushed, reset");
}

static const struct virtio_device_id id_table[] = {
	{ VIRTIO_ID_BLOCK, VIRTIO_DEV_ANY_ID },
	{ 0 },
};
MODULE_DEVICE_TABLE(virtio, id_table);

/*
 * What we implement; anything else the device offers stays unacknowledged.
 * The event index too: a disk at depth is where it saves notifications
 * (virtio.event_idx=0 turns it off, docs/performance.md).
 */
static const unsigned int features[] = {
	VIRTIO_BLK_F_SIZE_MAX, VIRTIO_BLK_F_SEG_MAX, VIRTIO_BLK_F_RO, VIRTIO_BLK_F_BLK_SIZE,
	VIRTIO_BLK_F_FLUSH, VIRTIO_BLK_F_MQ, VIRTIO_RING_F_EVENT_IDX
};

static struct virtio_driver virtio_blk = {
	.name = "virtio_blk",
	.id_table = id_table,
	.feature_table = features,
	.feature_table_size = ARRAY_SIZE(features),
	.probe = virtblk_probe,
	.remove = virtblk_remove,
	.shutdown = virtblk_shutdown,
	.config_changed = virtblk_config_changed,
};

static int virtio_blk_init(void)
{
	int err;

	virtblk_major = register_blkdev(0, "virtblk");
	if (virtblk_major < 0)
		return virtblk_major;
	err = register_virtio_driver(&virtio_blk);
	if (err)
		unregister_blkdev((unsigned int)virtblk_major, "virtblk");
	return err;
}

static void virtio_blk_exit(void)
{
	unregister_virtio_driver(&virtio_blk);
	unregister_blkdev((unsigned int)virtblk_major, "virtblk");
}

module_init(virtio_blk_init);
module_exit(virtio_blk_exit);
