/*
 * misc.c: the misc class (Linux's drivers/char/misc.c): a device per small
 * driver that needs one character device, /sys/class/misc/NAME, dev 10:minor,
 * made with the newer class API.
 */
#include <kobold/miscdevice.h>

#include <kobold/err.h>
#include <kobold/errno.h>

static struct class *misc_class;
static u8 minors_used[256 / 8];

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
	return 0;
}

void misc_deregister(struct miscdevice *misc)
{
	if (IS_ERR_OR_NULL(misc->this_device))
		return;
	device_unregister(misc->this_device);
	misc->this_device = NULL;
	set_minor(misc->minor, false);
}

int misc_init(void)
{
	misc_class = class_create(THIS_MODULE, "misc");
	return IS_ERR(misc_class) ? (int)PTR_ERR(misc_class) : 0;
}
