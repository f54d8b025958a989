/*
 * sbd.c: the simple block driver of the LWN article, a RAM disk: nr disks
 * of size KiB each. It registers a class of its own, "sbd", with a release
 * and a hotplug callback, and a class device sbdN per disk exporting the
 * driver's version and a writable "ro"; the disk itself goes into the block
 * class through add_disk. Memory is freed only in the release function.
 */
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define SBD_VERSION "1.0"
#define SBD_MAX_DISKS 16
#define SBD_MAX_KIB (64 * 1024)

static int nr = 1;
module_param(nr, int, "number of RAM disks (0-16)");
static int size = 4096;
module_param(size, int, "size of each RAM disk in KiB");

struct sbd_device {
	struct class_device cdev; /* /sys/class/sbd/sbdN */
	struct gendisk *disk;	  /* /sys/class/block/sbdN */
	u8 *data;
	unsigned long bytes;
};

static int sbd_major;
static struct sbd_device *devices[SBD_MAX_DISKS];

static struct sbd_device *to_sbd(struct class_device *cd)
{
	return container_of(cd, struct sbd_device, cdev);
}

/* The driver's I/O: a memcpy, completed at once. */
static int sbd_submit(struct gendisk *disk, struct request *rq)
{
	struct sbd_device *dev = disk->private_data;
	size_t off = (size_t)rq->sector * SECTOR_SIZE, len = rq->nr_sectors * SECTOR_SIZE;

	if (rq->op == REQ_OP_READ)
		memcpy(rq->buffer, dev->data + off, len);
	else if (rq->op == REQ_OP_WRITE)
		memcpy(dev->data + off, rq->buffer, len);
	blk_end_request(rq, 0);
	return 0;
}

static const struct block_device_operations sbd_fops = {
	.owner = THIS_MODULE,
	.submit = sbd_submit,
};

static ssize_t version_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", SBD_VERSION);
}
static CLASS_DEVICE_ATTR(version, S_IRUGO, version_show, NULL);

static ssize_t ro_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", to_sbd(cd)->disk->read_only);
}

static ssize_t ro_store(struct class_device *cd, const char *buf, size_t count)
{
	if (sysfs_streq(buf, "0"))
		set_disk_ro(to_sbd(cd)->disk, false);
	else if (sysfs_streq(buf, "1"))
		set_disk_ro(to_sbd(cd)->disk, true);
	else
		return -EINVAL;
	return (ssize_t)count;
}
static CLASS_DEVICE_ATTR(ro, S_IRUGO | S_IWUSR, ro_show, ro_store);

/* The article's hotplug callback: one variable of the driver's own. */
static int sbd_hotplug(struct class_device *cd, char **envp, int num_envp, char *buffer,
		       int buffer_size)
{
	int i = 0, len = 0;

	if (add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				"SBD_SIZE_KB=%lu", to_sbd(cd)->bytes / 1024))
		return -ENOMEM;
	envp[i] = NULL;
	return 0;
}

static void sbd_free(struct sbd_device *dev)
{
	kfree(dev->data);
	put_disk(dev->disk);
	kfree(dev);
}

/* The last reference to sbdN is gone (maybe long after rmmod): free it all. */
static void sbd_release(struct class_device *cd)
{
	sbd_free(to_sbd(cd));
}

static struct class sbd_class = {
	.name = "sbd",
	.owner = THIS_MODULE,
	.release = sbd_release,
	.hotplug = sbd_hotplug,
};

static int sbd_setup_disk(struct sbd_device *dev, int index)
{
	struct gendisk *disk = alloc_disk();

	if (!disk)
		return -ENOMEM;
	dev->disk = disk;
	disk->major = (unsigned int)sbd_major;
	disk->first_minor = (unsigned int)index;
	disk->fops = &sbd_fops;
	disk->private_data = dev;
	scnprintf(disk->disk_name, sizeof(disk->disk_name), "sbd%d", index);
	set_capacity(disk, dev->bytes / SECTOR_SIZE);
	return add_disk(disk);
}

/* One block per file, so that a lab's new attribute is a block of its own. */
static int sbd_create_files(struct sbd_device *dev)
{
	int err;

	err = class_device_create_file(&dev->cdev, &class_device_attr_version);
	if (err)
		return err;
	err = class_device_create_file(&dev->cdev, &class_device_attr_ro);
	if (err)
		return err;
	return 0;
}

static int sbd_add(int index)
{
	struct sbd_device *dev = kzalloc(sizeof(*dev));
	int err;

	if (!dev)
		return -ENOMEM;
	dev->bytes = (unsigned long)size * 1024;
	dev->data = kzalloc(dev->bytes);
	err = dev->data ? sbd_setup_disk(dev, index) : -ENOMEM;
	if (err) {
		sbd_free(dev); /* nothing is registered yet */
		return err;
	}
	dev->cdev.class = &sbd_class;
	scnprintf(dev->cdev.class_id, BUS_ID_SIZE, "sbd%d", index);
	err = class_device_register(&dev->cdev); /* from here on, only sbd_release frees */
	if (err)
		goto out_put;
	err = sbd_create_files(dev);
	if (err)
		goto out_del;
	devices[index] = dev;
	return 0;
out_del:
	class_device_del(&dev->cdev);
out_put:
	del_gendisk(dev->disk);
	class_device_put(&dev->cdev);
	return err;
}

static void sbd_remove(int index)
{
	struct sbd_device *dev = devices[index];

	devices[index] = NULL;
	del_gendisk(dev->disk);
	class_device_unregister(&dev->cdev); /* attributes go with it */
}

static void sbd_remove_all(void)
{
	for (int i = SBD_MAX_DISKS - 1; i >= 0; i--)
		if (devices[i])
			sbd_remove(i);
}

static int sbd_init(void)
{
	int err;

	if (nr < 0 || nr > SBD_MAX_DISKS || size <= 0 || size > SBD_MAX_KIB) {
		pr_err("sbd: nr must be 0-%d and size 1-%d KiB (nr=%d size=%d)\n",
		       SBD_MAX_DISKS, SBD_MAX_KIB, nr, size);
		return -EINVAL;
	}
	sbd_major = register_blkdev(0, "sbd");
	if (sbd_major < 0)
		return sbd_major;
	err = class_register(&sbd_class);
	if (err)
		goto out_blkdev;
	for (int i = 0; i < nr; i++) {
		err = sbd_add(i);
		if (err)
			goto out_devices;
	}
	pr_info("sbd: %d disk%s of %d KiB, major %d\n", nr, nr == 1 ? "" : "s", size, sbd_major);
	return 0;
out_devices:
	sbd_remove_all();
	class_unregister(&sbd_class);
out_blkdev:
	unregister_blkdev((unsigned int)sbd_major, "sbd");
	return err;
}

static void sbd_exit(void)
{
	sbd_remove_all();
	class_unregister(&sbd_class);
	unregister_blkdev((unsigned int)sbd_major, "sbd");
}

module_init(sbd_init);
module_exit(sbd_exit);
