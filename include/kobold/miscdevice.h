/* miscdevice.h: the misc class (Linux's <linux/miscdevice.h>): small character devices on major 10. */
#ifndef KOBOLD_MISCDEVICE_H
#define KOBOLD_MISCDEVICE_H

#include <kobold/device.h>
#include <kobold/list.h>

#define MISC_MAJOR 10
#define HWRNG_MINOR 183 /* Linux's devices.txt: /dev/hwrng */

struct file_operations;

struct miscdevice {
	int minor;
	const char *name;
	const char *nodename;		       /* its /dev name, if not name ("hwrng") */
	const struct file_operations *fops;    /* what open of 10:minor gets */
	struct device *parent;		       /* NULL: /sys/devices/virtual/misc/NAME */
	const struct attribute_group **groups; /* the device's attributes */
	struct device *this_device;	       /* set by misc_register */
	struct list_head list;		       /* misc.c's */
};

/* /sys/class/misc/NAME with dev 10:minor; 0 or -errno (-EBUSY: the minor is taken). */
int misc_register(struct miscdevice *misc);
void misc_deregister(struct miscdevice *misc);
int misc_init(void);

#endif
