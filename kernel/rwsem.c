/* rwsem.c: reader-writer semaphores over a wait queue, each hold told to lockdep. */
#include <kobold/irqflags.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/rwsem.h>

static int __down_read_trylock(struct rw_semaphore *sem)
{
	unsigned long flags = local_irq_save();
	int got = sem->activity >= 0;

	if (got)
		sem->activity++;
	local_irq_restore(flags);
	return got;
}

static int __down_write_trylock(struct rw_semaphore *sem)
{
	unsigned long flags = local_irq_save();
	int got = sem->activity == 0;

	if (got)
		sem->activity = -1;
	local_irq_restore(flags);
	return got;
}

int down_read_trylock(struct rw_semaphore *sem)
{
	if (!__down_read_trylock(sem))
		return 0;
	rwsem_acquire_read(&sem->dep_map, 0, 1, _RET_IP_);
	return 1;
}

int down_write_trylock(struct rw_semaphore *sem)
{
	if (!__down_write_trylock(sem))
		return 0;
	rwsem_acquire(&sem->dep_map, 0, 1, _RET_IP_);
	return 1;
}

void down_read_nested(struct rw_semaphore *sem, unsigned int subclass)
{
	might_sleep();
	rwsem_acquire_read(&sem->dep_map, subclass, 0, _RET_IP_);
	wait_event(sem->wait, __down_read_trylock(sem));
}

void down_write_nested(struct rw_semaphore *sem, unsigned int subclass)
{
	might_sleep();
	rwsem_acquire(&sem->dep_map, subclass, 0, _RET_IP_);
	wait_event(sem->wait, __down_write_trylock(sem));
}

void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire_read(&sem->dep_map, 0, 0, _RET_IP_);
	wait_event(sem->wait, __down_read_trylock(sem));
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	rwsem_acquire(&sem->dep_map, 0, 0, _RET_IP_);
	wait_event(sem->wait, __down_write_trylock(sem));
}

void up_read(struct rw_semaphore *sem)
{
	unsigned long flags;

	rwsem_release(&sem->dep_map, _RET_IP_);
	flags = local_irq_save();
	bool bad = sem->activity <= 0, last = sem->activity == 1;

	if (!bad)
		sem->activity--;
	local_irq_restore(flags);
	if (WARN(bad, "up_read of an rwsem no reader holds"))
		return;
	if (last)
		wake_up(&sem->wait);
}

void up_write(struct rw_semaphore *sem)
{
	unsigned long flags;

	rwsem_release(&sem->dep_map, _RET_IP_);
	flags = local_irq_save();
	bool bad = sem->activity != -1;

	if (!bad)
		sem->activity = 0;
	local_irq_restore(flags);
	if (WARN(bad, "up_write of an rwsem no writer holds"))
		return;
	wake_up(&sem->wait);
}

void downgrade_write(struct rw_semaphore *sem)
{
	unsigned long flags = local_irq_save();
	bool bad = sem->activity != -1;

	if (!bad)
		sem->activity = 1;
	local_irq_restore(flags);
	if (!WARN(bad, "downgrade_write of an rwsem no writer holds"))
		wake_up(&sem->wait);
}
