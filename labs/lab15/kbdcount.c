/*
 * kbdcount.c: lab 15's starter (docs/labs/lab15-keyboard-interrupt.md): the
 * device kbdcount and its attribute count are registered; the TODOs are the
 * lab: a filter that i8042's interrupt handler calls with each keyboard byte,
 * counting key presses under a spinlock, and a work item that reads the count
 * for sysfs to show.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/i8042.h>
#include <kobold/module.h>
#include <kobold/platform_device.h>
#include <kobold/printk.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>
#include <kobold/workqueue.h>

#define KBD_RELEASE 0x80 /* set in a scancode when the key goes up (and in 0xe0, 0xfa) */

struct kbdcount {
	struct platform_device *pdev;
	spinlock_t lock;       /* presses: taken in the handler and in the work */
	unsigned long presses; /* counted by the handler */
	unsigned long count;   /* what the work item last read: the one sysfs shows */
	struct work_struct work;
};

static struct kbdcount kbd;

/*
 * TODO: called in i8042's interrupt handler with each keyboard byte: a press
 * (KBD_RELEASE clear) adds one to presses, under the lock, and schedules the
 * work. Return false: the byte goes on to atkbd and the console.
 */
static __unused bool kbdcount_filter(unsigned char data, unsigned char str, struct serio *port)
{
	return false;
}

/*
 * TODO: in events/N, with the filter able to run at any moment: read presses
 * under the lock, keep it in count, and log it with
 * printk(KERN_DEBUG "kbdcount: %lu keys\n", ...).
 */
static void kbdcount_work(struct work_struct *work)
{
}

static ssize_t count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%lu\n", kbd.count);
}
static DEVICE_ATTR_RO(count);

static int kbdcount_init(void)
{
	int err;

	spin_lock_init(&kbd.lock);
	INIT_WORK(&kbd.work, kbdcount_work);
	kbd.presses = kbd.count = 0;
	kbd.pdev = platform_device_register_simple("kbdcount", -1, NULL, 0);
	if (IS_ERR(kbd.pdev))
		return PTR_ERR(kbd.pdev);
	err = device_create_file(&kbd.pdev->dev, &dev_attr_count);
	if (err)
		goto out_unregister;
	/* TODO: install kbdcount_filter (i8042_install_filter) */
	return 0;

out_unregister:
	platform_device_unregister(kbd.pdev);
	return err;
}

static void kbdcount_exit(void)
{
	/* TODO: remove the filter, then wait for a work item still queued */
	device_remove_file(&kbd.pdev->dev, &dev_attr_count);
	platform_device_unregister(kbd.pdev);
}

module_init(kbdcount_init);
module_exit(kbdcount_exit);
