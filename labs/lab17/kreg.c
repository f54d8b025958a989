/*
 * kreg.c: lab 17's registry, a list of keys each registered once. Writing N
 * to /sys/class/kreg/run empties it and starts two threads, [kreg/0] and
 * [kreg/1], that each register the keys 0 to N-1 at the same time; entries
 * and duplicates read what they left. kreg_lock makes each registration's
 * lookup and insert one step, so that the two threads cannot both insert a
 * key that neither found.
 *
 * Lab 17 starter (docs/labs/lab17-race.md): copy this file to
 * drivers/misc/kreg.c. It works when one thread registers at a time; two
 * at once, with preempt_inject=spin_unlock,every=2,seed=1, register some
 * keys twice. One function breaks kreg_lock's rule: find it and fix it.
 */
#include <kobold/completion.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/kthread.h>
#include <kobold/list.h>
#include <kobold/module.h>
#include <kobold/slab.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>

#define KREG_MAX_KEYS 2000

struct kreg_entry {
	struct list_head node;
	unsigned int key;
};

static DEFINE_SPINLOCK(kreg_lock); /* kreg_list and kreg_entries */
static LIST_HEAD(kreg_list);
static unsigned int kreg_entries;

static DEFINE_SPINLOCK(kreg_stats_lock); /* kreg_lookups */
static unsigned long kreg_lookups;

struct kreg_job {
	unsigned int keys;
	int err;
	struct completion done;
};

/* The entry of key, or NULL; counts the lookup. With kreg_lock held. */
static struct kreg_entry *kreg_find(unsigned int key)
{
	struct kreg_entry *e, *found = NULL;

	list_for_each_entry(e, &kreg_list, node)
		if (e->key == key) {
			found = e;
			break;
		}
	spin_lock(&kreg_stats_lock);
	kreg_lookups++;
	spin_unlock(&kreg_stats_lock);
	return found;
}

/* Adds key unless it is there: 0, or -ENOMEM. */
static int kreg_register(unsigned int key)
{
	struct kreg_entry *e;

	/* TODO: the other thread may be here too. */
	if (kreg_find(key))
		return 0;
	e = kmalloc(sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->key = key;
	list_add_tail(&e->node, &kreg_list);
	kreg_entries++;
	return 0;
}

static void kreg_clear(void)
{
	struct kreg_entry *e, *next;
	LIST_HEAD(gone);

	spin_lock(&kreg_lock);
	list_splice_tail_init(&kreg_list, &gone);
	kreg_entries = 0;
	spin_unlock(&kreg_lock);
	list_for_each_entry_safe(e, next, &gone, node)
		kfree(e);
}

/* A thread: registers the keys 0 to keys-1, says so, then waits for kthread_stop. */
static int kreg_thread(void *data)
{
	struct kreg_job *job = data;

	for (unsigned int key = 0; key < job->keys && !job->err; key++)
		job->err = kreg_register(key);
	complete(&job->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

/* Runs both threads to the end: 0 or the first error. */
static int kreg_run(unsigned int keys)
{
	struct kreg_job job[2];
	struct task_struct *t[2];
	int err = 0, i;

	for (i = 0; i < 2; i++) {
		job[i].keys = keys;
		job[i].err = 0;
		init_completion(&job[i].done);
		t[i] = kthread_run(kreg_thread, &job[i], "kreg/%d", i);
		if (IS_ERR(t[i])) {
			err = (int)PTR_ERR(t[i]);
			break;
		}
	}
	while (i-- > 0) {
		wait_for_completion(&job[i].done);
		kthread_stop(t[i]);
		if (!err)
			err = job[i].err;
	}
	return err;
}

static ssize_t run_store(struct class *cls, const char *buf, size_t count)
{
	unsigned int n;
	int err;

	if (kstrtouint(buf, 10, &n) || n == 0 || n > KREG_MAX_KEYS)
		return -EINVAL;
	kreg_clear();
	err = kreg_run(n);
	return err ? err : (ssize_t)count;
}

static ssize_t entries_show(struct class *cls, char *buf)
{
	unsigned int n;

	spin_lock(&kreg_lock);
	n = kreg_entries;
	spin_unlock(&kreg_lock);
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", n);
}

/* How many entries repeat a key of an earlier one (0 when every key is there once). */
static ssize_t duplicates_show(struct class *cls, char *buf)
{
	struct kreg_entry *e, *before;
	unsigned int dups = 0;

	spin_lock(&kreg_lock);
	list_for_each_entry(e, &kreg_list, node)
		list_for_each_entry(before, &kreg_list, node) {
			if (before == e)
				break;
			if (before->key == e->key) {
				dups++;
				break;
			}
		}
	spin_unlock(&kreg_lock);
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", dups);
}

static struct class_attribute kreg_class_attrs[] = {
	__ATTR(run, S_IWUSR, NULL, run_store),
	__ATTR(entries, S_IRUGO, entries_show, NULL),
	__ATTR(duplicates, S_IRUGO, duplicates_show, NULL),
	__ATTR_NULL,
};

static struct class kreg_class = {
	.name = "kreg",
	.owner = THIS_MODULE,
	.class_attrs = kreg_class_attrs,
};

static int kreg_init(void)
{
	return class_register(&kreg_class);
}

static void kreg_exit(void)
{
	class_unregister(&kreg_class);
	kreg_clear();
}

module_init(kreg_init);
module_exit(kreg_exit);
