/* rwsem.c: reader-writer semaphores over a wait queue. */
#include <kobold/irqflags.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/rwsem.h>

int down_read_trylock(struct rw_semaphore *sem)
{
	unsigned long flags = local_irq_save();
	int got = sem->activity >= 0;

	if (got)
		sem->activity++;
	local_irq_restore(flags);
	return got;
}

int down_write_trylock(struct rw_semaphore *sem)
{
	unsigned long flags = local_irq_save();
	int got = sem->activity == 0;

	if (got)
		sem->activity = -1;
	local_irq_restore(flags);
	return got;
}

void down_read(struct rw_semaphore *sem)
{
	might_sleep();
	wait_event(sem->wait, down_read_trylock(sem));
}

void down_write(struct rw_semaphore *sem)
{
	might_sleep();
	wait_event(sem->wait, down_write_trylock(sem));
}

void up_read(struct rw_semaphore *sem)
{
	unsigned long flags = local_irq_save();
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
	unsigned long flags = local_irq_save();
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
