/* wait.c: idling until an interrupt handler sets a flag or wakes a wait queue, with no lost wake-up. */
#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/idle.h>
#include <kobold/signal.h>
#include <kobold/wait.h>

void wait_for_flag(volatile bool *flag)
{
	for (;;) {
		local_irq_disable();
		if (*flag)
			break;
		default_idle(); /* sti; hlt: the interrupt that sets it wakes us */
	}
	local_irq_enable();
}

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = local_irq_save();

	wait->woken = false;
	if (list_empty(&wait->entry))
		list_add_tail(&wait->entry, &wq->head);
	local_irq_restore(flags);
}

void finish_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = local_irq_save();

	if (!list_empty(&wait->entry))
		list_del_init(&wait->entry);
	local_irq_restore(flags);
}

int schedule_wait(struct wait_queue_entry *wait, bool interruptible)
{
	int ret = 0;

	for (;;) {
		local_irq_disable();
		if (wait->woken)
			break;
		if (interruptible && signal_pending()) {
			ret = -EINTR;
			break;
		}
		default_idle(); /* the wake_up from an interrupt handler ends the halt */
	}
	local_irq_enable();
	return ret;
}

void wake_up(struct wait_queue_head *wq)
{
	unsigned long flags;
	struct wait_queue_entry *w;

	/*
	 * No waiter: nothing to do, and no need to turn interrupts off to
	 * know it. On one CPU a waiter joins with interrupts off and checks
	 * its condition after joining, so one that joins after this look
	 * sees the condition its waker has already made true (Linux's
	 * waitqueue_active, used by the waker).
	 */
	if (list_empty(&wq->head))
		return;
	flags = local_irq_save();

	list_for_each_entry(w, &wq->head, entry)
		w->woken = true;
	local_irq_restore(flags);
}
