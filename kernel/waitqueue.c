/*
 * waitqueue.c: the wait queue's list: joining it, leaving it, and
 * wake_up(), which marks each entry before it makes its thread runnable,
 * so a sleeper that looks at its entry with interrupts off misses nothing.
 */
#include <kobold/irqflags.h>
#include <kobold/sched.h>
#include <kobold/wait.h>

void prepare_to_wait(struct wait_queue_head *wq, struct wait_queue_entry *wait)
{
	unsigned long flags = local_irq_save();

	wait->woken = false;
	wait->task = current;
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
	list_for_each_entry(w, &wq->head, entry) {
		w->woken = true;
		if (w->task)
			wake_up_process(w->task);
	}
	local_irq_restore(flags);
}
