/*
 * lkdtm.c: crashes and memory corruption on purpose, as Linux's Kernel Dump
 * Test Module does, so that the reports can be seen and tested: boot with
 * lkdtm.crash=TYPE, or write TYPE to /sys/kernel/debug/provoke-crash/DIRECT
 * (reading it lists the types).
 */
#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/init.h>
#include <kobold/kobject.h>
#include <kobold/lockdep.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/softlockup.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>
#include <kobold/time.h>

static const char *crash;
module_param(crash, charp, "crash at the end of boot: NULL_DEREF, SLAB_LINEAR_OVERFLOW, ...");

struct lkdtm_victim {
	int pad;
	int value;
};

/* volatile: the compiler cannot see that it is NULL and turn the read into a trap. */
static struct lkdtm_victim *volatile victim;

/* noipa: not inlined or cloned, so the backtrace shows each function by name. */
static __attribute__((noipa)) void lkdtm_do_null_deref(struct lkdtm_victim *v)
{
	pr_info("lkdtm: value %d\n", v->value); /* reads address 4: nothing below PAGE_OFFSET is mapped */
}

static __attribute__((noipa)) void lkdtm_NULL_DEREF(void)
{
	lkdtm_do_null_deref(victim);
}

/*
 * A read of a user-space address from the kernel, after the test of that
 * name in later Linux's lkdtm (2.6's had none), which maps a user page
 * first and faults by SMAP. Kobold's CPUs have no SMAP, so it reads 1 MiB,
 * below where programs are loaded, where the kernel is loaded but, since
 * zap_low_mappings, not mapped: the page fault comes all the same.
 */
static __attribute__((noipa)) void lkdtm_ACCESS_USERSPACE(void)
{
	const volatile u32 *ptr = (const volatile u32 *)0x00100000;

	pr_info("lkdtm: attempting bad read at %p\n", (const void *)ptr);
	pr_info("lkdtm: read %#x\n", *ptr);
}

/* As Linux's: one word past the end of a 1 KiB object, found by the next check. */
static __attribute__((noipa)) void lkdtm_SLAB_LINEAR_OVERFLOW(void)
{
	u32 *data = kmalloc(1024);
	u32 *volatile past;

	if (!data)
		return;
	pr_info("lkdtm: attempting bad write past the end of %p (1024 bytes)\n", data);
	past = &data[1024 / sizeof(u32)];
	*past = 0x12345678;
	/* Kept, not freed: the periodic check (or meminfo -c) must find it. */
}

static __attribute__((noipa)) void lkdtm_WRITE_AFTER_FREE(void)
{
	u32 *base = kmalloc(1024);
	u32 *volatile again;

	if (!base)
		return;
	kfree(base);
	pr_info("lkdtm: attempting bad write to freed memory at %p\n", base);
	again = base;
	again[512 / sizeof(u32)] = 0x0abcdef0;
}

/* Reads cannot be caught; the poison shows that freed memory holds no stale data. */
static __attribute__((noipa)) void lkdtm_READ_AFTER_FREE(void)
{
	u32 *base = kmalloc(1024);
	u32 *volatile again;

	if (!base)
		return;
	base[0] = 0x12345678;
	kfree(base);
	again = base;
	if (again[0] == 0x12345678)
		pr_err("lkdtm: FAIL: memory was not poisoned at %p\n", base);
	else
		pr_info("lkdtm: memory correctly poisoned (%#x)\n", again[0]);
}

static __attribute__((noipa)) void lkdtm_SLAB_FREE_DOUBLE(void)
{
	void *p = kmalloc(64);

	pr_info("lkdtm: attempting double slab free of %p\n", p);
	kfree(p);
	kfree(p);
}

/* As Linux's (3.x): a sleep with preemption off, which might_sleep reports. */
static __attribute__((noipa)) void lkdtm_ATOMIC_SLEEP(void)
{
	preempt_disable();
	msleep(1);
	preempt_enable();
}

static void lkdtm_warn_if_debug_off(void)
{
	if (!debug_locks)
		pr_info("lkdtm: lock debugging is off (an earlier report turned it off)\n");
}

/*
 * The same spinlock twice on one CPU: 2.6.18's spinlock debugging reports
 * the recursion before the second spin_lock spins for ever, and Kobold's
 * then goes on without taking it again.
 */
static __attribute__((noipa)) void lkdtm_SPINLOCK_RECURSION(void)
{
	static DEFINE_SPINLOCK(lkdtm_lock);

	lkdtm_warn_if_debug_off();
	spin_lock(&lkdtm_lock);
	spin_lock(&lkdtm_lock);
	spin_unlock(&lkdtm_lock);
	spin_unlock(&lkdtm_lock);
}

/*
 * Two lock classes taken A then B, then B then A: the validator reports the
 * inversion at the second order, before any deadlock. The locks are only
 * the validator's maps (lock_acquire and lock_release as a lock would call
 * them), so nothing can hang.
 */
