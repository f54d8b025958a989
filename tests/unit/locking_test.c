/* locking_test.c: atomic_t and kref, the spinlock and rwlock debugging, and the sleeping locks' counts when uncontended. */
#include <kobold/atomic.h>
#include <kobold/completion.h>
#include <kobold/errno.h>
#include <kobold/kref.h>
#include <kobold/ktest.h>
#include <kobold/lockdep.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/rwsem.h>
#include <kobold/sched.h>
#include <kobold/semaphore.h>
#include <kobold/signal.h>
#include <kobold/spinlock.h>

/* A case's report turned lock debugging off: on again for the next case and suite. */
static void locking_test_exit(struct ktest *t) { lockdep_reset(); }

static int locking_test_init(struct ktest *t)
{
	lockdep_reset(); /* a spinlock report turns lock debugging off, as in Linux */
	return preempt_count() != 0;
}

static void locking_atomic_ops_return_the_new_value(struct ktest *t)
{
	atomic_t v = ATOMIC_INIT(5);

	KTEST_EXPECT_EQ(t, atomic_add_return(3, &v), 8);
	KTEST_EXPECT_EQ(t, atomic_sub_return(10, &v), -2);
	atomic_inc(&v);
	atomic_add(3, &v);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 2);
	KTEST_EXPECT_FALSE(t, atomic_dec_and_test(&v));	 /* 1 */
	KTEST_EXPECT_TRUE(t, atomic_dec_and_test(&v));	 /* 0 */
	KTEST_EXPECT_EQ(t, atomic_cmpxchg(&v, 1, 7), 0); /* not 1: unchanged */
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
	KTEST_EXPECT_EQ(t, atomic_cmpxchg(&v, 0, 7), 0);
	KTEST_EXPECT_EQ(t, atomic_read(&v), 7);
	KTEST_EXPECT_TRUE(t, atomic_inc_not_zero(&v));
	atomic_set(&v, 0);
	KTEST_EXPECT_FALSE(t, atomic_inc_not_zero(&v));
	KTEST_EXPECT_EQ(t, atomic_read(&v), 0);
}

static int released;
static void count_release(struct kref *kref) { released++; }

static void locking_kref_releases_at_the_last_put(struct ktest *t)
{
	struct kref k;

	released = 0;
	kref_init(&k);
	kref_get(&k);
	KTEST_EXPECT_EQ(t, kref_read(&k), 2);
	KTEST_EXPECT_EQ(t, kref_put(&k, count_release), 0);
	KTEST_EXPECT_EQ(t, released, 0);
	KTEST_EXPECT_EQ(t, kref_put(&k, count_release), 1);
	KTEST_EXPECT_EQ(t, released, 1);
}

static void locking_spinlock_counts_preemption(struct ktest *t)
{
	DEFINE_SPINLOCK(lock);
	unsigned long flags;
	int base = preempt_count();

	spin_lock(&lock);
	KTEST_EXPECT_TRUE(t, spin_is_locked(&lock));
	KTEST_EXPECT_EQ(t, preempt_count(), base + 1);
	KTEST_EXPECT_TRUE(t, in_atomic());
	KTEST_EXPECT_PTR_EQ(t, lock.owner, current);
	KTEST_EXPECT_FALSE(t, spin_trylock(&lock));
	KTEST_EXPECT_EQ(t, preempt_count(), base + 1); /* a failed trylock gives it back */
	spin_unlock(&lock);
	KTEST_EXPECT_FALSE(t, spin_is_locked(&lock));
	KTEST_EXPECT_EQ(t, preempt_count(), base);
	spin_lock_irqsave(&lock, flags);
	KTEST_EXPECT_EQ(t, preempt_count(), base + 1);
	spin_unlock_irqrestore(&lock, flags);
	KTEST_EXPECT_TRUE(t, spin_trylock(&lock));
	spin_unlock(&lock);
	KTEST_EXPECT_EQ(t, preempt_count(), base);
	KTEST_EXPECT_TRUE(t, debug_locks); /* nothing reported */
}

