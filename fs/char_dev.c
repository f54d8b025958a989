/*
 * char_dev.c: character device numbers (Linux's fs/char_dev.c). A driver
 * registers a range of major:minor numbers with its file_operations; opening
 * a char node finds the range by the node's i_rdev and hands the file to the
 * driver's operations, pinning the driver's module until the last close.
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define CHRDEV_MAJOR_MAX 255
#define CHRDEV_DYNAMIC_FIRST 254 /* handed out downwards, as Linux does */
#define CHRDEV_DYNAMIC_LAST 234

static LIST_HEAD(cdev_map);
static struct {
	const char *name;
	struct cdev *cdev;
} chrdevs[CHRDEV_MAJOR_MAX + 1];

void cdev_init(struct cdev *cdev, const struct file_operations *fops)
{
	memset(cdev, 0, sizeof(*cdev));
	INIT_LIST_HEAD(&cdev->list);
	cdev->ops = fops;
}

static bool overlaps(dev_t a, unsigned int na, dev_t b, unsigned int nb)
{
	return a < b + nb && b < a + na;
}

int cdev_add(struct cdev *cdev, dev_t dev, unsigned int count)
{
	struct cdev *p;

	if (!count)
		return -EINVAL;
	list_for_each_entry(p, &cdev_map, list)
		if (overlaps(p->dev, p->count, dev, count))
			return -EBUSY;
	cdev->dev = dev;
	cdev->count = count;
	list_add_tail(&cdev->list, &cdev_map);
	return 0;
}

void cdev_del(struct cdev *cdev)
{
	list_del_init(&cdev->list);
}

static struct cdev *cdev_lookup(dev_t dev)
{
	struct cdev *p;

	list_for_each_entry(p, &cdev_map, list)
		if (dev >= p->dev && dev < p->dev + p->count)
			return p;
	return NULL;
}

static int find_free_major(void)
{
	for (unsigned int m = CHRDEV_DYNAMIC_FIRST; m >= CHRDEV_DYNAMIC_LAST; m--)
		if (!chrdevs[m].name)
			return (int)m;
	return -EBUSY;
}

int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops)
{
	struct cdev *cdev;
	int err;

	if (!name || !*name || major > CHRDEV_MAJOR_MAX)
		return -EINVAL;
	if (major == 0 && (err = find_free_major()) < 0)
		return err;
	major = major ? major : (unsigned int)err;
	if (chrdevs[major].name)
		return -EBUSY;
	cdev = kzalloc(sizeof(*cdev));
	if (!cdev)
		return -ENOMEM;
	cdev_init(cdev, fops);
	err = cdev_add(cdev, MKDEV(major, 0), 256);
	if (err) {
		kfree(cdev);
		return err;
	}
	chrdevs[major].name = name;
	chrdevs[major].cdev = cdev;
	return (int)major;
}

void unregister_chrdev(unsigned int major, const char *name)
{
	if (WARN(major > CHRDEV_MAJOR_MAX || !chrdevs[major].name ||
			 strcmp(chrdevs[major].name, name),
		 "unregister_chrdev: major %u is not %s's", major, name))
		return;
	cdev_del(chrdevs[major].cdev);
	kfree(chrdevs[major].cdev);
	chrdevs[major].name = NULL;
	chrdevs[major].cdev = NULL;
}

const char *chrdev_name(unsigned int major)
{
	return major <= CHRDEV_MAJOR_MAX ? chrdevs[major].name : NULL;
}

/*
 * The node's open: the file takes the driver's operations (whose open may
 * choose others by minor, as mem's does) and pins the driver's module.
 */
static int chrdev_open(struct inode *inode, struct file *file)
{
	const struct file_operations *def = file->f_op, *fops;
	struct cdev *p = cdev_lookup(inode->i_rdev);
	int err;

	if (!p)
		return -ENXIO;
	fops = p->ops;
	if (!try_module_get(fops->owner))
		return -ENXIO;
	file->f_op = fops;
	err = fops->open ? fops->open(inode, file) : 0;
	if (err) {
		file->f_op = def;
		module_put(fops->owner);
		return err;
	}
	module_put(def->owner);
	return 0;
}

const struct file_operations def_chr_fops = {
	.open = chrdev_open,
};
