/* lockdep_test.c: the lock validator reports an inverted order, a cycle through a third lock, recursion, a bad unlock and a lock used in an interrupt handler and with interrupts on, and nothing for a consistent order; then as the lock primitives call it. */
#include <kobold/device.h>
#include <kobold/ktest.h>
#include <kobold/lockdep.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/rwsem.h>
#include <kobold/semaphore.h>
#include <kobold/spinlock.h>

#define IP(n) ((unsigned long)(n)) /* call sites: any distinct numbers */

/* A lock of the test's own: its map, as a spinlock would hold one. */
struct test_lock {
	struct lockdep_map dep_map;
};

static void take(struct test_lock *l, unsigned long ip) { lock_acquire(&l->dep_map, 0, false, 0, ip); }
static void drop(struct test_lock *l, unsigned long ip) { lock_release(&l->dep_map, ip); }

static void init(struct test_lock *l, const char *name, const struct lock_class_key *key)
{
	lockdep_init_map(&l->dep_map, name, key);
}

/* A case's report turned lock debugging off: on again for the next case and suite. */
static void lockdep_test_exit(struct ktest *t) { lockdep_reset(); }

static int lockdep_test_init(struct ktest *t)
{
	lockdep_reset();
	return lockdep_current()->depth != 0; /* every test starts holding nothing */
}

static void lockdep_abba_is_reported_at_the_second_order(struct ktest *t)
{
	static struct lock_class_key ka, kb;
	struct test_lock a, b;
	u32 seq = log_seq();

	init(&a, "&a->lock", &ka);
	init(&b, "&b->lock", &kb);
	take(&a, IP(1));
	take(&b, IP(2)); /* a before b: recorded */
	drop(&b, IP(3));
	drop(&a, IP(4));
	KTEST_EXPECT_TRUE(t, debug_locks);
	KTEST_EXPECT_FALSE(t, log_search(seq, "circular"));
	take(&b, IP(5));
	take(&a, IP(6)); /* b before a: the cycle, reported before anyone waits */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible circular locking dependency detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "is trying to acquire lock:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #1 (&b->lock):"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #0 (&a->lock):"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "*** DEADLOCK ***"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "1 lock held by")); /* b: a is not held yet */
	KTEST_EXPECT_FALSE(t, debug_locks);			 /* one report, then lockdep is off */
	drop(&a, IP(7));
	drop(&b, IP(8));
}

static void lockdep_a_consistent_order_is_no_report(struct ktest *t)
{
	static struct lock_class_key ka, kb, kc;
	struct test_lock a, b, c;
	unsigned int deps = lockdep_nr_dependencies();
	u32 seq = log_seq();

	init(&a, "a", &ka);
	init(&b, "b", &kb);
	init(&c, "c", &kc);
	for (int i = 0; i < 3; i++) {
		take(&a, IP(1));
		take(&b, IP(2));
		take(&c, IP(3));
		drop(&c, IP(4));
		drop(&b, IP(5));
		drop(&a, IP(6));
		take(&b, IP(7)); /* b alone, and b before c: the same order */
		take(&c, IP(8));
		drop(&c, IP(9));
		drop(&b, IP(10));
	}
	KTEST_EXPECT_TRUE(t, debug_locks);
	KTEST_EXPECT_FALSE(t, log_search(seq, "WARNING"));
	KTEST_EXPECT_EQ(t, lockdep_nr_dependencies() - deps, 2); /* a->b, b->c: each once */
	KTEST_EXPECT_EQ(t, lockdep_current()->depth, 0);
}

static void lockdep_a_cycle_through_a_third_lock_is_found(struct ktest *t)
{
	static struct lock_class_key ka, kb, kc;
	struct test_lock a, b, c;
	u32 seq = log_seq();

	init(&a, "A", &ka);
	init(&b, "B", &kb);
	init(&c, "C", &kc);
	take(&a, IP(1)), take(&b, IP(2)), drop(&b, IP(3)), drop(&a, IP(4)); /* A before B */
	take(&b, IP(5)), take(&c, IP(6)), drop(&c, IP(7)), drop(&b, IP(8)); /* B before C */
	KTEST_EXPECT_FALSE(t, log_search(seq, "circular"));
	take(&c, IP(9));
	take(&a, IP(10)); /* C before A: A, B, C, A */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible circular locking dependency detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #2 (C):"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #1 (B):"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #0 (A):"));
	drop(&a, IP(11));
	drop(&c, IP(12));
}

