/*
 * spinlock_debug.c: the lock word of spinlock_t and rwlock_t, with Linux
 * 2.6.18's CONFIG_DEBUG_SPINLOCK checks (lib/spinlock_debug.c): a lock
 * taken by the thread that holds it, or released when not held or by
 * another thread, is reported once, as Linux reports it, and the kernel
 * goes on: a recursion is caught before the spin that would hang for ever,
 * and that lock is not taken again. A CPU that spins for a second prints
 * 2.6.18's "BUG: spinlock lockup" once and spins on.
 */
#include <kobold/lockdep.h>
#include <kobold/smp.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/spinlock.h>

static unsigned int this_cpu(void) { return smp_processor_id(); }

#define SPIN_LOCKUP_LOOPS 100000000UL /* about a second of pause loops under TCG */

/* The first report turns lock checking off, as 2.6.18's debug_locks_off(). */
static bool debug_locks_off(void)
{
	bool was = debug_locks;

	debug_locks = false;
	return was;
}

static void spin_bug(const spinlock_t *lock, const char *msg)
{
	const struct task_struct *owner = lock->owner;

	if (!debug_locks_off())
		return;
	printk(KERN_EMERG "BUG: spinlock %s on CPU#%u, %s/%d\n", msg, this_cpu(), current->comm,
	       current->pid);
	printk(KERN_EMERG " lock: %p, .magic: %08x, .owner: %s/%d, .owner_cpu: %d\n",
	       (const void *)lock, lock->magic, owner ? owner->comm : "<none>",
	       owner ? owner->pid : -1, lock->owner_cpu);
	dump_stack();
}

#define SPIN_BUG_ON(cond, lock, msg)         \
	do {                                 \
		if (unlikely(cond))          \
			spin_bug(lock, msg); \
	} while (0)

static void debug_spin_lock_before(const spinlock_t *lock)
{
	SPIN_BUG_ON(lock->magic != SPINLOCK_MAGIC, lock, "bad magic");
	SPIN_BUG_ON(lock->owner == current, lock, "recursion");
	SPIN_BUG_ON(lock->owner_cpu == (int)this_cpu(), lock, "cpu recursion");
}

static void debug_spin_lock_after(spinlock_t *lock)
{
	lock->owner_cpu = (int)this_cpu();
	lock->owner = current;
}

static void debug_spin_unlock(spinlock_t *lock)
{
	SPIN_BUG_ON(lock->magic != SPINLOCK_MAGIC, lock, "bad magic");
	SPIN_BUG_ON(!spin_is_locked(lock), lock, "already unlocked");
	SPIN_BUG_ON(lock->owner != current, lock, "wrong owner");
	SPIN_BUG_ON(lock->owner_cpu != (int)this_cpu(), lock, "wrong CPU");
	lock->owner = NULL;
	lock->owner_cpu = -1;
}

#ifdef KOBOLD_HOST
static inline bool try_word(volatile unsigned int *w) { return __atomic_exchange_n(w, 0, __ATOMIC_ACQUIRE) == 1; }
static inline void relax(void) {}
#else
/* xchg with memory is locked by itself (SDM vol. 3, 8.2.3.9): the old value says who won. */
static inline bool try_word(volatile unsigned int *w)
{
	unsigned int v = 0;

	__asm__ volatile("xchgl %0, %1" : "+r"(v), "+m"(*w) : : "memory");
	return v == 1;
}
static inline void relax(void) { __asm__ volatile("pause" ::: "memory"); }
#endif

/* 2.6.18's __spin_lock_debug: spin, and say so once if it takes a second. */
static void spin_lock_wait(spinlock_t *lock)
{
	bool printed = false;

	for (;;) {
		for (unsigned long i = 0; i < SPIN_LOCKUP_LOOPS; i++) {
			if (lock->slock == 1 && try_word(&lock->slock))
				return;
			relax();
		}
		if (!printed) {
			printed = true;
			printk(KERN_EMERG "BUG: spinlock lockup on CPU#%u, %s/%d, %p\n", this_cpu(),
			       current->comm, current->pid, (const void *)lock);
			dump_stack();
		}
	}
}

bool _raw_spin_lock(spinlock_t *lock)
{
	debug_spin_lock_before(lock);
	if (lock->owner == current && lock->slock == 0) {
		lock->nested++; /* reported: taking it again would spin for ever */
		return false;
	}
	if (!try_word(&lock->slock))
		spin_lock_wait(lock);
	debug_spin_lock_after(lock);
	return true;
}

bool _raw_spin_trylock(spinlock_t *lock)
{
	if (!try_word(&lock->slock))
		return false;
	debug_spin_lock_after(lock);
	return true;
}

bool _raw_spin_unlock(spinlock_t *lock)
{
	if (lock->nested > 0 && lock->owner == current) {
		lock->nested--;
		return false;
	}
	debug_spin_unlock(lock);
	if (!spin_is_locked(lock))
		return false;
	__atomic_store_n(&lock->slock, 1, __ATOMIC_RELEASE);
	return true;
}

static void rwlock_bug(const rwlock_t *lock, const char *msg)
{
	if (!debug_locks_off())
		return;
	printk(KERN_EMERG "BUG: rwlock %s on CPU#%u, %s/%d, %p\n", msg, this_cpu(), current->comm,
	       current->pid, (const void *)lock);
	dump_stack();
}

#define RWLOCK_BUG_ON(cond, lock, msg)         \
	do {                                   \
		if (unlikely(cond))            \
			rwlock_bug(lock, msg); \
	} while (0)

static bool rw_cmpxchg(volatile int *w, int old, int new)
{
	return __atomic_compare_exchange_n(w, &old, new, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void _raw_read_lock(rwlock_t *lock)
{
	int r;

	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	if (lock->readers < 0 && lock->owner == current) {
		rwlock_bug(lock, "recursion"); /* this thread writes it: waiting would hang */
		return;
	}
	while ((r = lock->readers) < 0 || !rw_cmpxchg(&lock->readers, r, r + 1))
		relax();
}

void _raw_read_unlock(rwlock_t *lock)
{
	int r;

	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	RWLOCK_BUG_ON(lock->readers <= 0, lock, "already unlocked");
	while ((r = lock->readers) > 0 && !rw_cmpxchg(&lock->readers, r, r - 1))
		relax();
}

void _raw_write_lock(rwlock_t *lock)
{
	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	if (lock->owner == current) {
		rwlock_bug(lock, "recursion");
		return;
	}
	while (!rw_cmpxchg(&lock->readers, 0, -1))
		relax();
	lock->owner = current;
}

void _raw_write_unlock(rwlock_t *lock)
{
	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	RWLOCK_BUG_ON(lock->readers != -1, lock, "already unlocked");
	RWLOCK_BUG_ON(lock->owner != current, lock, "wrong owner");
	if (lock->readers != -1)
		return;
	lock->owner = NULL;
	__atomic_store_n(&lock->readers, 0, __ATOMIC_RELEASE);
}