/* With lockdep on, it sees a spinlock taken twice first, and reports in its own words (2.6.18). */
static void locking_spinlock_recursion_is_reported(struct ktest *t)
{
	spinlock_t lock;
	u32 seq = log_seq();

	spin_lock_init(&lock);
	spin_lock(&lock);
	spin_lock(&lock); /* on one CPU this would hang: it is reported instead */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: possible recursive locking detected"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " (&lock), at: "));
	KTEST_EXPECT_FALSE(t, debug_locks); /* reported once, then off */
	spin_unlock(&lock);
	spin_unlock(&lock);
	lockdep_reset();
	seq = log_seq();
	spin_unlock(&lock); /* not held */
	KTEST_EXPECT_TRUE(t, log_search(seq, "WARNING: bad unlock balance detected!"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "is trying to release lock (&lock) at:"));
	lockdep_reset();
	__preempt_count = 0; /* the unbalanced unlocks above */
}

/* The lock word's own checks (CONFIG_DEBUG_SPINLOCK), below lockdep's hooks. */
static void locking_spinlock_debug_checks_the_word(struct ktest *t)
{
	spinlock_t lock;
	u32 seq = log_seq();

	spin_lock_init(&lock);
	_raw_spin_lock(&lock);
	_raw_spin_lock(&lock);
	KTEST_EXPECT_TRUE(t, log_search(seq, "BUG: spinlock recursion on CPU#"));
	KTEST_EXPECT_TRUE(t, log_search(seq, ".magic: dead4ead, .owner: "));
	KTEST_EXPECT_FALSE(t, debug_locks);
	_raw_spin_unlock(&lock); /* the recursion's: it was not taken */
	_raw_spin_unlock(&lock);
	lockdep_reset();
	seq = log_seq();
	_raw_spin_unlock(&lock); /* not held */
	KTEST_EXPECT_TRUE(t, log_search(seq, "BUG: spinlock already unlocked on CPU#"));
	KTEST_EXPECT_TRUE(t, log_search(seq, ".owner: <none>/-1, .owner_cpu: -1"));
	lockdep_reset();
}

static void locking_rwlock_readers_share_a_writer_is_alone(struct ktest *t)
{
	DEFINE_RWLOCK(lock);
	u32 seq = log_seq();

	read_lock(&lock);
	read_lock(&lock);
	KTEST_EXPECT_EQ(t, lock.readers, 2);
	read_unlock(&lock);
	read_unlock(&lock);
	write_lock(&lock);
	KTEST_EXPECT_EQ(t, lock.readers, -1);
	write_unlock(&lock);
	KTEST_EXPECT_EQ(t, preempt_count(), 0);
	KTEST_EXPECT_FALSE(t, log_search(seq, "BUG: rwlock"));
	_raw_write_unlock(&lock); /* not held: the word's check (lockdep would see it first) */
	KTEST_EXPECT_TRUE(t, log_search(seq, "BUG: rwlock already unlocked on CPU#"));
	lockdep_reset();
	__preempt_count = 0;
}

static void locking_semaphore_counts_units(struct ktest *t)
{
	struct semaphore sem;

	sema_init(&sem, 2);
	down(&sem);
	KTEST_EXPECT_EQ(t, down_interruptible(&sem), 0);
	KTEST_EXPECT_EQ(t, sem.count, 0);
	KTEST_EXPECT_EQ(t, down_trylock(&sem), 1); /* none left: 2.6's 1 */
	up(&sem);
	KTEST_EXPECT_EQ(t, down_trylock(&sem), 0);
	up(&sem);
	up(&sem);
	KTEST_EXPECT_EQ(t, sem.count, 2);
	KTEST_EXPECT_TRUE(t, list_empty(&sem.wait.head));
}

static void locking_mutex_has_one_owner(struct ktest *t)
{
	DEFINE_MUTEX(m);
	unsigned long warns = warn_count;

	mutex_lock(&m);
	KTEST_EXPECT_TRUE(t, mutex_is_locked(&m));
	KTEST_EXPECT_PTR_EQ(t, m.owner, current);
	KTEST_EXPECT_EQ(t, mutex_trylock(&m), 0);
	mutex_unlock(&m);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&m));
	KTEST_EXPECT_EQ(t, mutex_trylock(&m), 1);
	mutex_unlock(&m);
	KTEST_EXPECT_EQ(t, mutex_lock_interruptible(&m), 0);
	mutex_unlock(&m);
	KTEST_EXPECT_EQ(t, warn_count, warns);
	mutex_unlock(&m); /* not locked: a warning, and nothing changes */
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	KTEST_EXPECT_FALSE(t, mutex_is_locked(&m));
}

