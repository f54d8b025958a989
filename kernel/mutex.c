/* mutex.c: struct mutex over a wait queue, with 2.6.16's owner checks. */
#include <kobold/irqflags.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/sched.h>

int mutex_trylock(struct mutex *lock)
{
	unsigned long flags = local_irq_save();
	int got = !lock->locked;

	if (got) {
		lock->locked = 1;
		lock->owner = current;
	}
	local_irq_restore(flags);
	return got;
}

void mutex_lock(struct mutex *lock)
{
	might_sleep();
	WARN(lock->owner == current, "DEBUG_LOCKS_WARN_ON(lock->owner == current)");
	wait_event(lock->wait, mutex_trylock(lock));
}

int mutex_lock_interruptible(struct mutex *lock)
{
	might_sleep();
	return wait_event_interruptible(lock->wait, mutex_trylock(lock));
}

void mutex_unlock(struct mutex *lock)
{
	unsigned long flags;

	if (WARN(!lock->locked, "DEBUG_LOCKS_WARN_ON(!mutex_is_locked(lock))"))
		return;
	WARN(lock->owner != current, "DEBUG_LOCKS_WARN_ON(lock->owner != current)");
	flags = local_irq_save();
	lock->locked = 0;
	lock->owner = NULL;
	local_irq_restore(flags);
	wake_up(&lock->wait);
}
