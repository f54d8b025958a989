/* mutex.c: struct mutex over a wait queue, with 2.6.16's owner checks and 2.6.18's lockdep hooks. */
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/sched.h>

static int __mutex_trylock(struct mutex *lock)
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

int mutex_trylock(struct mutex *lock)
{
	if (!__mutex_trylock(lock))
		return 0;
	mutex_acquire(&lock->dep_map, 0, 1, _RET_IP_);
	return 1;
}

/* lockdep hears of it before the wait: an inverted order is reported, not slept on. */
static void __mutex_lock(struct mutex *lock, unsigned int subclass, unsigned long ip)
{
	might_sleep();
	mutex_acquire(&lock->dep_map, subclass, 0, ip);
	WARN(lock->owner == current, "DEBUG_LOCKS_WARN_ON(lock->owner == current)");
	wait_event(lock->wait, __mutex_trylock(lock));
}

void mutex_lock(struct mutex *lock) { __mutex_lock(lock, 0, _RET_IP_); }

void mutex_lock_nested(struct mutex *lock, unsigned int subclass)
{
	__mutex_lock(lock, subclass, _RET_IP_);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	int err;

	might_sleep();
	mutex_acquire(&lock->dep_map, 0, 0, _RET_IP_);
	err = wait_event_interruptible(lock->wait, __mutex_trylock(lock));
	if (!err)
		return 0;
	mutex_release(&lock->dep_map, _RET_IP_);
	return -EINTR; /* 2.6.16's, not the wait's -ERESTARTSYS */
}

void mutex_unlock(struct mutex *lock)
{
	unsigned long flags;

	mutex_release(&lock->dep_map, _RET_IP_);
	if (WARN(!lock->locked, "DEBUG_LOCKS_WARN_ON(!mutex_is_locked(lock))"))
		return;
	WARN(lock->owner != current, "DEBUG_LOCKS_WARN_ON(lock->owner != current)");
	flags = local_irq_save();
	lock->locked = 0;
	lock->owner = NULL;
	local_irq_restore(flags);
	wake_up(&lock->wait);
}
