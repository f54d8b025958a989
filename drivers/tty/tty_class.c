/*
 * tty_class.c: /sys/class/tty (Linux's drivers/tty/tty_io.c, its sysfs part):
 * a struct device per terminal line, made with the newer class API
 * (class_create, device_create), below the device that drives the line.
 */
#include <kobold/tty.h>

#include <kobold/err.h>
#include <kobold/printk.h>

struct class *tty_class;

struct device *tty_register_device(dev_t devt, struct device *parent, const char *name)
{
	return device_create(tty_class, parent, devt, NULL, "%s", name);
}

void tty_unregister_device(struct device *dev)
{
	if (!IS_ERR_OR_NULL(dev))
		device_unregister(dev);
}

int tty_class_init(void)
{
	struct class *cls = class_create(THIS_MODULE, "tty");
	struct device *console, *tty0;

	if (IS_ERR(cls))
		return (int)PTR_ERR(cls); /* tty_class stays NULL: ttys register without a class */
	tty_class = cls;
	/* /dev/console (the first console) and tty0 (the VGA one): /sys/devices/virtual/tty */
	console = tty_register_device(MKDEV(TTYAUX_MAJOR, 1), NULL, "console");
	if (IS_ERR(console))
		return (int)PTR_ERR(console);
	tty0 = tty_register_device(MKDEV(TTY_MAJOR, 0), NULL, "tty0");
	return IS_ERR(tty0) ? (int)PTR_ERR(tty0) : 0;
}
