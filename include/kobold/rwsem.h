/*
 * rwsem.h: struct rw_semaphore, 2.6's sleeping reader-writer lock: many
 * readers at once, or one writer (a subsystem's rwsem guards its kset's
 * list so). Here a writer waits until the readers are gone; readers that
 * come meanwhile still get in (2.6's rwsems queued them behind the writer).
 */
#ifndef KOBOLD_RWSEM_H
#define KOBOLD_RWSEM_H

#include <kobold/wait.h>

struct rw_semaphore {
	int activity; /* 0: free, > 0: readers, -1: a writer */
	struct wait_queue_head wait;
};

#define __RWSEM_INITIALIZER(name) { .activity = 0, .wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait) }
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER(name)

static inline void init_rwsem(struct rw_semaphore *sem)
{
	sem->activity = 0;
	init_waitqueue_head(&sem->wait);
}

void down_read(struct rw_semaphore *sem);
/* 1 if it got in, 0 if a writer holds it. */
int down_read_trylock(struct rw_semaphore *sem);
void up_read(struct rw_semaphore *sem);
void down_write(struct rw_semaphore *sem);
int down_write_trylock(struct rw_semaphore *sem);
void up_write(struct rw_semaphore *sem);
/* The writer becomes a reader, letting other readers in. */
void downgrade_write(struct rw_semaphore *sem);

#endif
