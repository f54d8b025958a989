/*
 * kpipe.c: nr message slots, each a class device /sys/class/kpipe/pipeN whose
 * "data" file keeps the last line written to it (at most 255 bytes).
 *
 * Lab 5 starter (docs/labs/lab5-error-unwinding.md): copy this file to
 * drivers/misc/kpipe.c. It works until an allocation fails.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define KPIPE_MAX 8
#define KPIPE_SIZE 256

static int nr = 2;
module_param(nr, int, "number of pipes (1-8)");

struct kpipe {
	struct class_device cdev; /* /sys/class/kpipe/pipeN */
	char *buf;		  /* KPIPE_SIZE bytes: the last line written */
};

static struct kpipe **pipes; /* nr entries, allocated by kpipe_init */

static struct kpipe *to_kpipe(struct class_device *cd)
{
	return container_of(cd, struct kpipe, cdev);
}

static ssize_t data_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s", to_kpipe(cd)->buf);
}

static ssize_t data_store(struct class_device *cd, const char *buf, size_t count)
{
	struct kpipe *p = to_kpipe(cd);

	if (count >= KPIPE_SIZE)
		return -EINVAL;
	memcpy(p->buf, buf, count);
	p->buf[count] = '\0';
	return (ssize_t)count;
}
static CLASS_DEVICE_ATTR(data, S_IRUGO | S_IWUSR, data_show, data_store);

static void kpipe_release(struct class_device *cd)
{
	struct kpipe *p = to_kpipe(cd);

	kfree(p->buf);
	kfree(p);
}

static struct class kpipe_class = {
	.name = "kpipe",
	.release = kpipe_release,
};

/* Sets up pipe number index: what a bus driver's probe does for one device. */
static int kpipe_probe(int index)
{
	struct kpipe *p = kzalloc(sizeof(*p));
	int err;

	if (!p)
		return -ENOMEM;
	p->buf = kzalloc(KPIPE_SIZE);
	if (!p->buf) {
		err = -ENOMEM;
		goto out_free;
	}
	p->cdev.class = &kpipe_class;
	scnprintf(p->cdev.class_id, BUS_ID_SIZE, "pipe%d", index);
	err = class_device_register(&p->cdev);
	if (err)
		goto out_buf;
	err = class_device_create_file(&p->cdev, &class_device_attr_data);
	if (err)
		return err;
	pipes[index] = p;
	return 0;
out_buf:
	kfree(p->buf);
out_free:
	kfree(p);
	return err;
}

static void kpipe_remove(int index)
{
	class_device_unregister(&pipes[index]->cdev);
	pipes[index] = NULL;
}

static int kpipe_init(void)
{
	int err, i;

	if (nr < 1 || nr > KPIPE_MAX)
		return -EINVAL;
	pipes = kzalloc(nr * sizeof(*pipes));
	if (!pipes)
		return -ENOMEM;
	err = class_register(&kpipe_class);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		err = kpipe_probe(i);
		if (err)
			goto out_pipes;
	}
	return 0;
out_pipes:
	while (--i > 0)
		kpipe_remove(i);
	class_unregister(&kpipe_class);
	kfree(pipes);
	return err;
}

static void kpipe_exit(void)
{
	for (int i = nr - 1; i >= 0; i--)
		kpipe_remove(i);
	class_unregister(&kpipe_class);
	kfree(pipes);
}

module_init(kpipe_init);
module_exit(kpipe_exit);
