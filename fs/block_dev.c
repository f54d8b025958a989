/*
 * block_dev.c: block device nodes (Linux's fs/block_dev.c). Opening
 * /dev/vda or /dev/vda1 finds the disk, and the partition, by the node's
 * dev_t, holds them and pins the driver's module; reads and writes at any
 * byte offset become whole-sector transfers through the block layer
 * (bdev_rw: a partition's are bounded to it and moved by its start). Asynchronous reads and writes
 * (aio_read, aio_write: whole sectors only) go out as requests through
 * blk_submit and complete from the disk's interrupt. A disk deleted under
 * an open file fails its I/O with -ENODEV; its memory goes at the last close.
 */
#include <kobold/aio.h>
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/genhd.h>
#include <kobold/irqflags.h>
#include <kobold/module.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define BLKDEV_MAX_SECTORS 2048 /* one direct transfer: 1 MiB */

static int blkdev_open(struct inode *inode, struct file *file)
{
	struct block_device *bdev = kmalloc(sizeof(*bdev));

	if (!bdev)
		return -ENOMEM;
	if (blkdev_get_by_dev(inode->i_rdev, bdev)) {
		kfree(bdev);
		return -ENXIO;
	}
	if (!try_module_get(bdev->bd_disk->fops->owner)) {
		blkdev_put(bdev);
		kfree(bdev);
		return -ENXIO;
	}
	file->private_data = bdev;
	return 0;
}

static int blkdev_release(struct inode *inode, struct file *file)
{
	struct block_device *bdev = file->private_data;
	struct module *owner = bdev->bd_disk->fops->owner;

	blkdev_put(bdev); /* may free the disk: its fops pointer was read first */
	kfree(bdev);
	module_put(owner);
	return 0;
}

/* One partial sector through a bounce buffer: read, and for a write, modify and write back. */
static int rw_partial(struct block_device *bdev, enum req_op op, loff_t pos, char *buf, size_t n)
{
	u64 sector = (u64)pos / SECTOR_SIZE;
	size_t off = (size_t)(pos % SECTOR_SIZE);
	char *bounce = kmalloc(SECTOR_SIZE);
	int err;

	if (!bounce)
		return -ENOMEM;
	err = bdev_rw(bdev, REQ_OP_READ, sector, 1, bounce);
	if (!err && op == REQ_OP_READ)
		memcpy(buf, bounce + off, n);
	if (!err && op == REQ_OP_WRITE) {
		memcpy(bounce + off, buf, n);
		err = bdev_rw(bdev, REQ_OP_WRITE, sector, 1, bounce);
	}
	kfree(bounce);
	return err;
}

static ssize_t blkdev_rw(struct file *file, enum req_op op, char *buf, size_t n, loff_t *pos)
{
	struct block_device *bdev = file->private_data;
	loff_t end = (loff_t)bdev_nr_sectors(bdev) * SECTOR_SIZE;
	size_t done = 0;

	if (bdev->bd_disk->dead)
		return -ENODEV;
	if (*pos >= end)
		return op == REQ_OP_WRITE && n ? -ENOSPC : 0;
	n = (size_t)min((loff_t)n, end - *pos);
	while (done < n) {
		size_t left = n - done, chunk;
		int err;

		if (*pos % SECTOR_SIZE == 0 && left >= SECTOR_SIZE) {
			chunk = min(left / SECTOR_SIZE, (size_t)BLKDEV_MAX_SECTORS) * SECTOR_SIZE;
			err = bdev_rw(bdev, op, (u64)*pos / SECTOR_SIZE, chunk / SECTOR_SIZE,
				      buf + done);
		} else {
			chunk = min(left, SECTOR_SIZE - (size_t)(*pos % SECTOR_SIZE));
			err = rw_partial(bdev, op, *pos, buf + done, chunk);
		}
		if (err)
			return done ? (ssize_t)done : err;
		done += chunk;
		*pos += (loff_t)chunk;
	}
	return (ssize_t)done;
}

static ssize_t blkdev_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	return blkdev_rw(file, REQ_OP_READ, buf, n, pos);
}

static ssize_t blkdev_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	return blkdev_rw(file, REQ_OP_WRITE, (char *)buf, n, pos);
}

/* Ends nr of the kiocb's requests; the last one completes the kiocb. */
static void blkdev_aio_put(struct kiocb *iocb, unsigned int nr, int error)
{
	unsigned long flags = local_irq_save(); /* the interrupt ends requests too */
	bool last;

	if (error && !iocb->ki_error)
		iocb->ki_error = error;
	iocb->ki_pending -= nr;
	last = !iocb->ki_pending;
	local_irq_restore(flags);
	if (!last)
		return;
	if (iocb->ki_rqs != iocb->ki_rq)
		kfree(iocb->ki_rqs);
	iocb->ki_complete(iocb, iocb->ki_error ? iocb->ki_error : (ssize_t)iocb->ki_nbytes);
}

