/*
 * semaphore.h: the counting semaphore, 2.6's sleeping lock (the article's
 * era guarded the device model with them: a subsystem's rwsem, dev->sem).
 * down() takes one unit of the count, sleeping while there is none; up()
 * gives one back and wakes the sleepers. A count of 1 makes a mutex
 * (init_MUTEX, DECLARE_MUTEX: 2.6's names, before struct mutex).
 */
#ifndef KOBOLD_SEMAPHORE_H
#define KOBOLD_SEMAPHORE_H

#include <kobold/lockdep.h>
#include <kobold/wait.h>

struct semaphore {
	int count; /* units left; changed with interrupts off */
	struct wait_queue_head wait;
	bool is_mutex; /* set up with a count of 1: lockdep watches it */
	struct lockdep_map dep_map;
};

#define __SEMAPHORE_INITIALIZER(name, n) \
	{ .count = (n), .wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait), .is_mutex = (n) == 1, .dep_map = STATIC_LOCKDEP_MAP_INIT(#name) }
#define DECLARE_MUTEX(name) struct semaphore name = __SEMAPHORE_INITIALIZER(name, 1)

static inline void __sema_init(struct semaphore *sem, int val, const char *name,
			       struct lock_class_key *key)
{
	sem->count = val;
	sem->is_mutex = val == 1;
	init_waitqueue_head(&sem->wait);
	lockdep_init_map(&sem->dep_map, name, key);
}

/* One lockdep class for every semaphore set up at this line. */
#define sema_init(sem, val)                              \
	do {                                             \
		static struct lock_class_key __key;      \
		__sema_init((sem), (val), #sem, &__key); \
	} while (0)
#define init_MUTEX(sem) sema_init(sem, 1)
#define init_MUTEX_LOCKED(sem) sema_init(sem, 0)

void down(struct semaphore *sem);
/* As down(), for a second semaphore of one class inside the first (a parent's dev->sem, then its child's). */
void down_nested(struct semaphore *sem, unsigned int subclass);
/* As down(), but a signal (Ctrl-C) ends the wait: -EINTR, as 2.6's, the count untouched. */
int down_interruptible(struct semaphore *sem);
/* 0 if it took a unit, 1 if none was left (2.6's sense, not a bool). */
int down_trylock(struct semaphore *sem);
void up(struct semaphore *sem);

#endif
