/*
 * misc.c: the misc class (Linux's drivers/char/misc.c): a device per small
 * driver that needs one character device, /sys/class/misc/NAME, dev 10:minor,
 * made with the newer class API.
 */
#include <kobold/miscdevice.h>

#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/slab.h>

static struct class *misc_class;
static u8 minors_used[256 / 8];
static LIST_HEAD(misc_list);

/*
 * The major's open, as Linux's misc_open: the registered device's operations
 * take over, their module pinned for the open file (the close puts it) and
 * the old operations' let go; a failed open puts things back.
 */
static int misc_open(struct inode *inode, struct file *file)
{
	const struct file_operations *old = file->f_op;
	struct miscdevice *m;
	int err;

	list_for_each_entry(m, &misc_list, list) {
		if (m->minor != (int)MINOR(inode->i_rdev) || !m->fops)
			continue;
		if (!try_module_get(m->fops->owner))
			return -ENODEV;
		file->f_op = m->fops;
		err = file->f_op->open ? file->f_op->open(inode, file) : 0;
		if (err) {
			module_put(m->fops->owner);
			file->f_op = old;
			return err;
		}
		module_put(old->owner);
		return 0;
	}
	return -ENODEV;
}

static const struct file_operations misc_fops = { .open = misc_open };

static char *misc_devnode(struct device *dev, umode_t *mode)
{
	struct miscdevice *m = dev_get_drvdata(dev);

	return m && m->nodename ? kstrdup(m->nodename) : NULL;
}

static bool minor_taken(int minor)
{
	return minors_used[minor / 8] & (1u << (minor % 8));
}

static void set_minor(int minor, bool on)
{
	if (on)
		minors_used[minor / 8] |= (u8)(1u << (minor % 8));
	else
		minors_used[minor / 8] &= (u8) ~(1u << (minor % 8));
}

int misc_register(struct miscdevice *misc)
{
	struct device *dev;

	if (misc->minor < 0 || misc->minor > 255 || !misc->name)
		return -EINVAL;
	if (minor_taken(misc->minor))
		return -EBUSY;
	dev = device_create_with_groups(misc_class, misc->parent, MKDEV(MISC_MAJOR, misc->minor),
					misc, misc->groups, "%s", misc->name);
	if (IS_ERR(dev))
		return (int)PTR_ERR(dev);
	misc->this_device = dev;
	set_minor(misc->minor, true);
	list_add_tail(&misc->list, &misc_list);
	return 0;
}

void misc_deregister(struct miscdevice *misc)
{
	if (IS_ERR_OR_NULL(misc->this_device))
		return;
	list_del_init(&misc->list);
	device_unregister(misc->this_device);
	misc->this_device = NULL;
	set_minor(misc->minor, false);
}

int misc_init(void)
{
	int err = register_chrdev(MISC_MAJOR, "misc", &misc_fops);
	struct class *cls;

	if (err < 0)
		return err;
	cls = class_create(THIS_MODULE, "misc");
	if (IS_ERR(cls)) { /* misc_class stays NULL: devices register without a class */
		unregister_chrdev(MISC_MAJOR, "misc");
		return (int)PTR_ERR(cls);
	}
	misc_class = cls;
	misc_class->devnode = misc_devnode;
	return 0;
}
