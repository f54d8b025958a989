/*
 * kobold.c: lab 7's character device, /dev/kobold, which counts its opens:
 * reading it says "opened N times", writing "0" starts the count again.
 * Copy it to drivers/char/kobold.c and fill in the TODOs
 * (docs/labs/lab7-char-device.md).
 */
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/printk.h>
#include <kobold/string.h>

static unsigned long opens;

static int kobold_open(struct inode *inode, struct file *file)
{
	/* TODO */
	return 0;
}

/* "opened N times\n": cat reads until a read returns 0. */
static ssize_t kobold_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	char line[32];
	size_t len = (size_t)scnprintf(line, sizeof(line), "opened %lu times\n", opens);

	/* TODO: copy to buf what the caller has not read yet. */
	(void)len;
	return 0;
}

/* "0" (echo sends "0\n") starts the count again; anything else is refused. */
static ssize_t kobold_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	/* TODO */
	return -EINVAL;
}

static int kobold_release(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct file_operations kobold_fops = {
	.open = kobold_open,
	.read = kobold_read,
	.write = kobold_write,
	.release = kobold_release,
};

static int kobold_init(void)
{
	/* TODO: device numbers for kobold_fops, a class "kobold", a device "kobold" in it. */
	(void)kobold_fops;
	return 0;
}

static void kobold_exit(void)
{
	/* TODO */
}

module_init(kobold_init);
module_exit(kobold_exit);
