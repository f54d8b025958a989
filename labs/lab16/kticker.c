/*
 * kticker.c: lab 16's kernel thread. While the module is loaded, its thread
 * [kticker] adds one to a counter every interval_ms milliseconds, and
 * /sys/class/kticker/ticks reads the counter. rmmod stops the thread with
 * kthread_stop before the class goes.
 *
 * Lab 16 starter (docs/labs/lab16-kthread.md): copy this file to
 * drivers/misc/kticker.c. The class, its file and the thread's start work;
 * what the thread does and how it ends are yours (two TODOs).
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/kthread.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/string.h>

static int interval_ms = 50;
module_param(interval_ms, int, "milliseconds between two ticks (10-1000)");

static unsigned long ticks; /* written by the thread alone */
static struct task_struct *ticker;

static int kticker_thread(void *data)
{
	/*
	 * TODO (step 2): until kthread_should_stop() says so, add one to
	 * ticks, then sleep interval_ms milliseconds (msleep).
	 */
	return 0;
}

static ssize_t ticks_show(struct class *cls, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%lu\n", ticks);
}
static CLASS_ATTR(ticks, S_IRUGO, ticks_show, NULL);

static struct class kticker_class = {
	.name = "kticker",
	.owner = THIS_MODULE,
};

static int kticker_init(void)
{
	int err;

	if (interval_ms < 10 || interval_ms > 1000)
		return -EINVAL;
	err = class_register(&kticker_class);
	if (err)
		return err;
	err = class_create_file(&kticker_class, &class_attr_ticks);
	if (err)
		goto out_class;
	ticks = 0;
	ticker = kthread_run(kticker_thread, NULL, "kticker");
	if (IS_ERR(ticker)) {
		err = (int)PTR_ERR(ticker);
		goto out_file;
	}
	return 0;

out_file:
	class_remove_file(&kticker_class, &class_attr_ticks);
out_class:
	class_unregister(&kticker_class);
	return err;
}

static void kticker_exit(void)
{
	/* TODO (step 3): stop the thread, and wait until it has ended (kthread_stop). */
	pr_info("kticker: stopped after %lu ticks\n", ticks);
	class_remove_file(&kticker_class, &class_attr_ticks);
	class_unregister(&kticker_class);
}

module_init(kticker_init);
module_exit(kticker_exit);
