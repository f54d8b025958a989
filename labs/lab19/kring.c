/*
 * kring.c: lab 19's producer and consumer on a bounded buffer. The thread
 * [kring] puts numbered items (1, 2, ...) into a ring of KRING_SLOTS, as many
 * as were asked for by writes to /sys/class/misc/kring/produce, and sleeps
 * while the ring is full; a read of /dev/kring takes one item and sleeps
 * while the ring is empty, until an item comes or Ctrl-C.
 *
 * Lab 19 starter (docs/labs/lab19-producer-consumer.md): copy this file to
 * drivers/misc/kring.c. The ring, its lock, the files and the thread work;
 * the producer polls and a reader of the empty ring gets EAGAIN. Making
 * both sleep on their wait queues, and waking each other, is yours.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/kthread.h>
#include <kobold/miscdevice.h>
#include <kobold/module.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>
#include <kobold/wait.h>

#define KRING_SLOTS 4
#define KRING_MINOR 240 /* a misc minor of its own */
#define KRING_MAX_TODO 1000

static DEFINE_SPINLOCK(kring_lock); /* the ring, todo and next_item */
static unsigned int ring[KRING_SLOTS];
static unsigned int head, tail; /* put at head, taken at tail: head - tail items */
static unsigned int todo;	/* items asked for and not yet put */
static unsigned int next_item;
static unsigned int pause_ms; /* before each item, to watch a reader wait */

static DECLARE_WAIT_QUEUE_HEAD(kring_readers);	/* woken when an item is put */
static DECLARE_WAIT_QUEUE_HEAD(kring_producer); /* woken by produce and by a take */
static struct task_struct *producer;

static unsigned int kring_count(void) { return head - tail; }

/* ---- the ring (with kring_lock held) ---- */

static bool kring_put(void)
{
	if (!todo || kring_count() == KRING_SLOTS)
		return false;
	ring[head++ % KRING_SLOTS] = next_item++;
	todo--;
	return true;
}

static bool kring_take(unsigned int *item)
{
	if (!kring_count())
		return false;
	*item = ring[tail++ % KRING_SLOTS];
	return true;
}

/* ---- the producer ---- */

static bool kring_can_put(void) { return todo && kring_count() < KRING_SLOTS; }

static int kring_produce(void *data)
{
	while (!kthread_should_stop()) {
		bool put;

		/*
		 * TODO (step 3): instead of this poll, sleep on kring_producer
		 * until kring_can_put() or kthread_should_stop(), and leave the
		 * loop at once when asked to stop.
		 */
		if (!kring_can_put()) {
			msleep(20);
			continue;
		}
		if (pause_ms)
			msleep(pause_ms);
		spin_lock(&kring_lock);
		put = kring_put();
		spin_unlock(&kring_lock);
		if (put) {
			/* TODO (step 4): a reader may be waiting for it: wake the readers. */
		}
	}
	return 0;
}

/* ---- the consumer: reads of /dev/kring ---- */

static ssize_t kring_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	char line[16];
	unsigned int item = 0; /* set by kring_take when it returns true */
	size_t len;
	bool taken;

	/*
	 * TODO (step 2): on an empty ring, sleep on kring_readers until it has
	 * an item (wait_event_interruptible), and return -ERESTARTSYS if Ctrl-C
	 * ends the wait. Another reader may take the item first: then wait again.
	 */
	spin_lock(&kring_lock);
	taken = kring_take(&item);
	spin_unlock(&kring_lock);
	if (!taken)
		return -EAGAIN;
	/* TODO (step 4): the producer may be waiting for room: wake it. */
	len = (size_t)scnprintf(line, sizeof(line), "%u\n", item);
	memcpy(buf, line, min(n, len)); /* a whole item per read: the caller's buffer is a page */
	return (ssize_t)min(n, len);
}

static const struct file_operations kring_fops = {
	.owner = THIS_MODULE,
	.read = kring_read,
};

/* ---- its files: /sys/class/misc/kring/{count,produce,pause_ms} ---- */

static ssize_t count_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", kring_count());
}
static DEVICE_ATTR_RO(count);

static ssize_t produce_store(struct device *dev, struct device_attribute *attr, const char *buf,
			     size_t count)
{
	unsigned int n;
	int err = 0;

	if (kstrtouint(buf, 10, &n) || n == 0 || n > KRING_MAX_TODO)
		return -EINVAL;
	spin_lock(&kring_lock);
	if (todo + n > KRING_MAX_TODO)
		err = -EBUSY;
	else
		todo += n;
	spin_unlock(&kring_lock);
	if (err)
		return err;
	wake_up(&kring_producer);
	return (ssize_t)count;
}
static DEVICE_ATTR_WO(produce);

static ssize_t pause_ms_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", pause_ms);
}

static ssize_t pause_ms_store(struct device *dev, struct device_attribute *attr, const char *buf,
			      size_t count)
{
	unsigned int ms;

	if (kstrtouint(buf, 10, &ms) || ms > 1000)
		return -EINVAL;
	pause_ms = ms;
	return (ssize_t)count;
}
static DEVICE_ATTR_RW(pause_ms);

static struct attribute *kring_attrs[] = {
	&dev_attr_count.attr,
	&dev_attr_produce.attr,
	&dev_attr_pause_ms.attr,
	NULL,
};
ATTRIBUTE_GROUPS(kring);

static struct miscdevice kring_misc = {
	.minor = KRING_MINOR,
	.name = "kring",
	.fops = &kring_fops,
	.groups = kring_groups,
};

static int kring_init(void)
{
	int err;

	head = tail = todo = pause_ms = 0;
	next_item = 1;
	err = misc_register(&kring_misc);
	if (err)
		return err;
	producer = kthread_run(kring_produce, NULL, "kring");
	if (IS_ERR(producer)) {
		misc_deregister(&kring_misc);
		return (int)PTR_ERR(producer);
	}
	return 0;
}

static void kring_exit(void)
{
	kthread_stop(producer);
	misc_deregister(&kring_misc);
}

module_init(kring_init);
module_exit(kring_exit);
