/*
 * block_dev.c: block device nodes (Linux's fs/block_dev.c). Opening
 * /dev/vda finds the disk by its dev_t, holds it and pins its driver's
 * module; reads and writes at any byte offset become whole-sector
 * transfers through the block layer (blk_rw). A disk deleted under an open
 * file fails its I/O with -ENODEV; its memory goes at the last close.
 */
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define BLKDEV_MAX_SECTORS 2048 /* one direct transfer: 1 MiB */

static int blkdev_open(struct inode *inode, struct file *file)
{
	struct gendisk *disk = get_gendisk(inode->i_rdev);

	if (!disk)
		return -ENXIO;
	if (!try_module_get(disk->fops->owner)) {
		put_disk(disk);
		return -ENXIO;
	}
	file->private_data = disk;
	return 0;
}

static int blkdev_release(struct inode *inode, struct file *file)
{
	struct gendisk *disk = file->private_data;
	struct module *owner = disk->fops->owner;

	put_disk(disk); /* may free the disk: its fops pointer was read first */
	module_put(owner);
	return 0;
}

/* One partial sector through a bounce buffer: read, and for a write, modify and write back. */
static int rw_partial(struct gendisk *disk, enum req_op op, loff_t pos, char *buf, size_t n)
{
	u64 sector = (u64)pos / SECTOR_SIZE;
	size_t off = (size_t)(pos % SECTOR_SIZE);
	char *bounce = kmalloc(SECTOR_SIZE);
	int err;

	if (!bounce)
		return -ENOMEM;
	err = blk_rw(disk, REQ_OP_READ, sector, 1, bounce);
	if (!err && op == REQ_OP_READ)
		memcpy(buf, bounce + off, n);
	if (!err && op == REQ_OP_WRITE) {
		memcpy(bounce + off, buf, n);
		err = blk_rw(disk, REQ_OP_WRITE, sector, 1, bounce);
	}
	kfree(bounce);
	return err;
}

static ssize_t blkdev_rw(struct file *file, enum req_op op, char *buf, size_t n, loff_t *pos)
{
	struct gendisk *disk = file->private_data;
	loff_t end = (loff_t)get_capacity(disk) * SECTOR_SIZE;
	size_t done = 0;

	if (disk->dead)
		return -ENODEV;
	if (*pos >= end)
		return op == REQ_OP_WRITE && n ? -ENOSPC : 0;
	n = (size_t)min((loff_t)n, end - *pos);
	while (done < n) {
		size_t left = n - done, chunk;
		int err;

		if (*pos % SECTOR_SIZE == 0 && left >= SECTOR_SIZE) {
			chunk = min(left / SECTOR_SIZE, (size_t)BLKDEV_MAX_SECTORS) * SECTOR_SIZE;
			err = blk_rw(disk, op, (u64)*pos / SECTOR_SIZE, chunk / SECTOR_SIZE,
				     buf + done);
		} else {
			chunk = min(left, SECTOR_SIZE - (size_t)(*pos % SECTOR_SIZE));
			err = rw_partial(disk, op, *pos, buf + done, chunk);
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

const struct file_operations def_blk_fops = {
	.open = blkdev_open,
	.read = blkdev_read,
	.write = blkdev_write,
	.release = blkdev_release,
};