static void lockdep_a_trylock_records_no_order(struct ktest *t)
{
	static struct lock_class_key ka, kb;
	struct test_lock a, b;
	u32 seq = log_seq();

	init(&a, "ta", &ka);
	init(&b, "tb", &kb);
	take(&a, IP(1));
	lock_acquire(&b.dep_map, 0, true, 0, IP(2)); /* a trylock never waits: no "a before b" */
	drop(&b, IP(3));
	drop(&a, IP(4));
	take(&b, IP(5));
	take(&a, IP(6));
	drop(&a, IP(7));
	drop(&b, IP(8));
	KTEST_EXPECT_TRUE(t, debug_locks);
	KTEST_EXPECT_FALSE(t, log_search(seq, "WARNING"));
}

static void lockdep_recursion_and_a_bad_unlock_are_reported(struct ktest *t)
{
	static struct lock_class_key ka, kb;
	struct test_lock a, b;
	u32 seq = log_seq();

	init(&a, "ra", &ka);
	init(&b, "rb", &kb);
	take(&a, IP(1));
	take(&a, IP(2));
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible recursive locking detected"));
	drop(&a, IP(3));
	drop(&a, IP(4));
	lockdep_reset();
	seq = log_seq();
	drop(&b, IP(5)); /* never taken */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: bad unlock balance detected!"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "is trying to release lock (rb) at:"));
	KTEST_EXPECT_FALSE(t, debug_locks);
}

/* The primitives as wired: a static lock is a class of its own, named after its variable. */
static DEFINE_MUTEX(wired_a);
static DEFINE_MUTEX(wired_b);

static void lockdep_wired_mutexes_report_abba_with_both_chains(struct ktest *t)
{
	u32 seq = log_seq();

	mutex_lock(&wired_a);
	mutex_lock(&wired_b);
	mutex_unlock(&wired_b);
	mutex_unlock(&wired_a);
	KTEST_EXPECT_TRUE(t, debug_locks);
	mutex_lock(&wired_b);
	mutex_lock(&wired_a); /* uncontended: no deadlock today, the report all the same */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible circular locking dependency detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "is trying to acquire lock:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (wired_a), at: "));
	KTEST_EXPECT_TRUE(t, log_search(seq, "but task is already holding lock:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (wired_b), at: "));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #1 (wired_b):"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "while holding (wired_a)"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #0 (wired_a):"));
	KTEST_EXPECT_FALSE(t, debug_locks);
	mutex_unlock(&wired_a);
	mutex_unlock(&wired_b);
}

struct two_locks {
	spinlock_t lock;
	struct mutex m;
};

static void init_two(struct two_locks *l)
{
	spin_lock_init(&l->lock); /* one line: one class for every instance */
	mutex_init(&l->m);
}

static void lockdep_one_init_site_is_one_class(struct ktest *t)
{
	struct two_locks x, y;
	unsigned int classes;
	u32 seq = log_seq();

	init_two(&x);
	init_two(&y);
	spin_lock(&x.lock);
	classes = lockdep_nr_classes();
	spin_lock(&y.lock); /* another instance of a class already held */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible recursive locking detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (&l->lock), at: "));
	KTEST_EXPECT_EQ(t, lockdep_nr_classes(), classes); /* no new class for y */
	spin_unlock(&y.lock);
	spin_unlock(&x.lock);
}

static void lockdep_a_nested_subclass_is_no_recursion(struct ktest *t)
{
	struct two_locks parent, child;
	u32 seq = log_seq();

	init_two(&parent);
	init_two(&child);
	mutex_lock(&parent.m);
	mutex_lock_nested(&child.m, SINGLE_DEPTH_NESTING); /* a parent's, then its child's */
	mutex_unlock(&child.m);
	mutex_unlock(&parent.m);
	KTEST_EXPECT_TRUE(t, debug_locks);
	mutex_lock_nested(&child.m, SINGLE_DEPTH_NESTING);
	mutex_lock(&parent.m); /* the child's before its parent's: the inverted order */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible circular locking dependency detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "(&l->m/1)"));
	mutex_unlock(&parent.m);
	mutex_unlock(&child.m);
}

