/* completion.c: complete() and the waits for it, over a wait queue. */
#include <kobold/completion.h>
#include <kobold/preempt.h>

void complete(struct completion *x)
{
	unsigned long flags = local_irq_save();

	if (x->done != UINT_MAX)
		x->done++;
	local_irq_restore(flags);
	wake_up(&x->wait);
}

void complete_all(struct completion *x)
{
	unsigned long flags = local_irq_save();

	x->done = UINT_MAX;
	local_irq_restore(flags);
	wake_up(&x->wait);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags = local_irq_save();
	bool got = x->done > 0;

	if (got && x->done != UINT_MAX)
		x->done--;
	local_irq_restore(flags);
	return got;
}

void wait_for_completion(struct completion *x)
{
	might_sleep();
	wait_event(x->wait, try_wait_for_completion(x));
}

int wait_for_completion_interruptible(struct completion *x)
{
	might_sleep();
	return wait_event_interruptible(x->wait, try_wait_for_completion(x));
}
