/*
 * spinlock.h: spinlock_t and rwlock_t, as Linux 2.6's. A CPU takes the
 * lock word with a lock-prefixed exchange and spins while another holds
 * it; the holder is not preempted, and keeps its own interrupts off while
 * it holds the lock (so no interrupt handler on its CPU waits for the
 * interrupt lock, kernel/irq_lock.c, behind it). 2.6's spinlock debugging
 * (lib/spinlock_debug.c) checks each use: taking a lock its holder already
 * holds, or releasing one that is not held, prints "BUG: spinlock
 * recursion on CPU#0, sh/1" and the lock's state, as CONFIG_DEBUG_SPINLOCK
 * does; a recursion is caught before it spins, so the kernel goes on.
 * Each lock and unlock also tells lockdep (spin_acquire, spin_release),
 * which sees a recursion or an unbalanced unlock first and reports it in
 * its own words, as 2.6.18 does with CONFIG_PROVE_LOCKING. Lockdep hears
 * whether the CALLER had interrupts on: a plain spin_lock taken with them
 * on, of a lock an interrupt handler also takes, never deadlocks here (the
 * holder's interrupts are off), but lockdep reports it as 2.6.18's does.
 */
#ifndef KOBOLD_SPINLOCK_H
#define KOBOLD_SPINLOCK_H

#include <kobold/irqflags.h>
#include <kobold/lockdep.h>
#include <kobold/preempt.h>
#include <kobold/preempt_inject.h>
#include <kobold/types.h>

#define SPINLOCK_MAGIC 0xdead4ead
#define RWLOCK_MAGIC 0xdeaf1eed

struct task_struct;

