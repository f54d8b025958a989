/*
 * partition.c: partitions as kobjects below their disk (Linux 2.6's
 * fs/partitions/check.c, its sysfs half): /sys/class/block/vda/vda1 with
 * partition, start, size, ro, dev, stat and uevent, a link
 * /sys/class/block/vda1 to it, and its own events (DEVTYPE=partition).
 * Also block devices by name (a disk or a partition) and the remap of a
 * partition's I/O onto its disk.
 */
#include <kobold/genhd.h>

#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "partitions/check.h"

static struct hd_struct *to_part(struct kobject *kobj)
{
	return container_of(kobj, struct hd_struct, kobj);
}

struct part_attribute {
	struct attribute attr;
	ssize_t (*show)(struct hd_struct *p, char *buf);
	ssize_t (*store)(struct hd_struct *p, const char *buf, size_t count);
};

static ssize_t part_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct part_attribute *pa = container_of(attr, struct part_attribute, attr);

	return pa->show ? pa->show(to_part(kobj), buf) : -EIO;
}

static ssize_t part_attr_store(struct kobject *kobj, struct attribute *attr, const char *buf,
			       size_t count)
{
	struct part_attribute *pa = container_of(attr, struct part_attribute, attr);

	return pa->store ? pa->store(to_part(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops part_sysfs_ops = {
	.show = part_attr_show,
	.store = part_attr_store,
};

/* The partition's number: the disk's major, the minor after the disk's by partno. */
static dev_t part_devt(const struct hd_struct *p)
{
	return MKDEV(p->disk->major, p->disk->first_minor + (unsigned int)p->partno);
}

static ssize_t part_dev_show(struct hd_struct *p, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u:%u\n", p->disk->major,
			 p->disk->first_minor + (unsigned int)p->partno);
}

static ssize_t part_start_show(struct hd_struct *p, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%llu\n", (unsigned long long)p->start_sect);
}

static ssize_t part_size_show(struct hd_struct *p, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%llu\n", (unsigned long long)p->nr_sects);
}

static ssize_t part_ro_show(struct hd_struct *p, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", p->disk->read_only);
}

static ssize_t part_partition_show(struct hd_struct *p, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", p->partno);
}

/* 2.6.0-2.6.24's four fields: reads, sectors read, writes, sectors written. */
static ssize_t part_stat_show(struct hd_struct *p, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%8lu %8lu %8lu %8lu\n", p->reads,
			 p->read_sectors, p->writes, p->write_sectors);
}

static ssize_t part_uevent_show(struct hd_struct *p, char *buf)
{
	return kobject_uevent_show(&p->kobj, buf);
}

static ssize_t part_uevent_store(struct hd_struct *p, const char *buf, size_t count)
{
	return kobject_uevent_store(&p->kobj, buf, count);
}

static struct part_attribute part_attrs[] = {
	__ATTR(dev, S_IRUGO, part_dev_show, NULL),
	__ATTR(partition, S_IRUGO, part_partition_show, NULL),
	__ATTR(ro, S_IRUGO, part_ro_show, NULL),
	__ATTR(size, S_IRUGO, part_size_show, NULL),
	__ATTR(start, S_IRUGO, part_start_show, NULL),
	__ATTR(stat, S_IRUGO, part_stat_show, NULL),
	__ATTR(uevent, S_IRUGO | S_IWUSR, part_uevent_show, part_uevent_store),
};

static struct attribute *part_default_attrs[] = {
	&part_attrs[0].attr,
	&part_attrs[1].attr,
	&part_attrs[2].attr,
	&part_attrs[3].attr,
	&part_attrs[4].attr,
	&part_attrs[5].attr,
	&part_attrs[6].attr,
	NULL,
};

static void part_release(struct kobject *kobj)
{
	kfree(to_part(kobj));
}

static struct kobj_type ktype_part = {
	.release = part_release,
	.sysfs_ops = &part_sysfs_ops,
	.default_attrs = part_default_attrs,
};

/* /sys/block's kset sends the partitions' events, named "block" as the disks'. */
static int part_hotplug_filter(struct kset *kset __unused, struct kobject *kobj)
{
	return get_ktype(kobj) == &ktype_part;
}

static const char *part_hotplug_name(struct kset *kset __unused, struct kobject *kobj __unused)
{
	return "block";
}

/* The disk's device first (2.6.10's block_hotplug gave a partition its disk's), then the node. */
static int part_hotplug(struct kset *kset __unused, struct kobject *kobj, char **envp,
			int num_envp, char *buffer, int buffer_size)
{
	struct hd_struct *p = to_part(kobj);
	unsigned int minor = p->disk->first_minor + (unsigned int)p->partno;
	int i = 0, len = 0, err = 0;

	if (p->disk->driverfs_dev)
		err = add_physdev_vars(p->disk->driverfs_dev, envp, num_envp, &i, buffer,
				       buffer_size, &len);
	if (!err)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "MAJOR=%u", p->disk->major);
	if (!err)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "MINOR=%u", minor);
	if (!err)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "DEVNAME=%s", kobject_name(&p->kobj));
	if (!err)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "DEVTYPE=partition");
	if (!err)
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "PARTN=%d", p->partno);
	return err;
}