static void lockdep_semaphores_of_count_one_are_locks(struct ktest *t)
{
	static DECLARE_MUTEX(sem_a);
	static DECLARE_MUTEX(sem_b);
	struct semaphore pool;
	u32 seq = log_seq();

	sema_init(&pool, 2); /* a count, not a lock: lockdep leaves it alone */
	down(&pool);
	down(&pool);
	up(&pool);
	up(&pool);
	KTEST_EXPECT_TRUE(t, debug_locks);
	down(&sem_a);
	down(&sem_b);
	up(&sem_b);
	up(&sem_a);
	down(&sem_b);
	KTEST_EXPECT_EQ(t, down_trylock(&sem_a), 0); /* a trylock never waits: no report */
	up(&sem_a);
	KTEST_EXPECT_TRUE(t, debug_locks);
	down(&sem_a);
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible circular locking dependency detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #1 (sem_b):"));
	up(&sem_a);
	up(&sem_b);
}

static void lockdep_rwsem_readers_and_rwlock_readers(struct ktest *t)
{
	static DECLARE_RWSEM(rw);
	static DEFINE_RWLOCK(rl);
	u32 seq = log_seq();

	read_lock(&rl);
	read_lock(&rl); /* rwlock_t readers may nest */
	read_unlock(&rl);
	read_unlock(&rl);
	KTEST_EXPECT_TRUE(t, debug_locks);
	down_read(&rw);
	down_read(&rw); /* an rwsem reader may not: a writer between them deadlocks */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible recursive locking detected"));
	up_read(&rw);
	up_read(&rw);
}

static void lockdep_off_reports_nothing(struct ktest *t)
{
	static DEFINE_SPINLOCK(off_a);
	static DEFINE_SPINLOCK(off_b);
	u32 seq = log_seq();

	debug_locks = false; /* as the boot option debug_locks=0 */
	spin_lock(&off_a), spin_lock(&off_b), spin_unlock(&off_b), spin_unlock(&off_a);
	spin_lock(&off_b), spin_lock(&off_a), spin_unlock(&off_a), spin_unlock(&off_b);
	KTEST_EXPECT_FALSE(t, log_search(seq, "WARNING"));
	KTEST_EXPECT_EQ(t, lockdep_current()->depth, 0);
}

/*
 * Two of the device model's own locks, in the documented order (a device's
 * dev->sem, then its class's semaphore: probe registers class devices),
 * then inverted: the report names both, before anyone waits.
 */
static void lockdep_device_model_locks_in_both_orders(struct ktest *t)
{
	static struct class cls = { .name = "ktest_lockdep" };
	struct device dev = { 0 };
	u32 seq = log_seq();

	device_initialize(&dev); /* dev->sem: one class for every device */
	KTEST_ASSERT_EQ(t, class_register(&cls), 0);
	down(&dev.sem);
	down(&cls.sem);
	up(&cls.sem);
	up(&dev.sem);
	KTEST_EXPECT_TRUE(t, debug_locks);
	KTEST_EXPECT_FALSE(t, log_search(seq, "WARNING"));
	down(&cls.sem);
	down(&dev.sem);
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible circular locking dependency detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (&dev->sem), at: "));
	KTEST_EXPECT_TRUE(t, log_search(seq, "but task is already holding lock:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (&cls->sem), at: "));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #1 (&cls->sem):"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "-> #0 (&dev->sem):"));
	up(&dev.sem);
	up(&cls.sem);
	class_unregister(&cls);
	kobject_forget(&dev.kobj); /* never added: no release to run */
}

/* Runs @fn as an interrupt handler would: in_irq() true, interrupts off. */
static void in_hardirq(void (*fn)(void *), void *arg)
{
	unsigned long flags = raw_local_irq_save();

	__preempt_count += HARDIRQ_OFFSET;
	fn(arg);
	__preempt_count -= HARDIRQ_OFFSET;
	raw_local_irq_restore(flags);
}

static void handler_spin_lock(void *arg)
{
	spinlock_t *lock = arg;

	spin_lock(lock);
	spin_unlock(lock);
}

struct irq_test_lock {
	spinlock_t lock;
};

/* Each test's lock a class of its own: the usage bits stay with the class. */
static void init_irq_lock(struct irq_test_lock *l) { spin_lock_init(&l->lock); }
static void init_irq_lock2(struct irq_test_lock *l) { spin_lock_init(&l->lock); }

