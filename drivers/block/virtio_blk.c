/*
 * virtio_blk.c: disks on virtio (QEMU: -drive if=none,id=d0,file=IMG
 * -device virtio-blk-pci,drive=d0), named vda, vdb, ... (virtio 1.1 §5.2).
 * Each request is a chain: a header the device reads, the data, and a
 * status byte the device writes. With indirect descriptors each request
 * takes one slot of the ring, so the disk's queue depth is the ring's size
 * and the block layer never gives us more; without them, requests that do
 * not fit wait in a software queue and enter as completions free descriptors.
 */
#include <asm/io.h>
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
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

struct virtio_blk {
	struct virtio_device *vdev;
	struct virtqueue *vq;
	struct gendisk *disk;
	int index;		  /* vd<a + index> */
	u32 seg_size;		  /* largest data piece (size_max) */
	unsigned int max_segs;	  /* most data pieces (seg_max, ring size) */
	struct list_head pending; /* accepted, waiting for room in the ring */
	char serial[VIRTIO_BLK_ID_BYTES + 1];
	struct work_struct config_work; /* a config change, handled outside the interrupt */
};

struct virtblk_req {
	struct list_head node; /* in pending until it enters the ring */
	struct request *rq;    /* NULL for the driver's own (GET_ID) */
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

/* Moves waiting requests into the ring while it has room; interrupts are off. */
static void virtblk_feed(struct virtio_blk *vblk)
{
	struct scatterlist sg[VIRTBLK_MAX_SEGS + 2];
	bool added = false;

	while (!list_empty(&vblk->pending)) {
		struct virtblk_req *vbr = list_first_entry(&vblk->pending, struct virtblk_req, node);
		unsigned int out, n = virtblk_build_sg(vblk, vbr, sg, &out);
		int err = virtqueue_add_buf(vblk->vq, sg, out, n - out, vbr);

		if (err == -ENOSPC)
			break; /* the next completion feeds us again */
		list_del_init(&vbr->node);
		if (err) {
			vbr->status = VIRTIO_BLK_S_IOERR;
			continue; /* cannot happen with our limits; never hang on it */
		}
		added = true;
	}
	if (added)
		virtqueue_kick(vblk->vq);
}

static void virtblk_complete(struct virtblk_req *vbr, int error)
{
	if (!vbr->rq) {
		vbr->error = error;
		vbr->done = true; /* its waiter frees it */
		return;
	}
	blk_end_request(vbr->rq, error);
	kfree(vbr);
}

/* The queue's callback, from the interrupt handler. */
static void virtblk_done(struct virtqueue *vq)
{
	struct virtio_blk *vblk = vq->vdev->priv;
	struct virtblk_req *vbr;
	u32 len;

	while ((vbr = virtqueue_get_buf(vq, &len)))
		virtblk_complete(vbr, status_to_errno(vbr->status));
	virtblk_feed(vblk);
}

static void virtblk_queue(struct virtio_blk *vblk, struct virtblk_req *vbr)
{
	unsigned long flags = local_irq_save();

	list_add_tail(&vbr->node, &vblk->pending);
	virtblk_feed(vblk);
	local_irq_restore(flags);
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
	virtblk_queue(vblk, vbr);
	return 0;
}

static const struct block_device_operations virtblk_fops = {
	.owner = THIS_MODULE,
	.submit = virtblk_submit,
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
	virtblk_queue(vblk, vbr);
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
			     virtqueue_get_vring_size(vblk->vq) - 2);
	max_bytes = VIRTBLK_MAX_SECTORS * SECTOR_SIZE;
	if ((u64)vblk->seg_size * vblk->max_segs < max_bytes)
		max_bytes = vblk->seg_size * vblk->max_segs;
	/* Whole logical blocks per request, so that none is split across two. */
	step = blk_size >= SECTOR_SIZE && !(blk_size % SECTOR_SIZE) ? blk_size / SECTOR_SIZE : 1;
	return max(max_bytes / SECTOR_SIZE / step * step, step);
}

/* One ring slot per request with indirect tables, else three (header, data, status) at least. */
static unsigned int virtblk_queue_depth(struct virtio_blk *vblk)
{
	unsigned int num = virtqueue_get_vring_size(vblk->vq);

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

static int virtblk_probe(struct virtio_device *vdev)
{
	vq_callback_t *callbacks[] = { virtblk_done };
	const char *const names[] = { "requests" };
	struct virtio_blk *vblk = kzalloc(sizeof(*vblk));
	int err = -ENOMEM;

	if (!vblk)
		goto out;
	INIT_LIST_HEAD(&vblk->pending);
	INIT_WORK(&vblk->config_work, virtblk_config_changed_work);
	vblk->vdev = vdev;
	vdev->priv = vblk;
	vblk->index = alloc_index();
	if (vblk->index < 0) {
		err = vblk->index;
		goto out_free;
	}
	err = vdev->config->find_vqs(vdev, 1, &vblk->vq, callbacks, names);
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
		goto out_disk;
	pr_info("virtio_blk %s: [%s] %llu 512-byte logical blocks, %s transport%s\n",
		vdev->dev.bus_id, vblk->disk->disk_name, (unsigned long long)vblk->disk->capacity,
		vdev->config->bus_name(vdev), vblk->disk->read_only ? ", read-only" : "");
	return 0;

out_disk:
	put_disk(vblk->disk);
out_vqs:
	vdev->config->reset(vdev); /* 1.x queues go only with a reset: else the next probe finds them enabled */
	vdev->config->del_vqs(vdev);
out_index:
	index_used &= ~(1ull << vblk->index);
out_free:
	kfree(vblk);
out:
	return err;
}

/* After a reset the device touches nothing: what it held will never complete. */
static void virtblk_fail_all(struct virtio_blk *vblk)
{
	struct virtblk_req *vbr;
	unsigned long flags = local_irq_save();

	while ((vbr = virtqueue_detach_unused_buf(vblk->vq)))
		virtblk_complete(vbr, -ENODEV);
	while (!list_empty(&vblk->pending)) {
		vbr = list_first_entry(&vblk->pending, struct virtblk_req, node);
		list_del_init(&vbr->node);
		virtblk_complete(vbr, -ENODEV);
	}
	local_irq_restore(flags);
}

static void virtblk_remove(struct virtio_device *vdev)
{
	struct virtio_blk *vblk = vdev->priv;

	del_gendisk(vblk->disk); /* no new I/O; the remove event */
	vdev->config->reset(vdev);
	cancel_work(&vblk->config_work); /* no interrupt after the reset: none queued again */
	virtblk_fail_all(vblk);
	vdev->config->del_vqs(vdev);
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

/* What we implement; anything else the device offers stays unacknowledged. */
static const unsigned int features[] = {
	VIRTIO_BLK_F_SIZE_MAX, VIRTIO_BLK_F_SEG_MAX, VIRTIO_BLK_F_RO, VIRTIO_BLK_F_BLK_SIZE,
	VIRTIO_BLK_F_FLUSH
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
