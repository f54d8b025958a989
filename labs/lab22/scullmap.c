/*
 * scullmap.c: lab 22's /dev/scullmap, SCULLMAP_PAGES pages of kernel
 * memory that a process reads and writes with read() and write(), and maps
 * with mmap(): the mapping's pages are the device's own, handed out one
 * fault at a time, as LDD3's scullv with nopage and Linux 2.6.23's
 * vm_ops->fault. Copy it to drivers/char/scullmap.c and fill in the TODOs
 * (docs/labs/lab22-scullmap.md): the device, read and write are done.
 */
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/mm.h>
#include <kobold/mm_types.h>
#include <kobold/module.h>
#include <kobold/mutex.h>
#include <kobold/string.h>
#include <kobold/uaccess.h>

#define SCULLMAP_PAGES 4
#define SCULLMAP_SIZE (SCULLMAP_PAGES * PAGE_SIZE)

/* The device: the file operations find it here. */
static struct scullmap_dev {
	void *page[SCULLMAP_PAGES]; /* each alloc_pages(1), with the device's reference */
	struct mutex lock;	    /* the pages' contents, for read and write */
	int mappings;		    /* VMAs open on it: vm_ops' open and close */
	unsigned int major;
	struct class *class;
	struct device *dev;
} sm;

static int scullmap_open(struct inode *inode, struct file *file) { return 0; }

static int scullmap_release(struct inode *inode, struct file *file) { return 0; }

/* read and write: at *pos, a page at a time, up to SCULLMAP_SIZE. */
static ssize_t scullmap_rw(char __user *buf, size_t count, loff_t *pos, bool write)
{
	size_t done = 0;

	if (*pos >= SCULLMAP_SIZE)
		return write ? -ENOSPC : 0;
	count = min(count, (size_t)(SCULLMAP_SIZE - *pos));
	mutex_lock(&sm.lock);
	while (done < count) {
		size_t off = (size_t)*pos % PAGE_SIZE, n = min(count - done, PAGE_SIZE - off);
		char *p = (char *)sm.page[*pos / PAGE_SIZE] + off;

		if (write ? copy_from_user(p, buf + done, n) : copy_to_user(buf + done, p, n))
			break;
		done += n;
		*pos += (loff_t)n;
	}
	mutex_unlock(&sm.lock);
	return done ? (ssize_t)done : -EFAULT;
}

static ssize_t scullmap_read(struct file *file, char __user *buf, size_t count, loff_t *pos)
{
	return scullmap_rw(buf, count, pos, false);
}

static ssize_t scullmap_write(struct file *file, const char __user *buf, size_t count, loff_t *pos)
{
	return scullmap_rw((char __user *)buf, count, pos, true);
}

static void scullmap_vma_open(struct vm_area_struct *vma)
{
	/* TODO: one more mapping */
}

static void scullmap_vma_close(struct vm_area_struct *vma)
{
	/* TODO: one mapping fewer */
}

/* The page at vmf->pgoff, with a reference for the mapping (dropped when it is unmapped). */
static int scullmap_fault(struct vm_area_struct *vma, struct vm_fault *vmf)
{
	/* TODO: the page at vmf->pgoff (VM_FAULT_SIGBUS past the last), with a reference for the mapping. */
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct scullmap_vm_ops = {
	.open = scullmap_vma_open,
	.close = scullmap_vma_close,
	.fault = scullmap_fault,
};

/* A mapping of pages the device has: its vm_ops; nothing is mapped until a fault. */
static int scullmap_mmap(struct file *file, struct vm_area_struct *vma)
{
	/*
	 * TODO: refuse a mapping that reaches past the device's pages
	 * (-EINVAL); give it scullmap_vm_ops and VM_IO, and count it open.
	 */
	(void)scullmap_vm_ops;
	return -ENODEV;
}

static ssize_t mappings_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, PAGE_SIZE, "%d\n", sm.mappings);
}
static DEVICE_ATTR_RO(mappings);

static const struct file_operations scullmap_fops = {
	.owner = THIS_MODULE,
	.fop_flags = FOP_USER_BUFFERS,
	.open = scullmap_open,
	.read = scullmap_read,
	.write = scullmap_write,
	.mmap = scullmap_mmap,
	.release = scullmap_release,
};

static void free_buffer(void)
{
	for (int i = 0; i < SCULLMAP_PAGES; i++)
		if (sm.page[i])
			put_page(sm.page[i]);
	memset(sm.page, 0, sizeof(sm.page));
}

static int alloc_buffer(void)
{
	for (int i = 0; i < SCULLMAP_PAGES; i++) {
		sm.page[i] = alloc_pages(1);
		if (!sm.page[i]) {
			free_buffer();
			return -ENOMEM;
		}
		memset(sm.page[i], 0, PAGE_SIZE);
		get_page(sm.page[i]);
	}
	return 0;
}

static int scullmap_init(void)
{
	int err = alloc_buffer();

	if (err)
		return err;
	mutex_init(&sm.lock);
	sm.mappings = 0;
	err = register_chrdev(0, "scullmap", &scullmap_fops);
	if (err < 0)
		goto out_free;
	sm.major = (unsigned int)err;
	sm.class = class_create(THIS_MODULE, "scullmap");
	if (IS_ERR(sm.class)) {
		err = (int)PTR_ERR(sm.class);
		goto out_chrdev;
	}
	sm.dev = device_create(sm.class, NULL, MKDEV(sm.major, 0), NULL, "scullmap");
	if (IS_ERR(sm.dev)) {
		err = (int)PTR_ERR(sm.dev);
		goto out_class;
	}
	err = device_create_file(sm.dev, &dev_attr_mappings);
	if (err)
		goto out_device;
	return 0;

out_device:
	device_destroy(sm.class, MKDEV(sm.major, 0));
out_class:
	class_destroy(sm.class);
out_chrdev:
	unregister_chrdev(sm.major, "scullmap");
out_free:
	free_buffer();
	return err;
}

static void scullmap_exit(void)
{
	device_remove_file(sm.dev, &dev_attr_mappings);
	device_destroy(sm.class, MKDEV(sm.major, 0));
	class_destroy(sm.class);
	unregister_chrdev(sm.major, "scullmap");
	free_buffer();
}

module_init(scullmap_init);
module_exit(scullmap_exit);
