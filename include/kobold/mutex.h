/*
 * mutex.h: struct mutex, the sleeping lock Linux 2.6.16 added beside the
 * semaphore: one owner at a time, released only by its owner (checked, as
 * CONFIG_DEBUG_MUTEXES checks it), never taken in an interrupt handler.
 */
#ifndef KOBOLD_MUTEX_H
#define KOBOLD_MUTEX_H

#include <kobold/lockdep.h>
#include <kobold/wait.h>

struct task_struct;

struct mutex {
	int locked;
	struct task_struct *owner;
	struct wait_queue_head wait;
	struct lockdep_map dep_map;
};

#define __MUTEX_INITIALIZER(name) \
	{ .locked = 0, .owner = NULL, .wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait), .dep_map = STATIC_LOCKDEP_MAP_INIT(#name) }
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

static inline void __mutex_init(struct mutex *lock, const char *name, struct lock_class_key *key)
{
	lock->locked = 0;
	lock->owner = NULL;
	init_waitqueue_head(&lock->wait);
	lockdep_init_map(&lock->dep_map, name, key);
}

/* One lockdep class for every mutex set up at this line, as 2.6.18's. */
#define mutex_init(lock)                             \
	do {                                         \
		static struct lock_class_key __key;  \
		__mutex_init((lock), #lock, &__key); \
	} while (0)

static inline bool mutex_is_locked(const struct mutex *lock) { return lock->locked; }

void mutex_lock(struct mutex *lock);
/* As mutex_lock, for a second lock of the same class inside the first (lockdep's subclass). */
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
/* As mutex_lock, but a signal (Ctrl-C) ends the wait with -EINTR, as 2.6.16's. */
int mutex_lock_interruptible(struct mutex *lock);
/* 1 if it took the lock, 0 if it is held (Linux's sense, the opposite of down_trylock). */
int mutex_trylock(struct mutex *lock);
void mutex_unlock(struct mutex *lock);

#endif
