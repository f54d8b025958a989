/*
 * lockdep.h: the lock validator, after Linux's lockdep (2.6.18): every
 * lock belongs to a class (its key: the place it was defined or
 * initialised), and each acquisition made while another lock is held
 * records the order "held before new" between their classes. The first
 * time an order is recorded that closes a cycle (A before B somewhere, B
 * before A now), it reports the possible deadlock with both chains, before
 * any CPU ever waits. Locks call lock_acquire()/lock_release(); held locks
 * are kept per task (struct lockdep_task, part of each thread).
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

/* In every lock: which class it is, and its name for reports. */
struct lockdep_map {
	const struct lock_class_key *key;
	const char *name;
	struct lock_class *class; /* found at the first acquire */
};

struct held_lock {
	struct lock_class *class;
	const struct lockdep_map *instance;
	unsigned long ip; /* where it was taken */
	bool trylock;
};

/* The locks one thread holds, innermost last. */
struct lockdep_task {
	int depth;
	struct held_lock held[MAX_LOCK_DEPTH];
};

/* False after the first report: lockdep stops checking, as Linux's debug_locks. */
extern bool debug_locks;

void lockdep_init_map(struct lockdep_map *map, const char *name,
		      const struct lock_class_key *key);
void lock_acquire(struct lockdep_map *map, bool trylock, unsigned long ip);
void lock_release(struct lockdep_map *map, unsigned long ip);
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

#define _THIS_IP_ ((unsigned long)__builtin_return_address(0))

#endif
