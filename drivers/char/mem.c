/*
 * mem.c: the memory devices of Linux's drivers/char/mem.c, char major 1:
 * null (1:3) takes and gives nothing, zero (1:5) gives zeros, full (1:7)
 * refuses every write with -ENOSPC, kmsg (1:11) reads the kernel log one
 * record a read and writes a line into it. Each is a device of the "mem"
 * class made with device_create(), so /dev gets its node.
 */
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/init.h>
#include <kobold/printk.h>
#include <kobold/string.h>

#define MEM_MAJOR 1

static ssize_t read_null(struct file *file, char *buf, size_t n, loff_t *pos)
{
	return 0;
}

static ssize_t write_null(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	return (ssize_t)n;
}

static ssize_t read_zero(struct file *file, char *buf, size_t n, loff_t *pos)
{
	memset(buf, 0, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static ssize_t write_full(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	return -ENOSPC;
}

struct kmsg_cursor {
	loff_t want; /* the record's index among those still in the ring */
	loff_t index;
	char *buf;
	size_t size;
	ssize_t len;
};

/* Linux's /dev/kmsg record: "LEVEL,SEQ,USEC,-;TEXT\n". */
static void kmsg_format(u64 ts_ns, int level, const char *text, void *arg)
{
	struct kmsg_cursor *c = arg;
	size_t tlen = strlen(text);

	if (c->index++ != c->want)
		return;
	while (tlen && text[tlen - 1] == '\n')
		tlen--;
	c->len = scnprintf(c->buf, c->size, "%d,%lld,%llu,-;%.*s\n", level, (long long)c->want,
			   (unsigned long long)(ts_ns / 1000), (int)tlen, text);
}

/* One record a read, as Linux's; a buffer too small for it is -EINVAL, as there. */
static ssize_t read_kmsg(struct file *file, char *buf, size_t n, loff_t *pos)
{
	static char record[1024];
	struct kmsg_cursor c = { .want = *pos, .buf = record, .size = sizeof(record) };

	log_for_each(kmsg_format, &c);
	if (c.len == 0)
		return 0;
	if ((size_t)c.len > n)
		return -EINVAL;
	memcpy(buf, record, (size_t)c.len);
	*pos += 1;
	return c.len;
}

/* A line written becomes a log record; "<N>" in front chooses its level. */
static ssize_t write_kmsg(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	int level = 4; /* Linux's default_message_loglevel */
	size_t skip = 0, len = n;

	if (n >= 3 && buf[0] == '<' && buf[1] >= '0' && buf[1] <= '7' && buf[2] == '>') {
		level = buf[1] - '0';
		skip = 3;
	}
	while (len > skip && buf[len - 1] == '\n')
		len--;
	printk("\001%c%.*s\n", '0' + level, (int)(len - skip), buf + skip);
	return (ssize_t)n;
}

static const struct file_operations null_fops = { .read = read_null, .write = write_null };
static const struct file_operations zero_fops = { .read = read_zero, .write = write_null };
static const struct file_operations full_fops = { .read = read_zero, .write = write_full };
static const struct file_operations kmsg_fops = { .read = read_kmsg, .write = write_kmsg };

static const struct memdev {
	const char *name;
	umode_t mode;
	const struct file_operations *fops;
} devlist[] = {
	[3] = { "null", 0666, &null_fops },
	[5] = { "zero", 0666, &zero_fops },
	[7] = { "full", 0666, &full_fops },
	[11] = { "kmsg", 0644, &kmsg_fops },
};

/* The major's open: each minor gets its own operations. */
static int memory_open(struct inode *inode, struct file *file)
{
	unsigned int minor = MINOR(inode->i_rdev);

	if (minor >= ARRAY_SIZE(devlist) || !devlist[minor].fops)
		return -ENXIO;
	file->f_op = devlist[minor].fops;
	return 0;
}

static const struct file_operations memory_fops = { .open = memory_open };

/* null, zero and full are for everyone (crw-rw-rw-), as Linux's mem_devnode says. */
static char *mem_devnode(struct device *dev, umode_t *mode)
{
	if (mode && devlist[MINOR(dev->devt)].mode)
		*mode = devlist[MINOR(dev->devt)].mode;
	return NULL;
}

static struct class *mem_class;

int chr_dev_init(void)
{
	int err = register_chrdev(MEM_MAJOR, "mem", &memory_fops);

	if (err < 0) {
		pr_err("mem: unable to get major %d: %d\n", MEM_MAJOR, err);
		return err;
	}
	mem_class = class_create(THIS_MODULE, "mem");
	if (IS_ERR(mem_class)) {
		pr_err("mem: no class: %ld\n", PTR_ERR(mem_class));
		return (int)PTR_ERR(mem_class);
	}
	mem_class->devnode = mem_devnode;
	for (unsigned int minor = 0; minor < ARRAY_SIZE(devlist); minor++) {
		struct device *dev;

		if (!devlist[minor].name)
			continue;
		dev = device_create(mem_class, NULL, MKDEV(MEM_MAJOR, minor), NULL, "%s",
				    devlist[minor].name);
		if (IS_ERR(dev))
			pr_warn("mem: no device %s: %ld\n", devlist[minor].name, PTR_ERR(dev));
	}
	return 0;
}
