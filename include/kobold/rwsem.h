/*
 * rwsem.h: struct rw_semaphore, 2.6's sleeping reader-writer lock: many
 * readers at once, or one writer (a subsystem's rwsem guards its kset's
 * list so). Here a writer waits until the readers are gone; readers that
 * come meanwhile still get in (2.6's rwsems queued them behind the writer).
 */
#ifndef KOBOLD_RWSEM_H
#define KOBOLD_RWSEM_H

#include <kobold/lockdep.h>
#include <kobold/wait.h>

struct rw_semaphore {
	int activity; /* 0: free, > 0: readers, -1: a writer */
	struct wait_queue_head wait;
	struct lockdep_map dep_map;
};

#define __RWSEM_INITIALIZER(name) \
	{ .activity = 0, .wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait), .dep_map = STATIC_LOCKDEP_MAP_INIT(#name) }
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)

static inline void __init_rwsem(struct rw_semaphore *sem, const char *name,
				struct lock_class_key *key)
{
	sem->activity = 0;
	init_waitqueue_head(&sem->wait);
	lockdep_init_map(&sem->dep_map, name, key);
}

/* One lockdep class for every rwsem set up at this line, as 2.6.18's. */
#define init_rwsem(sem)                             \
	do {                                        \
		static struct lock_class_key __key; \
		__init_rwsem((sem), #sem, &__key);  \
	} while (0)

void down_read(struct rw_semaphore *sem);
/* 1 if it got in, 0 if a writer holds it. */
int down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
/* As down_read/down_write, for a second rwsem of one class inside the first (lockdep's subclass). */
void down_read_nested(struct rw_semaphore *sem, unsigned int subclass);
void down_write_nested(struct rw_semaphore *sem, unsigned int subclass);
int down_write_trylock(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* The writer becomes a reader, letting other readers in. */
void downgrade_write(struct rw_semaphore *sem);

#endif
