/*
 * semaphore.c: down and up over a wait queue, the count changed with
 * interrupts off. A semaphore set up with a count of 1 is a lock, and
 * lockdep hears of each down and up; one of another count is not (2.6.18's
 * lockdep watched no semaphore: see docs/differences.md).
 */
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/preempt.h>
#include <kobold/semaphore.h>

static int __down_trylock(struct semaphore *sem)
{
	unsigned long flags = local_irq_save();
	int busy = sem->count <= 0;

	if (!busy)
		sem->count--;
	local_irq_restore(flags);
	return busy;
}

int down_trylock(struct semaphore *sem)
{
	int busy = __down_trylock(sem);

	if (!busy && sem->is_mutex)
		lock_acquire(&sem->dep_map, 0, 1, 0, _RET_IP_);
	return busy;
}

static void __down(struct semaphore *sem, unsigned int subclass, unsigned long ip)
{
	might_sleep();
	if (sem->is_mutex)
		lock_acquire(&sem->dep_map, subclass, 0, 0, ip);
	wait_event(sem->wait, __down_trylock(sem) == 0);
}

void down(struct semaphore *sem) { __down(sem, 0, _RET_IP_); }

void down_nested(struct semaphore *sem, unsigned int subclass) { __down(sem, subclass, _RET_IP_); }

int down_interruptible(struct semaphore *sem)
{
	int err;

	might_sleep();
	if (sem->is_mutex)
		lock_acquire(&sem->dep_map, 0, 0, 0, _RET_IP_);
	err = wait_event_interruptible(sem->wait, __down_trylock(sem) == 0);
	if (!err)
		return 0;
	if (sem->is_mutex)
		lock_release(&sem->dep_map, _RET_IP_);
	return -EINTR; /* 2.6's, not the wait's -ERESTARTSYS */
}

/*
 * Every sleeper wakes and tries again: one wins, the others sleep on. A
 * semaphore may be upped by a task other than the one that downed it (a
 * handoff): lockdep forgets it only where it was held.
 */
void up(struct semaphore *sem)
{
	unsigned long flags;

	if (sem->is_mutex && lock_is_held(&sem->dep_map))
		lock_release(&sem->dep_map, _RET_IP_);
	flags = local_irq_save();
	sem->count++;
	local_irq_restore(flags);
	wake_up(&sem->wait);
}
