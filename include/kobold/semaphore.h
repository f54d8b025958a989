/*
 * semaphore.h: the counting semaphore, 2.6's sleeping lock (the article's
 * era guarded the device model with them: a subsystem's rwsem, dev->sem).
 * down() takes one unit of the count, sleeping while there is none; up()
 * gives one back and wakes the sleepers. A count of 1 makes a mutex
 * (init_MUTEX, DECLARE_MUTEX: 2.6's names, before struct mutex).
 */
#ifndef KOBOLD_SEMAPHORE_H
#define KOBOLD_SEMAPHORE_H

#include <kobold/wait.h>

struct semaphore {
	int count; /* units left; changed with interrupts off */
	struct wait_queue_head wait;
};

#define __SEMAPHORE_INITIALIZER(name, n) { .count = (n), .wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait) }
#define DECLARE_MUTEX(name) struct semaphore name = __SEMAPHORE_INITIALIZER(name, 1)

static inline void sema_init(struct semaphore *sem, int val)
{
	sem->count = val;
	init_waitqueue_head(&sem->wait);
}
static inline void init_MUTEX(struct semaphore *sem) { sema_init(sem, 1); }
static inline void init_MUTEX_LOCKED(struct semaphore *sem) { sema_init(sem, 0); }

void down(struct semaphore *sem);
/* As down(), but Ctrl-C ends the wait: -EINTR, the count untouched. */
int down_interruptible(struct semaphore *sem);
/* 0 if it took a unit, 1 if none was left (2.6's sense, not a bool). */
int down_trylock(struct semaphore *sem);
void up(struct semaphore *sem);

#endif
