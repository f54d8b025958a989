/* semaphore.c: down and up over a wait queue, the count changed with interrupts off. */
#include <kobold/irqflags.h>
#include <kobold/preempt.h>
#include <kobold/semaphore.h>

int down_trylock(struct semaphore *sem)
{
	unsigned long flags = local_irq_save();
	int busy = sem->count <= 0;

	if (!busy)
		sem->count--;
	local_irq_restore(flags);
	return busy;
}

void down(struct semaphore *sem)
{
	might_sleep();
	wait_event(sem->wait, down_trylock(sem) == 0);
}

int down_interruptible(struct semaphore *sem)
{
	might_sleep();
	return wait_event_interruptible(sem->wait, down_trylock(sem) == 0);
}

/* Every sleeper wakes and tries again: one wins, the others sleep on. */
void up(struct semaphore *sem)
{
	unsigned long flags = local_irq_save();

	sem->count++;
	local_irq_restore(flags);
	wake_up(&sem->wait);
}
