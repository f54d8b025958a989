/*
 * lockdep.h: the lock validator, after Linux's lockdep (2.6.18): every
 * lock belongs to a class (its key: the place it was defined or
 * initialised), and each acquisition made while another lock is held
 * records the order "held before new" between their classes. The first
 * time an order is recorded that closes a cycle (A before B somewhere, B
 * before A now), it reports the possible deadlock with both chains, before
 * any CPU ever waits. Each class also keeps how it has been used, as
 * 2.6.18's usage bits: taken in a hard interrupt handler, taken with hard
 * interrupts on; the first acquisition that gives a class both reports the
 * inconsistent lock state, before the interrupt ever comes at the wrong
 * moment. Locks call lock_acquire()/lock_release(); held locks are kept
 * per task (struct lockdep_task, part of each thread).
 */
#ifndef KOBOLD_LOCKDEP_H
#define KOBOLD_LOCKDEP_H

#include <kobold/types.h>

#define MAX_LOCK_DEPTH 48 /* locks one task may hold at once, as Linux's */

struct lock_class;

/* One per class: a static object whose address names the class. */
struct lock_class_key {
	char unused;
};

/*
 * In every lock: which class it is, and its name for reports. A lock
 * defined statically (DEFINE_SPINLOCK, DEFINE_MUTEX, ...) has no key: its
 * own address is the key, as Linux's static_obj() rule. A lock set up at
 * run time (spin_lock_init, mutex_init, ...) gets the static key of the
 * line that calls the init macro, so all the locks made there are one class.
 */
struct lockdep_map {
	const struct lock_class_key *key;
	const char *name;
	struct lock_class *class; /* subclass 0's, found at the first acquire */
};

#define STATIC_LOCKDEP_MAP_INIT(lockname) { .key = NULL, .name = (lockname), .class = NULL }

/* A lock of a class taken inside another of the same class (a parent's dev->sem, then its child's). */
#define MAX_LOCKDEP_SUBCLASSES 8
#define SINGLE_DEPTH_NESTING 1

struct held_lock {
	struct lock_class *class;
	const struct lockdep_map *instance;
	unsigned long ip; /* where it was taken */
	bool trylock;
	bool read;	   /* a shared (reader's) hold: readers of one lock do not exclude each other */
	bool irq_context;  /* taken by an interrupt handler: orders only against locks it took */
	bool hardirqs_off; /* the taker's interrupts were off (before a spin_lock turned them off) */
};

/* The locks one thread holds, innermost last. */
struct lockdep_task {
	int depth;
	struct held_lock held[MAX_LOCK_DEPTH];
};

/*
 * False after the first report: lockdep and the spinlock checks stop, as
 * Linux's debug_locks. The boot option debug_locks=0 starts with it off.
 */
extern bool debug_locks;

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key);
/*
 * Every lock primitive calls these: lock_acquire() before it may wait
 * (so an inverted order is reported before the deadlock), or after a
 * trylock succeeds; lock_release() as it lets go. @read: 1 for a reader
 * that excludes writers (rwsem), 2 for a reader that may nest (rwlock_t).
 */
void lock_acquire(struct lockdep_map *map, unsigned int subclass, bool trylock, int read,
		  unsigned long ip);
/*
 * As lock_acquire, for a lock that turns interrupts off before it calls
 * lockdep (Kobold's spin_lock: include/kobold/spinlock.h): @flags, from its
 * raw_local_irq_save, say whether its caller had them on.
 */
void lock_acquire_flags(struct lockdep_map *map, unsigned int subclass, bool trylock, int read,
			unsigned long flags, unsigned long ip);
void lock_release(struct lockdep_map *map, unsigned long ip);
/* True if the running task holds a lock of @map (semaphores: up() by another task is allowed). */
bool lock_is_held(const struct lockdep_map *map);

/* The primitives' names for the hooks, as 2.6.18's. */
#define spin_acquire(l, s, t, i) lock_acquire(l, s, t, 0, i)
#define spin_acquire_flags(l, s, t, f, i) lock_acquire_flags(l, s, t, 0, f, i)
#define spin_release(l, i) lock_release(l, i)
#define rwlock_acquire(l, s, t, i) lock_acquire(l, s, t, 0, i)
#define rwlock_acquire_read(l, s, t, i) lock_acquire(l, s, t, 2, i)
#define rwlock_release(l, i) lock_release(l, i)
#define mutex_acquire(l, s, t, i) lock_acquire(l, s, t, 0, i)
#define mutex_release(l, i) lock_release(l, i)
#define rwsem_acquire(l, s, t, i) lock_acquire(l, s, t, 0, i)
#define rwsem_acquire_read(l, s, t, i) lock_acquire(l, s, t, 1, i)
#define rwsem_release(l, i) lock_release(l, i)
/* "1 lock held by NAME/PID:" and each held lock, as debug_show_held_locks. */
void lockdep_print_held_locks(const struct lockdep_task *task);

/*
 * Provided by the scheduler: the running thread's held locks, its name
 * and id for reports. Lockdep's own defaults stand for one context.
 */
struct lockdep_task *lockdep_current(void);
const char *lockdep_task_name(const struct lockdep_task *task);
int lockdep_task_pid(const struct lockdep_task *task);

/* Classes and recorded orders so far (tests, /proc). */
unsigned int lockdep_nr_classes(void);
unsigned int lockdep_nr_dependencies(void);
/*
 * Tests: checking on again after a report, the running task's held locks
 * forgotten (a report stops the tracking); the graph is kept, so each test
 * uses keys of its own.
 */
void lockdep_reset(void);

/* Where the code is now (inside an inline lock function: its caller's line). */
#define _THIS_IP_                        \
	({                               \
		__label__ __here;        \
	__here:                          \
		(unsigned long)&&__here; \
	})
/* Where the running function was called from. */
#define _RET_IP_ ((unsigned long)__builtin_return_address(0))

#endif