static void locking_rwsem_readers_or_one_writer(struct ktest *t)
{
	DECLARE_RWSEM(sem);

	down_read(&sem);
	KTEST_EXPECT_EQ(t, down_read_trylock(&sem), 1);
	KTEST_EXPECT_EQ(t, down_write_trylock(&sem), 0);
	up_read(&sem);
	up_read(&sem);
	down_write(&sem);
	KTEST_EXPECT_EQ(t, down_read_trylock(&sem), 0);
	downgrade_write(&sem);
	KTEST_EXPECT_EQ(t, down_read_trylock(&sem), 1);
	up_read(&sem);
	up_read(&sem);
	KTEST_EXPECT_EQ(t, sem.activity, 0);
}

static void locking_completion_counts_each_complete(struct ktest *t)
{
	DECLARE_COMPLETION(done);

	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&done));
	complete(&done);
	complete(&done);
	wait_for_completion(&done); /* already there: no sleep */
	KTEST_EXPECT_EQ(t, wait_for_completion_interruptible(&done), 0);
	KTEST_EXPECT_FALSE(t, try_wait_for_completion(&done));
	complete_all(&done);
	wait_for_completion(&done);
	wait_for_completion(&done);
	KTEST_EXPECT_TRUE(t, try_wait_for_completion(&done));
}

/* A signal ends the interruptible waits as 2.6.15's: -EINTR from the locks, -ERESTARTSYS from the waits. */
static void locking_interrupted_waits_return_what_2_6_returns(struct ktest *t)
{
	DECLARE_WAIT_QUEUE_HEAD(wq);
	DECLARE_COMPLETION(done);
	struct semaphore sem;
	DEFINE_MUTEX(m);
	u64 old;

	sema_init(&sem, 0);
	m.locked = 1;		      /* as if another task held it: lockdep sees no recursion */
	old = signal_set_deadline(1); /* passed: a signal pending, and no ^C echoed */
	KTEST_EXPECT_EQ(t, mutex_lock_interruptible(&m), -EINTR);
	KTEST_EXPECT_EQ(t, down_interruptible(&sem), -EINTR);
	KTEST_EXPECT_EQ(t, wait_for_completion_interruptible(&done), -ERESTARTSYS);
	KTEST_EXPECT_EQ(t, wait_event_interruptible(wq, false), -ERESTARTSYS);
	signal_set_deadline(old);
	KTEST_EXPECT_EQ(t, sem.count, 0);
	KTEST_EXPECT_TRUE(t, m.locked == 1 && !m.owner);
	KTEST_EXPECT_TRUE(t, list_empty(&wq.head) && list_empty(&sem.wait.head));
	m.locked = 0;
}

static void locking_might_sleep_in_atomic_is_reported(struct ktest *t)
{
	u32 seq = log_seq();
	bool was_running = scheduler_running;

	scheduler_running = true; /* the host has no scheduler to say so */
	might_sleep();
	KTEST_EXPECT_FALSE(t, log_search(seq, "BUG: sleeping function"));
	preempt_disable();
	might_sleep();
	preempt_enable();
	scheduler_running = was_running;
	KTEST_EXPECT_TRUE(t,
			  log_search(seq, "BUG: sleeping function called from invalid context at "));
	KTEST_EXPECT_TRUE(t, log_search(seq, "locking_test.c:"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "in_atomic():1, irqs_disabled():0"));
}

static const struct ktest_case locking_cases[] = {
	KTEST_CASE(locking_atomic_ops_return_the_new_value),
	KTEST_CASE(locking_kref_releases_at_the_last_put),
	KTEST_CASE(locking_spinlock_counts_preemption),
	KTEST_CASE(locking_spinlock_recursion_is_reported),
	KTEST_CASE(locking_spinlock_debug_checks_the_word),
	KTEST_CASE(locking_rwlock_readers_share_a_writer_is_alone),
	KTEST_CASE(locking_semaphore_counts_units),
	KTEST_CASE(locking_mutex_has_one_owner),
	KTEST_CASE(locking_rwsem_readers_or_one_writer),
	KTEST_CASE(locking_completion_counts_each_complete),
	KTEST_CASE(locking_interrupted_waits_return_what_2_6_returns),
	KTEST_CASE(locking_might_sleep_in_atomic_is_reported),
	KTEST_END,
};

static struct ktest_suite locking_suite = {
	.name = "locking",
	.cases = locking_cases,
	.init = locking_test_init,
	.exit = locking_test_exit,
};
KTEST_SUITE(locking_suite);