static __attribute__((noipa)) void lkdtm_LOCKDEP_ABBA(void)
{
	static struct lock_class_key key_a, key_b;
	static struct lockdep_map lock_a, lock_b;

	lkdtm_warn_if_debug_off();
	lockdep_init_map(&lock_a, "lkdtm_lock_a", &key_a);
	lockdep_init_map(&lock_b, "lkdtm_lock_b", &key_b);
	lock_acquire(&lock_a, 0, false, 0, _THIS_IP_);
	lock_acquire(&lock_b, 0, false, 0, _THIS_IP_);
	lock_release(&lock_b, _THIS_IP_);
	lock_release(&lock_a, _THIS_IP_);
	lock_acquire(&lock_b, 0, false, 0, _THIS_IP_);
	lock_acquire(&lock_a, 0, false, 0, _THIS_IP_);
	lock_release(&lock_a, _THIS_IP_);
	lock_release(&lock_b, _THIS_IP_);
}

/*
 * A busy loop with preemption off, so this CPU's watchdog never runs. Linux's
 * spins for ever; Kobold's stops once the watchdog has reported it (or a few
 * seconds past the threshold), so that the console comes back.
 */
static __attribute__((noipa)) void lkdtm_SOFTLOCKUP(void)
{
	unsigned long start = jiffies, seen;
	unsigned int cpu, thresh = softlockup_threshold();

	if (!thresh) {
		pr_info("lkdtm: the watchdog is off (softlockup_thresh=0)\n");
		return;
	}
	preempt_disable();
	cpu = smp_processor_id();
	seen = softlockup_reports(cpu);
	while (softlockup_reports(cpu) == seen && jiffies - start < (thresh + 5) * HZ)
		cpu_relax();
	preempt_enable();
}

struct crashtype {
	const char *name;
	void (*func)(void);
};

#define CRASHTYPE(x) { #x, lkdtm_##x }
static const struct crashtype crashtypes[] = {
	CRASHTYPE(NULL_DEREF),
	CRASHTYPE(ACCESS_USERSPACE),
	CRASHTYPE(SLAB_LINEAR_OVERFLOW),
	CRASHTYPE(WRITE_AFTER_FREE),
	CRASHTYPE(READ_AFTER_FREE),
	CRASHTYPE(SLAB_FREE_DOUBLE),
	CRASHTYPE(ATOMIC_SLEEP),
	CRASHTYPE(SPINLOCK_RECURSION),
	CRASHTYPE(LOCKDEP_ABBA),
	CRASHTYPE(SOFTLOCKUP),
};

static const struct crashtype *find_crashtype(const char *name)
{
	for (unsigned int i = 0; i < ARRAY_SIZE(crashtypes); i++)
		if (sysfs_streq(name, crashtypes[i].name))
			return &crashtypes[i];
	return NULL;
}

static int lkdtm_do_action(const char *name)
{
	const struct crashtype *ct = find_crashtype(name);

	if (!ct)
		return -EINVAL;
	pr_info("lkdtm: performing direct entry %s\n", ct->name);
	ct->func();
	return 0;
}

/* /sys/kernel/debug/provoke-crash/DIRECT: Linux's debugfs file, in sysfs here. */
static ssize_t direct_show(struct kset *kset, char *buf)
{
	int len = scnprintf(buf, SYSFS_PAGE_SIZE, "Available crash types:\n");

	for (unsigned int i = 0; i < ARRAY_SIZE(crashtypes); i++)
		len += scnprintf(buf + len, SYSFS_PAGE_SIZE - (size_t)len, "%s\n",
				 crashtypes[i].name);
	return len;
}

static ssize_t direct_store(struct kset *kset, const char *buf, size_t count)
{
	int err = lkdtm_do_action(buf);

	return err ? err : (ssize_t)count;
}

static struct subsys_attribute direct_attr = {
	.attr = { .name = "DIRECT", .mode = S_IRUSR | S_IWUSR },
	.show = direct_show,
	.store = direct_store,
};

static struct kset debug_kset, provoke_crash_kset;

static int lkdtm_register(void)
{
	int err;

	kobject_set_name(&debug_kset.kobj, "debug");
	debug_kset.kobj.parent = &kernel_subsys.kobj;
	err = kset_register(&debug_kset);
	if (err)
		return err;
	kobject_set_name(&provoke_crash_kset.kobj, "provoke-crash");
	provoke_crash_kset.kobj.parent = &debug_kset.kobj;
	err = kset_register(&provoke_crash_kset);
	if (!err)
		err = subsys_create_file(&provoke_crash_kset, &direct_attr);
	return err;
}

void lkdtm_run(void)
{
	if (lkdtm_register())
		pr_err("lkdtm: no /sys/kernel/debug/provoke-crash\n");
	if (crash && lkdtm_do_action(crash))
		pr_err("lkdtm: unknown crash type \"%s\"\n", crash);
}