static void lockdep_hardirq_then_plain_spin_lock_is_inconsistent(struct ktest *t)
{
	struct irq_test_lock l;
	u32 seq = log_seq();

	init_irq_lock(&l);
	in_hardirq(handler_spin_lock, &l.lock); /* {in-hardirq-W} */
	spin_lock_irq(&l.lock);			/* interrupts off by the caller: consistent */
	spin_unlock_irq(&l.lock);
	KTEST_EXPECT_TRUE(t, debug_locks);
	KTEST_EXPECT_FALSE(t, log_search(seq, "inconsistent"));
	spin_lock(&l.lock); /* the caller had them on: {hardirq-on-W}, though spin_lock turned them off */
	KTEST_EXPECT_TRUE(t, irqs_disabled());
	spin_unlock(&l.lock);
	KTEST_EXPECT_FALSE(t, irqs_disabled());
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: inconsistent lock state"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "inconsistent {in-hardirq-W} -> {hardirq-on-W} usage."));
	KTEST_EXPECT_TRUE(t, log_search(seq, "[HC0[0]:SC0[0]:HE1:SE0] takes:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (&l->lock), at: "));
	KTEST_EXPECT_TRUE(t, log_search(seq, "{in-hardirq-W} state was registered at:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "no locks held by "));
	KTEST_EXPECT_FALSE(t, debug_locks); /* one report, then lockdep is off */
}

static void lockdep_plain_spin_lock_then_hardirq_is_inconsistent(struct ktest *t)
{
	struct irq_test_lock l;
	unsigned long flags;
	u32 seq = log_seq();

	init_irq_lock2(&l);
	spin_lock_irqsave(&l.lock, flags);
	spin_unlock_irqrestore(&l.lock, flags);
	KTEST_EXPECT_TRUE(t, spin_trylock(&l.lock)); /* a trylock with interrupts on: {hardirq-on-W} */
	spin_unlock(&l.lock);
	KTEST_EXPECT_TRUE(t, debug_locks);
	in_hardirq(handler_spin_lock, &l.lock);
	KTEST_EXPECT_TRUE(t, log_search(seq, "inconsistent {hardirq-on-W} -> {in-hardirq-W} usage."));
	KTEST_EXPECT_TRUE(t, log_search(seq, "[HC1[1]:SC0[0]:HE0:SE0] takes:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "{hardirq-on-W} state was registered at:"));
	KTEST_EXPECT_FALSE(t, debug_locks);
}

static void handler_read_lock(void *arg)
{
	rwlock_t *lock = arg;

	read_lock(lock);
	read_unlock(lock);
}

static void lockdep_rwlock_readers_in_a_handler(struct ktest *t)
{
	static DEFINE_RWLOCK(irq_rl);
	unsigned long flags;
	u32 seq = log_seq();

	in_hardirq(handler_read_lock, &irq_rl); /* {in-hardirq-R} */
	read_lock(&irq_rl);			/* readers with interrupts on: they do not exclude the handler's */
	read_unlock(&irq_rl);
	write_lock_irqsave(&irq_rl, flags); /* a writer with interrupts off */
	write_unlock_irqrestore(&irq_rl, flags);
	KTEST_EXPECT_TRUE(t, debug_locks);
	write_lock(&irq_rl); /* a writer with them on: the handler's reader would spin */
	write_unlock(&irq_rl);
	KTEST_EXPECT_TRUE(t, log_search(seq, "inconsistent {in-hardirq-R} -> {hardirq-on-W} usage."));
}

static const struct ktest_case lockdep_cases[] = {
	KTEST_CASE(lockdep_abba_is_reported_at_the_second_order),
	KTEST_CASE(lockdep_a_consistent_order_is_no_report),
	KTEST_CASE(lockdep_a_cycle_through_a_third_lock_is_found),
	KTEST_CASE(lockdep_a_trylock_records_no_order),
	KTEST_CASE(lockdep_recursion_and_a_bad_unlock_are_reported),
	KTEST_CASE(lockdep_wired_mutexes_report_abba_with_both_chains),
	KTEST_CASE(lockdep_one_init_site_is_one_class),
	KTEST_CASE(lockdep_a_nested_subclass_is_no_recursion),
	KTEST_CASE(lockdep_semaphores_of_count_one_are_locks),
	KTEST_CASE(lockdep_rwsem_readers_and_rwlock_readers),
	KTEST_CASE(lockdep_off_reports_nothing),
	KTEST_CASE(lockdep_device_model_locks_in_both_orders),
	KTEST_CASE(lockdep_hardirq_then_plain_spin_lock_is_inconsistent),
	KTEST_CASE(lockdep_plain_spin_lock_then_hardirq_is_inconsistent),
	KTEST_CASE(lockdep_rwlock_readers_in_a_handler),
	KTEST_END,
};

static struct ktest_suite lockdep_suite = {
	.name = "lockdep",
	.cases = lockdep_cases,
	.init = lockdep_test_init,
	.exit = lockdep_test_exit,
};
KTEST_SUITE(lockdep_suite);
