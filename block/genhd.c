/*
 * genhd.c: disks and the block class. add_disk() registers a disk's class
 * device in the "block" class: /sys/class/block/NAME with dev, size, ro,
 * removable and uevent, a "device" link to the disk's parent device when it
 * has one, and a link /sys/block/NAME to it.
 *
 * History: in Linux 2.6.0-2.6.24 a gendisk was not a class device but a
 * kobject of its own in /sys/block (the article: the block class "currently
 * appears in /sys/block"). 2.6.25 made disks devices of the "block" class,
 * shown in /sys/class/block, and (without CONFIG_SYSFS_DEPRECATED) kept
 * /sys/block as a directory of links.
 * Kobold teaches the article's class API on disks too, so it has the layout
 * of 2.6.25 on: its class devices are directories (the article's era), so
 * the links read ../class/block/NAME where Linux's read ../devices/....
 */
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/genhd.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define MAX_MAJOR 255
#define DYNAMIC_MAJOR_FIRST 254 /* handed out downwards, as Linux does */
#define DYNAMIC_MAJOR_LAST 234

static const char *major_names[MAX_MAJOR + 1];
static LIST_HEAD(all_disks); /* under block_subsys.rwsem, as 2.6.10's disk list */
struct kset block_subsys;    /* /sys/block: a link per disk */

static struct gendisk *cdev_to_disk(struct class_device *cd)
{
	return container_of(cd, struct gendisk, cdev);
}

int register_blkdev(unsigned int major, const char *name)
{
	if (!name || !*name || major > MAX_MAJOR)
		return -EINVAL;
	if (major == 0) {
		for (major = DYNAMIC_MAJOR_FIRST; major >= DYNAMIC_MAJOR_LAST; major--)
			if (!major_names[major])
				break;
		if (major < DYNAMIC_MAJOR_LAST)
			return -EBUSY;
	} else if (major_names[major]) {
		return -EBUSY;
	}
	major_names[major] = name;
	return (int)major;
}

void unregister_blkdev(unsigned int major, const char *name)
{
	if (WARN(major > MAX_MAJOR || !major_names[major] || strcmp(major_names[major], name),
		 "unregister_blkdev: major %u is not %s's", major, name))
		return;
	major_names[major] = NULL;
}

static ssize_t size_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%llu\n",
			 (unsigned long long)cdev_to_disk(cd)->capacity);
}

static ssize_t ro_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", cdev_to_disk(cd)->read_only);
}

static ssize_t removable_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", cdev_to_disk(cd)->removable);
}

static struct class_device_attribute disk_attrs[] = {
	__ATTR(size, S_IRUGO, size_show, NULL),
	__ATTR(ro, S_IRUGO, ro_show, NULL),
	__ATTR(removable, S_IRUGO, removable_show, NULL),
	__ATTR_NULL,
};

/* queue/: Linux's request queue attributes (nr_requests is writable there, read-only here). */
static ssize_t nr_requests_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", cdev_to_disk(cd)->queue_depth);
}
static CLASS_DEVICE_ATTR(nr_requests, S_IRUGO, nr_requests_show, NULL);

static ssize_t max_sectors_kb_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", cdev_to_disk(cd)->max_sectors / 2);
}
static CLASS_DEVICE_ATTR(max_sectors_kb, S_IRUGO, max_sectors_kb_show, NULL);

/*
 * io_poll (Linux 4.4's): 1 makes waiters poll the driver for completions
 * instead of sleeping until its interrupt; -EINVAL where the driver cannot
 * poll. Any number is taken, not 0 meaning on, as Linux's queue_var_store.
 */
static ssize_t io_poll_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", cdev_to_disk(cd)->io_poll);
}

static ssize_t io_poll_store(struct class_device *cd, const char *buf, size_t count)
{
	struct gendisk *d = cdev_to_disk(cd);
	unsigned long long on;

	if (!d->fops->poll)
		return -EINVAL;
	if (kstrtoull(buf, 10, &on))
		return -EINVAL;
	d->io_poll = on != 0;
	return (ssize_t)count;
}
static CLASS_DEVICE_ATTR(io_poll, S_IRUGO | S_IWUSR, io_poll_show, io_poll_store);

static struct attribute *queue_attrs[] = {
	&class_device_attr_nr_requests.attr,
	&class_device_attr_max_sectors_kb.attr,
	&class_device_attr_io_poll.attr,
	NULL,
};

static const struct attribute_group queue_group = { .name = "queue", .attrs = queue_attrs };

/*
 * The article's hotplug callback: the block class adds the device node's
 * name (MAJOR and MINOR come from the class device's dev_t). DEVNAME is a
 * later key (2.6.31's block events); 2.6.15's disks sent none of their own.
 * DEVTYPE=disk is later too (2.6.25's; a partition's events say "partition").
 */
static int block_hotplug(struct class_device *cd, char **envp, int num_envp, char *buffer,
			 int buffer_size)
{
	struct gendisk *d = cdev_to_disk(cd);
	int i = 0, len = 0;

	if (add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len, "DEVNAME=%s",
				d->disk_name) ||
	    add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len, "DEVTYPE=disk"))
		return -ENOMEM;
	envp[i] = NULL;
	return 0;
}

