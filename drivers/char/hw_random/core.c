/*
 * core.c: the hardware RNG core (Linux's drivers/char/hw_random/core.c): the
 * misc device hw_random (10:183) exists while a source is registered; its
 * rng_available lists the sources and rng_current names the one read.
 */
#include <kobold/hw_random.h>

#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/miscdevice.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

#define EARLY_BYTES 16 /* as Linux's add_early_randomness, read at registration */

static LIST_HEAD(rng_list);
static struct hwrng *current_rng;

static ssize_t rng_current_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", current_rng ? current_rng->name : "none");
}

/* As Linux: a name from rng_available; the newline echo adds is not part of it. */
static ssize_t rng_current_store(struct device *dev, struct device_attribute *attr,
				 const char *buf, size_t count)
{
	size_t len = count && buf[count - 1] == '\n' ? count - 1 : count;
	struct hwrng *rng;

	list_for_each_entry(rng, &rng_list, list)
		if (strlen(rng->name) == len && memcmp(rng->name, buf, len) == 0) {
			current_rng = rng;
			return (ssize_t)count;
		}
	return -ENODEV;
}
static DEVICE_ATTR_RW(rng_current);

static ssize_t rng_available_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct hwrng *rng;
	int n = 0;

	list_for_each_entry(rng, &rng_list, list)
		n += sysfs_emit_at(buf, n, "%s%s", n ? " " : "", rng->name);
	return n + sysfs_emit_at(buf, n, "\n");
}
static DEVICE_ATTR_RO(rng_available);

static struct attribute *rng_dev_attrs[] = { &dev_attr_rng_current.attr,
					     &dev_attr_rng_available.attr, NULL };
ATTRIBUTE_GROUPS(rng_dev);

/* /dev/hwrng: each read returns what the current source gives (up to 64 bytes a call). */
static ssize_t rng_dev_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	return hwrng_read(buf, n);
}

static const struct file_operations rng_chrdev_ops = { .read = rng_dev_read };

static struct miscdevice rng_miscdev = {
	.minor = HWRNG_MINOR,
	.name = "hw_random",
	.nodename = "hwrng",
	.fops = &rng_chrdev_ops,
	.groups = rng_dev_groups,
};

int hwrng_read(void *buf, size_t len)
{
	if (!current_rng)
		return -ENODEV;
	return current_rng->read(current_rng, buf, len, true);
}

int hwrng_register(struct hwrng *rng)
{
	u8 early[EARLY_BYTES];
	int err;

	if (!rng->name || !rng->read)
		return -EINVAL;
	if (list_empty(&rng_list)) {
		err = misc_register(&rng_miscdev);
		if (err)
			return err;
	}
	list_add_tail(&rng->list, &rng_list);
	if (!current_rng)
		current_rng = rng;
	err = rng->read(rng, early, sizeof(early), true);
	devmodel_trace("hwrng_register", rng->name, err > 0 ? "early bytes read" : "no bytes");
	return 0;
}

void hwrng_unregister(struct hwrng *rng)
{
	list_del_init(&rng->list);
	if (current_rng == rng)
		current_rng = list_empty(&rng_list) ? NULL : list_first_entry(&rng_list, struct hwrng, list);
	if (list_empty(&rng_list))
		misc_deregister(&rng_miscdev);
}
