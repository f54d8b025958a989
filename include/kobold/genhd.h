/*
 * genhd.h: partitions (Linux 2.6's struct hd_struct in <linux/genhd.h>) and
 * block devices by name, a disk or one of its partitions (struct block_device,
 * reduced). A partition is a kobject below its disk's directory, as in 2.6.
 */
#ifndef KOBOLD_GENHD_H
#define KOBOLD_GENHD_H

#include <kobold/blkdev.h>

#define DISK_MAX_PARTS 64

struct hd_struct {
	u64 start_sect;	      /* where it starts on the disk */
	u64 nr_sects;	      /* its size, in 512-byte sectors */
	int partno;	      /* vda<partno> */
	struct kobject kobj;  /* /sys/class/block/<disk>/<disk><partno> */
	struct gendisk *disk; /* pinned by the kobject's parent reference */
	/* 2.6.0's per-partition counters, counted as I/O is remapped */
	unsigned long reads, read_sectors, writes, write_sectors;
};

/*
 * Reads the disk's partition table and registers its partitions (add_disk
 * does it for a disk with minors > 1). -EBUSY if a partition is held (an
 * open attribute file, as Linux refuses while a partition is open).
 */
int rescan_partitions(struct gendisk *disk);
/* Unregisters every partition (del_gendisk does it first). */
void delete_partitions(struct gendisk *disk);
/* Partition n, or NULL. */
struct hd_struct *disk_get_part(struct gendisk *disk, int n);

/* The events of partitions (block_subsys's), set by genhd_init. */
extern struct kset_hotplug_ops part_hotplug_ops;

struct block_device {
	struct gendisk *bd_disk;   /* counted */
	struct hd_struct *bd_part; /* counted; NULL for the whole disk */
};

/* "vda" or "vda1": 0 with both counted, or -ENODEV. blkdev_put drops them. */
int blkdev_get_by_name(const char *name, struct block_device *bdev);
/* The same by number (a node's dev_t), as Linux's bdget: the disk or one of its partitions. */
int blkdev_get_by_dev(dev_t dev, struct block_device *bdev);
void blkdev_put(struct block_device *bdev);
u64 bdev_nr_sectors(const struct block_device *bdev);
/* blk_check and blk_rw on a disk or a partition (remapped and bounded). */
int bdev_check(struct block_device *bdev, enum req_op op, u64 sector, u64 count);
int bdev_rw(struct block_device *bdev, enum req_op op, u64 sector, u64 count, void *buf);
/*
 * The one place a partition's I/O becomes the disk's (2.6.0's
 * blk_partition_remap): bounded to the partition (-EINVAL past its end),
 * counted in its stat, and moved by its start.
 */
int blk_partition_remap(struct hd_struct *part, enum req_op op, u64 *sector, u64 count);

#endif