struct kset_hotplug_ops part_hotplug_ops = {
	.filter = part_hotplug_filter,
	.name = part_hotplug_name,
	.hotplug = part_hotplug,
};

struct hd_struct *disk_get_part(struct gendisk *disk, int n)
{
	if (!disk->part || n < 1 || n >= disk->minors)
		return NULL;
	return disk->part[n];
}

/* vda -> vda1; a name ending in a digit takes a "p": nvme0n1 -> nvme0n1p1, as Linux. */
static int part_set_name(struct hd_struct *p)
{
	const char *d = p->disk->disk_name;
	size_t len = strlen(d);
	bool digit = len && d[len - 1] >= '0' && d[len - 1] <= '9';

	return kobject_set_name(&p->kobj, "%s%s%d", d, digit ? "p" : "", p->partno);
}

static int add_partition(struct gendisk *disk, int n, u64 start, u64 size)
{
	struct hd_struct *p = kzalloc(sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	p->disk = disk;
	p->partno = n;
	p->start_sect = start;
	p->nr_sects = size;
	p->kobj.ktype = &ktype_part;
	p->kobj.kset = &block_subsys;
	p->kobj.parent = &disk->cdev.kobj;
	kobject_init(&p->kobj);
	err = part_set_name(p) ?: kobject_add(&p->kobj);
	if (err)
		goto out_put;
	err = sysfs_create_link(&block_class.subsys.kobj, &p->kobj, kobject_name(&p->kobj));
	if (err)
		goto out_del;
	disk->part[n] = p;
	/* as a disk's: the node exists before the event is sent */
	devtmpfs_create_node(kobject_name(&p->kobj), S_IFBLK | 0600, part_devt(p));
	kobject_hotplug(&p->kobj, KOBJ_ADD);
	return 0;

out_del:
	kobject_del(&p->kobj);
out_put:
	kobject_put(&p->kobj);
	return err;
}

static void delete_partition(struct gendisk *disk, int n)
{
	struct hd_struct *p = disk->part[n];

	disk->part[n] = NULL;
	devtmpfs_delete_node(kobject_name(&p->kobj), part_devt(p));
	kobject_hotplug(&p->kobj, KOBJ_REMOVE);
	sysfs_remove_link(&block_class.subsys.kobj, kobject_name(&p->kobj));
	kobject_del(&p->kobj);
	kobject_put(&p->kobj);
}

void delete_partitions(struct gendisk *disk)
{
	for (int n = disk->minors - 1; disk->part && n >= 1; n--)
		if (disk->part[n])
			delete_partition(disk, n);
}

/* Held beyond its registration: an open attribute file, or a caller's blkdev_get. */
static bool partitions_busy(struct gendisk *disk)
{
	for (int n = 1; disk->part && n < disk->minors; n++)
		if (disk->part[n] && kobject_refcount(&disk->part[n]->kobj) > 1)
			return true;
	return false;
}

static int read_disk_sector(void *data, u64 sector, u8 *buf)
{
	return blk_rw(data, REQ_OP_READ, sector, 1, buf);
}

int rescan_partitions(struct gendisk *disk)
{
	struct parsed_partitions *state;
	int ret;

	if (disk->minors <= 1 || !disk->part || !disk->registered)
		return -EINVAL;
	if (partitions_busy(disk))
		return -EBUSY;
	state = kzalloc(sizeof(*state));
	if (!state)
		return -ENOMEM;
	delete_partitions(disk);
	*state = (struct parsed_partitions){
		.name = disk->disk_name,
		.capacity = disk->capacity,
		.limit = disk->minors,
		.read_sector = read_disk_sector,
		.data = disk,
	};
	ret = check_partition(state);
	for (int n = 1; ret > 0 && n < disk->minors && n < PARSED_MAX_PARTS; n++)
		if (state->parts[n].size &&
		    add_partition(disk, n, state->parts[n].from, state->parts[n].size))
			pr_err("%s: partition %d not registered\n", disk->disk_name, n);
	kfree(state);
	return ret < 0 ? ret : 0;
}

int blk_partition_remap(struct hd_struct *p, enum req_op op, u64 *sector, u64 count)
{
	if (op == REQ_OP_FLUSH)
		return 0; /* a flush is the whole disk's */
	if (count == 0 || *sector >= p->nr_sects || count > p->nr_sects - *sector)
		return -EINVAL;
	if (op == REQ_OP_READ) {
		p->reads++;
		p->read_sectors += (unsigned long)count;
	} else {
		p->writes++;
		p->write_sectors += (unsigned long)count;
	}
	*sector += p->start_sect;
	return 0;
}

struct find_part {
	const char *name;
	struct block_device *bdev;
};

static void find_part_in(struct gendisk *disk, void *arg)
{
	struct find_part *f = arg;

	for (int n = 1; disk->part && n < disk->minors && !f->bdev->bd_disk; n++) {
		struct hd_struct *p = disk->part[n];

		if (p && strcmp(kobject_name(&p->kobj), f->name) == 0) {
			f->bdev->bd_disk = disk;
			class_device_get(&disk->cdev); /* the walk holds the disk list */
			f->bdev->bd_part = p;
			kobject_get(&p->kobj);
		}
	}
}

int blkdev_get_by_name(const char *name, struct block_device *bdev)
{
	struct find_part f = { name, bdev };

	bdev->bd_part = NULL;
	bdev->bd_disk = get_gendisk_by_name(name);
	if (!bdev->bd_disk)
		blk_for_each_disk(find_part_in, &f);
	return bdev->bd_disk ? 0 : -ENODEV;
}

struct find_dev {
	dev_t dev;
	struct block_device *bdev;
};

static void find_dev_in(struct gendisk *disk, void *arg)
{
	struct find_dev *f = arg;
	unsigned int minor = MINOR(f->dev), n = minor - disk->first_minor;
	unsigned int span = disk->minors > 1 ? (unsigned int)disk->minors : 1; /* sbd leaves it 0 */
	struct hd_struct *p;

	if (f->bdev->bd_disk || MAJOR(f->dev) != disk->major || minor < disk->first_minor ||
	    n >= span)
		return;
	p = n && disk->part ? disk->part[n] : NULL;
	if (n && !p)
		return; /* a number the disk holds for a partition it does not have */
	f->bdev->bd_disk = disk;
	class_device_get(&disk->cdev); /* the walk holds the disk list */
	f->bdev->bd_part = p;
	if (p)
		kobject_get(&p->kobj);
}

int blkdev_get_by_dev(dev_t dev, struct block_device *bdev)
{
	struct find_dev f = { dev, bdev };

	bdev->bd_part = NULL;
	bdev->bd_disk = NULL;
	blk_for_each_disk(find_dev_in, &f);
	return bdev->bd_disk ? 0 : -ENODEV;
}

void blkdev_put(struct block_device *bdev)
{
	if (bdev->bd_part)
		kobject_put(&bdev->bd_part->kobj);
	put_disk(bdev->bd_disk);
	bdev->bd_part = NULL;
	bdev->bd_disk = NULL;
}

u64 bdev_nr_sectors(const struct block_device *bdev)
{
	return bdev->bd_part ? bdev->bd_part->nr_sects : bdev->bd_disk->capacity;
}

int bdev_check(struct block_device *bdev, enum req_op op, u64 sector, u64 count)
{
	struct hd_struct *p = bdev->bd_part;

	if (p && op != REQ_OP_FLUSH &&
	    (count == 0 || sector >= p->nr_sects || count > p->nr_sects - sector))
		return -EINVAL;
	return blk_check(bdev->bd_disk, op, p ? sector + p->start_sect : sector, count);
}

int bdev_rw(struct block_device *bdev, enum req_op op, u64 sector, u64 count, void *buf)
{
	int err = 0;

	if (bdev->bd_part)
		err = blk_partition_remap(bdev->bd_part, op, &sector, count);
	return err ?: blk_rw(bdev->bd_disk, op, sector, count, buf);
}