/* The last reference to a disk is gone: its memory goes with it. */
static void disk_release(struct class_device *cd)
{
	kfree(cdev_to_disk(cd)->part);
	kfree(cdev_to_disk(cd));
}

struct class block_class = {
	.name = "block",
	.class_dev_attrs = disk_attrs,
	.hotplug = block_hotplug,
	.release = disk_release,
};

struct gendisk *alloc_disk(void)
{
	struct gendisk *d = kzalloc(sizeof(*d));

	if (d) {
		INIT_LIST_HEAD(&d->list);
		init_waitqueue_head(&d->wait);
		spin_lock_init(&d->queue_lock);
	}
	return d;
}

/*
 * The disk's class device is registered here, the article's way: from now
 * on (even if registering fails) its memory goes only through the block
 * class's release, at the last put_disk.
 */
/* A table that cannot be read leaves the disk whole, and says why. */
static void scan_partitions(struct gendisk *d)
{
	int err = rescan_partitions(d);

	if (err)
		pr_warn("%s: could not read the partition table: %s\n", d->disk_name,
			kstrerror(err));
}

int add_disk(struct gendisk *d)
{
	int err;

	if (!d->fops || !d->disk_name[0] || d->cdev.kobj.state != KOBJ_STATE_NONE ||
	    d->minors > DISK_MAX_PARTS)
		return -EINVAL;
	if (d->minors > 1 && !d->part) {
		d->part = kzalloc((size_t)d->minors * sizeof(*d->part));
		if (!d->part)
			return -ENOMEM;
	}
	d->cdev.class = &block_class;
	d->cdev.dev = d->driverfs_dev;
	d->cdev.devt = MKDEV(d->major, d->first_minor); /* its "dev" file and /dev node */
	strscpy(d->cdev.class_id, d->disk_name, sizeof(d->cdev.class_id));
	err = class_device_register(&d->cdev);
	if (err)
		return err;
	err = sysfs_create_group(&d->cdev.kobj, &queue_group);
	if (err)
		goto out_del;
	err = sysfs_create_link(&block_subsys.kobj, &d->cdev.kobj, d->disk_name);
	if (err)
		goto out_group;
	d->registered = true;
	down_write(&block_subsys.rwsem);
	list_add_tail(&d->list, &all_disks);
	up_write(&block_subsys.rwsem);
	pr_info("%s: %llu sectors (%llu KiB)%s\n", d->disk_name,
		(unsigned long long)d->capacity, (unsigned long long)d->capacity / 2,
		d->read_only ? ", read-only" : "");
	if (d->minors > 1)
		scan_partitions(d);
	return 0;

out_group:
	sysfs_remove_group(&d->cdev.kobj, &queue_group);
out_del:
	class_device_del(&d->cdev);
	return err;
}

/* Takes the disk out of sysfs; I/O from now on fails, the memory stays until put_disk. */
void del_gendisk(struct gendisk *d)
{
	if (WARN(!d->registered, "del_gendisk: %s is not added", d->disk_name))
		return;
	delete_partitions(d); /* children first: their remove events before the disk's */
	d->dead = true;
	wake_up(&d->wait); /* submitters waiting for room now fail with -ENODEV */
	d->registered = false;
	down_write(&block_subsys.rwsem);
	list_del_init(&d->list);
	up_write(&block_subsys.rwsem);
	sysfs_remove_link(&block_subsys.kobj, d->disk_name);
	sysfs_remove_group(&d->cdev.kobj, &queue_group);
	class_device_del(&d->cdev);
}

void put_disk(struct gendisk *d)
{
	if (!d)
		return;
	if (d->cdev.kobj.state == KOBJ_STATE_NONE)
		kfree(d); /* never added: no kobject owns it yet */
	else
		class_device_put(&d->cdev);
}

void set_disk_ro(struct gendisk *d, bool ro)
{
	d->read_only = ro;
}

struct gendisk *get_gendisk_by_name(const char *name)
{
	struct gendisk *d, *found = NULL;

	down_read(&block_subsys.rwsem);
	list_for_each_entry(d, &all_disks, list)
		if (strcmp(d->disk_name, name) == 0) {
			class_device_get(&d->cdev);
			found = d;
			break;
		}
	up_read(&block_subsys.rwsem);
	return found;
}

struct gendisk *get_gendisk(dev_t devt)
{
	struct gendisk *d, *found = NULL;

	down_read(&block_subsys.rwsem);
	list_for_each_entry(d, &all_disks, list)
		if (d->cdev.devt == devt) {
			class_device_get(&d->cdev);
			found = d;
			break;
		}
	up_read(&block_subsys.rwsem);
	return found;
}

/* fn runs with the list held for reading: it may sleep, not add or remove a disk. */
void blk_for_each_disk(void (*fn)(struct gendisk *disk, void *arg), void *arg)
{
	struct gendisk *d;

	down_read(&block_subsys.rwsem);
	list_for_each_entry(d, &all_disks, list)
		fn(d, arg);
	up_read(&block_subsys.rwsem);
}

int genhd_init(void)
{
	int err = class_register(&block_class);

	if (err)
		return err;
	kobject_set_name(&block_subsys.kobj, "block");
	block_subsys.hotplug_ops = &part_hotplug_ops; /* the partitions' events */
	err = kset_register(&block_subsys);
	if (err)
		class_unregister(&block_class);
	return err;
}
