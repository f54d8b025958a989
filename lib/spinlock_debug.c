/*
 * spinlock_debug.c: the lock word of spinlock_t and rwlock_t, with Linux
 * 2.6.18's CONFIG_DEBUG_SPINLOCK checks (lib/spinlock_debug.c): a lock
 * taken by the thread that holds it, or released when not held or by
 * another thread, is reported once, as Linux reports it, and the kernel
 * goes on (on one CPU a recursion would otherwise hang for ever).
 */
#include <kobold/lockdep.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/spinlock.h>

static unsigned int this_cpu(void) { return 0; } /* one CPU schedules today */

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

void _raw_spin_lock(spinlock_t *lock)
{
	debug_spin_lock_before(lock);
	lock->slock = 0; /* SMP: spin here until it was 1 */
	debug_spin_lock_after(lock);
}

bool _raw_spin_trylock(spinlock_t *lock)
{
	if (spin_is_locked(lock))
		return false;
	lock->slock = 0;
	debug_spin_lock_after(lock);
	return true;
}

void _raw_spin_unlock(spinlock_t *lock)
{
	debug_spin_unlock(lock);
	lock->slock = 1;
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

void _raw_read_lock(rwlock_t *lock)
{
	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	RWLOCK_BUG_ON(lock->readers < 0, lock, "recursion"); /* a writer holds it here */
	lock->readers++;
}

void _raw_read_unlock(rwlock_t *lock)
{
	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	RWLOCK_BUG_ON(lock->readers <= 0, lock, "already unlocked");
	if (lock->readers > 0)
		lock->readers--;
}

void _raw_write_lock(rwlock_t *lock)
{
	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	RWLOCK_BUG_ON(lock->owner == current, lock, "recursion");
	RWLOCK_BUG_ON(lock->readers > 0, lock, "cpu recursion"); /* a reader here holds it */
	lock->readers = -1;
	lock->owner = current;
}

void _raw_write_unlock(rwlock_t *lock)
{
	RWLOCK_BUG_ON(lock->magic != RWLOCK_MAGIC, lock, "bad magic");
	RWLOCK_BUG_ON(lock->readers != -1, lock, "already unlocked");
	RWLOCK_BUG_ON(lock->owner != current, lock, "wrong owner");
	lock->readers = 0;
	lock->owner = NULL;
}
