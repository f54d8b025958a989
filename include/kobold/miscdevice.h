/* miscdevice.h: the misc class (Linux's <linux/miscdevice.h>): small character devices on major 10. */
#ifndef KOBOLD_MISCDEVICE_H
#define KOBOLD_MISCDEVICE_H

#include <kobold/device.h>

#define MISC_MAJOR 10
#define HWRNG_MINOR 183 /* Linux's devices.txt: /dev/hwrng */

struct miscdevice {
	int minor;
	const char *name;
	struct device *parent;		       /* NULL: /sys/devices/virtual/misc/NAME */
	const struct attribute_group **groups; /* the device's attributes */
	struct device *this_device;	       /* set by misc_register */
};

/* /sys/class/misc/NAME with dev 10:minor; 0 or -errno (-EBUSY: the minor is taken). */
int misc_register(struct miscdevice *misc);
void misc_deregister(struct miscdevice *misc);
int misc_init(void);

#endif