static void blkdev_aio_end_io(struct request *rq)
{
	blkdev_aio_put(rq->end_io_data, 1, rq->error);
}

/* The kiocb's requests, max_sectors each, in the kiocb or in an array of their own. */
static int blkdev_aio_alloc(struct kiocb *iocb, struct gendisk *disk, size_t n)
{
	u32 max = disk->max_sectors ? disk->max_sectors : BLKDEV_MAX_SECTORS;
	u32 sectors = (u32)(n / SECTOR_SIZE); /* size_t: 32-bit division, not a libgcc call */
	unsigned int nr = (sectors + max - 1) / max;

	iocb->ki_rqs = iocb->ki_rq;
	if (nr > KIOCB_INLINE_RQS)
		iocb->ki_rqs = kmalloc(nr * sizeof(struct request));
	if (!iocb->ki_rqs)
		return -ENOMEM;
	memset(iocb->ki_rqs, 0, nr * sizeof(struct request));
	for (unsigned int i = 0; i < nr; i++) {
		iocb->ki_rqs[i].nr_sectors = min(sectors - i * max, max);
		iocb->ki_rqs[i].disk = disk;
	}
	return (int)nr;
}

static ssize_t blkdev_aio_rw(struct kiocb *iocb, enum req_op op, char *buf, size_t n, loff_t pos)
{
	struct block_device *bdev = iocb->ki_filp->private_data;
	struct gendisk *disk = bdev->bd_disk;
	loff_t end = (loff_t)bdev_nr_sectors(bdev) * SECTOR_SIZE;
	u64 sector = (u64)pos / SECTOR_SIZE;
	int nr, i, err;

	if (disk->dead)
		return -ENODEV;
	if (pos < 0 || pos % SECTOR_SIZE || n % SECTOR_SIZE)
		return -EINVAL; /* as O_DIRECT: whole sectors */
	if (pos >= end || !n)
		return op == REQ_OP_WRITE && n ? -ENOSPC : 0;
	n = (size_t)min((loff_t)n, end - pos);
	if (bdev->bd_part) { /* the whole transfer moved and counted once */
		err = blk_partition_remap(bdev->bd_part, op, &sector, n / SECTOR_SIZE);
		if (err)
			return err;
	}
	nr = blkdev_aio_alloc(iocb, disk, n);
	if (nr < 0)
		return nr;
	iocb->ki_nbytes = n;
	iocb->ki_pending = (unsigned int)nr + 1; /* and ours: no completion while we submit */
	iocb->ki_error = 0;
	for (i = 0; i < nr; i++) {
		struct request *rq = &iocb->ki_rqs[i];

		rq->op = op;
		rq->sector = sector;
		rq->buffer = buf;
		rq->end_io = blkdev_aio_end_io;
		rq->end_io_data = iocb;
		sector += rq->nr_sectors;
		buf += rq->nr_sectors * SECTOR_SIZE;
		rq->more = i + 1 < nr || iocb->ki_more; /* one notification for the pieces */
		blk_submit(rq);				/* a refusal ends rq at once, with its error */
		if (rq->done && rq->error)
			break;
	}
	/* Ours, and the pieces after a refusal, which never went out. */
	blkdev_aio_put(iocb, 1 + (unsigned int)(i < nr ? nr - i - 1 : 0), 0);
	return -EIOCBQUEUED;
}

static ssize_t blkdev_aio_read(struct kiocb *iocb, char *buf, size_t n, loff_t pos)
{
	return blkdev_aio_rw(iocb, REQ_OP_READ, buf, n, pos);
}

static ssize_t blkdev_aio_write(struct kiocb *iocb, const char *buf, size_t n, loff_t pos)
{
	return blkdev_aio_rw(iocb, REQ_OP_WRITE, (char *)buf, n, pos);
}

static void blkdev_aio_commit(struct file *file)
{
	struct block_device *bdev = file->private_data;

	blk_commit(bdev->bd_disk);
}

const struct file_operations def_blk_fops = {
	.open = blkdev_open,
	.read = blkdev_read,
	.write = blkdev_write,
	.aio_read = blkdev_aio_read,
	.aio_write = blkdev_aio_write,
	.aio_commit = blkdev_aio_commit,
	.release = blkdev_release,
};
