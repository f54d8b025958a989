/*
 * scull.c: lab 20's /dev/scull, LDD3's scull cut to one buffer of
 * SCULL_SIZE bytes that reads, writes and seeks as a small file does.
 * Copy it to drivers/char/scull.c and fill in the TODOs
 * (docs/labs/lab20-scull.md): the device is registered already.
 */
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/mutex.h>
#include <kobold/slab.h>
#include <kobold/uaccess.h>

#define SCULL_SIZE 4096

/* The device: read, write and llseek find it here (LDD3 uses file->private_data). */
static struct scull_dev {
	char *data;	    /* SCULL_SIZE bytes */
	size_t size;	    /* bytes written so far: where reads end, SEEK_END's base */
	struct mutex lock;  /* data and size */
	unsigned int major; /* register_chrdev's */
	struct class *class;
	struct device *dev;
} scull;

/* Opened for writing with O_TRUNC (as `echo x > /dev/scull` does): empty again. */
static int scull_open(struct inode *inode, struct file *file)
{
	/* TODO: opened for writing with O_TRUNC: the device is empty again. */
	return 0;
}

static int scull_release(struct inode *inode, struct file *file) { return 0; }

static ssize_t scull_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
{
	/*
	 * TODO: copy to the user's buf what lies between *pos and the bytes
	 * written (0 at the end), move *pos on, return the count.
	 */
	return 0;
}

static ssize_t scull_write(struct file *file, const char __user *buf, size_t count, loff_t *pos)
{
	/* TODO: copy what fits from the user's buf at *pos; -ENOSPC when nothing does. */
	return -ENOSPC;
}

static loff_t scull_llseek(struct file *file, loff_t off, int whence)
{
	/* TODO: SEEK_SET, SEEK_CUR, SEEK_END; -EINVAL for anything else or a negative result. */
	return -EINVAL;
}

static const struct file_operations scull_fops = {
	.owner = THIS_MODULE,
	.fop_flags = FOP_USER_BUFFERS,
	.open = scull_open,
	.read = scull_read,
	.write = scull_write,
	.llseek = scull_llseek,
	.release = scull_release,
};

static int scull_init(void)
{
	int err = -ENOMEM;

	scull.data = kzalloc(SCULL_SIZE);
	if (!scull.data)
		return err;
	scull.size = 0;
	mutex_init(&scull.lock);
	err = register_chrdev(0, "scull", &scull_fops);
	if (err < 0)
		goto out_free;
	scull.major = (unsigned int)err;
	scull.class = class_create(THIS_MODULE, "scull");
	if (IS_ERR(scull.class)) {
		err = (int)PTR_ERR(scull.class);
		goto out_chrdev;
	}
	scull.dev = device_create(scull.class, NULL, MKDEV(scull.major, 0), NULL, "scull");
	if (IS_ERR(scull.dev)) {
		err = (int)PTR_ERR(scull.dev);
		goto out_class;
	}
	return 0;

out_class:
	class_destroy(scull.class);
out_chrdev:
	unregister_chrdev(scull.major, "scull");
out_free:
	kfree(scull.data);
	return err;
}

static void scull_exit(void)
{
	device_destroy(scull.class, MKDEV(scull.major, 0));
	class_destroy(scull.class);
	unregister_chrdev(scull.major, "scull");
	kfree(scull.data);
}

module_init(scull_init);
module_exit(scull_exit);
