/*
 * scullpipe.c: lab 21's /dev/scullpipe, LDD3's scullp: a FIFO of bytes in
 * kernel memory. A read waits while it is empty and a write while it is
 * full, unless the file is O_NONBLOCK (-EAGAIN); poll says which would not
 * wait; ioctls read and set its size (docs/labs/lab21-scullpipe.md).
 */
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/ioctl.h>
#include <kobold/module.h>
#include <kobold/mutex.h>
#include <kobold/poll.h>
#include <kobold/slab.h>
#include <kobold/uaccess.h>
#include <kobold/wait.h>

#define SCULLP_SIZE 4096      /* the FIFO's size at load */
#define SCULLP_SIZE_MAX 65536 /* the most SCULLP_IOCSSIZE takes */

/* The commands, as user space spells them too (docs/labs/lab21-scullpipe.md). */
#define SCULLP_IOC_MAGIC 'k'
#define SCULLP_IOCRESET _IO(SCULLP_IOC_MAGIC, 0)	/* empty the FIFO */
#define SCULLP_IOCGSIZE _IOR(SCULLP_IOC_MAGIC, 1, int)	/* its size into *arg */
#define SCULLP_IOCSSIZE _IOW(SCULLP_IOC_MAGIC, 2, int)	/* a new size from *arg */
#define SCULLP_IOCGCOUNT _IOR(SCULLP_IOC_MAGIC, 3, int) /* the bytes waiting into *arg */

/* The device: the file operations find it here. */
static struct scullp_dev {
	char *buf;			  /* size bytes, a ring */
	size_t size, head, len;		  /* the oldest byte at head, len of them */
	struct mutex lock;		  /* buf, size, head, len */
	struct wait_queue_head inq, outq; /* readers wait for bytes, writers for room */
	unsigned int major;
	struct class *class;
	struct device *dev;
} scullp;

static int scullp_open(struct inode *inode, struct file *file) { return 0; }

static int scullp_release(struct inode *inode, struct file *file) { return 0; }

static bool has_bytes(void) { return scullp.len > 0; }

static bool has_room(void) { return scullp.len < scullp.size; }

/*
 * Called and returns with the lock held: 0 once ready() holds, or -EAGAIN
 * (O_NONBLOCK), -ERESTARTSYS (a signal). The lock is let go while it sleeps, or
 * the process that would make ready() true could never take it.
 */
static int scullp_wait(struct file *file, struct wait_queue_head *q, bool (*ready)(void))
{
	/* TODO: while !ready(): let go of the lock, -EAGAIN or sleep on q, take the lock again. */
	return -EAGAIN;
}

static ssize_t scullp_read(struct file *file, char __user *ubuf, size_t count, loff_t *pos)
{
	ssize_t ret;

	mutex_lock(&scullp.lock);
	ret = scullp_wait(file, &scullp.inq, has_bytes);
	/*
	 * TODO: unless ret says otherwise, copy out what there is (up to
	 * count, and up to the ring's end), move head on, wake the writers,
	 * and return the count.
	 */
	mutex_unlock(&scullp.lock);
	return ret;
}

static ssize_t scullp_write(struct file *file, const char __user *ubuf, size_t count,
			    loff_t *pos)
{
	ssize_t ret;

	mutex_lock(&scullp.lock);
	ret = scullp_wait(file, &scullp.outq, has_room);
	/*
	 * TODO: unless ret says otherwise, copy in what fits (up to the
	 * ring's end) after the bytes waiting, wake the readers, and return
	 * the count.
	 */
	mutex_unlock(&scullp.lock);
	return ret;
}

static unsigned int scullp_poll(struct file *file, poll_table *wait)
{
	/* TODO: poll_wait on both queues; POLLIN | POLLRDNORM with bytes, POLLOUT | POLLWRNORM with room. */
	return 0;
}

/* A new, empty FIFO of size bytes; -EBUSY while bytes wait in the old one. */
static long scullp_resize(int size)
{
	char *buf;

	if (size <= 0 || size > SCULLP_SIZE_MAX)
		return -EINVAL;
	if (scullp.len)
		return -EBUSY;
	buf = kzalloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	kfree(scullp.buf);
	scullp.buf = buf;
	scullp.size = (size_t)size;
	scullp.head = 0;
	wake_up(&scullp.outq);
	return 0;
}

static long scullp_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	int __user *p = (int __user *)arg;
	long ret = 0;
	int size;

	/* TODO: refuse any other type (the magic letter) at once. */
	if (mutex_lock_interruptible(&scullp.lock))
		return -ERESTARTSYS;
	switch (cmd) {
	/* TODO: SCULLP_IOCRESET, SCULLP_IOCGSIZE and SCULLP_IOCGCOUNT (put_user). */
	case SCULLP_IOCSSIZE:
		ret = get_user(size, p);
		if (!ret)
			ret = scullp_resize(size);
		break;
	default:
		ret = -ENOTTY;
	}
	mutex_unlock(&scullp.lock);
	return ret;
}

static const struct file_operations scullp_fops = {
	.owner = THIS_MODULE,
	.fop_flags = FOP_USER_BUFFERS,
	.open = scullp_open,
	.read = scullp_read,
	.write = scullp_write,
	.poll = scullp_poll,
	.unlocked_ioctl = scullp_ioctl,
	.release = scullp_release,
};

static int scullp_init(void)
{
	int err = -ENOMEM;

	scullp.buf = kzalloc(SCULLP_SIZE);
	if (!scullp.buf)
		return err;
	scullp.size = SCULLP_SIZE;
	scullp.head = scullp.len = 0;
	mutex_init(&scullp.lock);
	init_waitqueue_head(&scullp.inq);
	init_waitqueue_head(&scullp.outq);
	err = register_chrdev(0, "scullpipe", &scullp_fops);
	if (err < 0)
		goto out_free;
	scullp.major = (unsigned int)err;
	scullp.class = class_create(THIS_MODULE, "scullpipe");
	if (IS_ERR(scullp.class)) {
		err = (int)PTR_ERR(scullp.class);
		goto out_chrdev;
	}
	scullp.dev = device_create(scullp.class, NULL, MKDEV(scullp.major, 0), NULL, "scullpipe");
	if (IS_ERR(scullp.dev)) {
		err = (int)PTR_ERR(scullp.dev);
		goto out_class;
	}
	return 0;

out_class:
	class_destroy(scullp.class);
out_chrdev:
	unregister_chrdev(scullp.major, "scullpipe");
out_free:
	kfree(scullp.buf);
	return err;
}

static void scullp_exit(void)
{
	device_destroy(scullp.class, MKDEV(scullp.major, 0));
	class_destroy(scullp.class);
	unregister_chrdev(scullp.major, "scullpipe");
	kfree(scullp.buf);
}

module_init(scullp_init);
module_exit(scullp_exit);