typedef struct {
	volatile unsigned int slock; /* 1: free, 0: held (2.6 i386's sense) */
	unsigned int magic;
	int owner_cpu; /* -1: none */
	struct task_struct *owner;
	unsigned long irq_flags;    /* the holder's interrupt flag from before it took it */
	int nested;		    /* recursions reported and not taken */
	struct lockdep_map dep_map; /* its class for lockdep (kernel/lockdep.c) */
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED(name) \
	{ .slock = 1, .magic = SPINLOCK_MAGIC, .owner_cpu = -1, .dep_map = STATIC_LOCKDEP_MAP_INIT(#name) }
#define DEFINE_SPINLOCK(name) spinlock_t name = __SPIN_LOCK_UNLOCKED(name)
/* One lockdep class for every lock set up at this line, as 2.6.18's. */
#define spin_lock_init(lock)                                       \
	do {                                                       \
		static struct lock_class_key __key;                \
		*(lock) = (spinlock_t)__SPIN_LOCK_UNLOCKED(lock);  \
		lockdep_init_map(&(lock)->dep_map, #lock, &__key); \
	} while (0)

/* The checks and the lock word (lib/spinlock_debug.c). */
/* false: a recursion, reported, and the lock not taken a second time */
bool _raw_spin_lock(spinlock_t *lock);
/* false: not released (an unlock of a recursion, or of a lock not held) */
bool _raw_spin_unlock(spinlock_t *lock);
bool _raw_spin_trylock(spinlock_t *lock);

static inline bool spin_is_locked(const spinlock_t *lock) { return lock->slock == 0; }

static inline void spin_lock(spinlock_t *lock)
{
	unsigned long flags = raw_local_irq_save();

	preempt_disable();
	spin_acquire_flags(&lock->dep_map, 0, 0, flags, _THIS_IP_);
	if (_raw_spin_lock(lock))
		lock->irq_flags = flags;
}

static inline void spin_unlock(spinlock_t *lock)
{
	unsigned long flags = lock->irq_flags;

	spin_release(&lock->dep_map, _THIS_IP_);
	if (_raw_spin_unlock(lock))
		local_irq_restore(flags);
	preempt_enable();
	preempt_point(PI_SPIN_UNLOCK);
}

/* True if it took the lock. */
static inline bool spin_trylock(spinlock_t *lock)
{
	unsigned long flags = raw_local_irq_save();

	preempt_disable();
	if (_raw_spin_trylock(lock)) {
		lock->irq_flags = flags;
		spin_acquire_flags(&lock->dep_map, 0, 1, flags, _THIS_IP_);
		return true;
	}
	local_irq_restore(flags);
	preempt_enable();
	return false;
}

static inline void spin_lock_irq(spinlock_t *lock)
{
	raw_local_irq_disable();
	spin_lock(lock);
}

static inline void spin_unlock_irq(spinlock_t *lock)
{
	spin_release(&lock->dep_map, _THIS_IP_);
	_raw_spin_unlock(lock);
	local_irq_enable();
	preempt_enable();
}

#define spin_lock_irqsave(lock, flags)          \
	do {                                    \
		(flags) = raw_local_irq_save(); \
		spin_lock(lock);                \
	} while (0)

static inline void spin_unlock_irqrestore(spinlock_t *lock, unsigned long flags)
{
	spin_release(&lock->dep_map, _THIS_IP_);
	_raw_spin_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

/*
 * rwlock_t: many readers or one writer, each spinning for its turn on the
 * count with a lock-prefixed compare-and-exchange; the debugging reports a
 * writer inside a writer and an unlock of a lock nobody holds. Unlike a
 * spinlock it leaves the interrupt flag alone: take the _irqsave forms.
 */
typedef struct {
	volatile int readers; /* -1: a writer holds it */
	unsigned int magic;
	struct task_struct *owner; /* the writer */
	struct lockdep_map dep_map;
} rwlock_t;

#define __RW_LOCK_UNLOCKED(name) \
	{ .readers = 0, .magic = RWLOCK_MAGIC, .dep_map = STATIC_LOCKDEP_MAP_INIT(#name) }
#define DEFINE_RWLOCK(name) rwlock_t name = __RW_LOCK_UNLOCKED(name)
#define rwlock_init(lock)                                          \
	do {                                                       \
		static struct lock_class_key __key;                \
		*(lock) = (rwlock_t)__RW_LOCK_UNLOCKED(lock);      \
		lockdep_init_map(&(lock)->dep_map, #lock, &__key); \
	} while (0)

void _raw_read_lock(rwlock_t *lock);
void _raw_read_unlock(rwlock_t *lock);
void _raw_write_lock(rwlock_t *lock);
void _raw_write_unlock(rwlock_t *lock);

static inline void read_lock(rwlock_t *lock)
{
	preempt_disable();
	rwlock_acquire_read(&lock->dep_map, 0, 0, _THIS_IP_);
	_raw_read_lock(lock);
}

static inline void read_unlock(rwlock_t *lock)
{
	rwlock_release(&lock->dep_map, _THIS_IP_);
	_raw_read_unlock(lock);
	preempt_enable();
}

static inline void write_lock(rwlock_t *lock)
{
	preempt_disable();
	rwlock_acquire(&lock->dep_map, 0, 0, _THIS_IP_);
	_raw_write_lock(lock);
}

static inline void write_unlock(rwlock_t *lock)
{
	rwlock_release(&lock->dep_map, _THIS_IP_);
	_raw_write_unlock(lock);
	preempt_enable();
}

#define read_lock_irqsave(lock, flags)          \
	do {                                    \
		(flags) = raw_local_irq_save(); \
		read_lock(lock);                \
	} while (0)
#define write_lock_irqsave(lock, flags)         \
	do {                                    \
		(flags) = raw_local_irq_save(); \
		write_lock(lock);               \
	} while (0)

static inline void read_unlock_irqrestore(rwlock_t *lock, unsigned long flags)
{
	rwlock_release(&lock->dep_map, _THIS_IP_);
	_raw_read_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

static inline void write_unlock_irqrestore(rwlock_t *lock, unsigned long flags)
{
	rwlock_release(&lock->dep_map, _THIS_IP_);
	_raw_write_unlock(lock);
	local_irq_restore(flags);
	preempt_enable();
}

#endif
