/*
 * wait.c: sleeping on a wait queue entry until wake_up() marks it, with no
 * lost wake-up: the waiter checks its entry with interrupts off and sleeps
 * in the same breath (the queue itself: kernel/waitqueue.c).
 */
#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/idle.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/smp_lock.h>
#include <kobold/syscalls.h>
#include <kobold/wait.h>

void wait_for_flag(volatile bool *flag)
{
	for (;;) {
		local_irq_disable();
		if (*flag)
			break;
		if (scheduler_running) { /* a tick at a time: the setter need not know us */
			schedule_timeout_uninterruptible(1);
			continue;
		}
		default_idle(); /* sti; hlt: the interrupt that sets it wakes us */
	}
	local_irq_enable();
}

/*
 * An interruptible sleep wakes each tick to look for Ctrl-C, which comes
 * to the console, not to the sleeper (Kobold has no signals to send).
 */
static void sleep_once(bool interruptible)
{
	if (!scheduler_running) {
		default_idle(); /* early boot: the wake_up comes from an interrupt */
		local_irq_disable();
		return;
	}
	if (interruptible) {
		schedule_timeout_interruptible(1);
		return;
	}
	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule();
}

/*
 * A process's interruptible sleep (a driver's wait_event_interruptible in a
 * system call) lets go of the big kernel lock, as 2.6's schedule() did, so
 * that the process that will wake it can enter the kernel; a signal to the
 * process ends it as Ctrl-C does a shell's, with 2.6's -ERESTARTSYS: the
 * process's call runs again after an SA_RESTART handler or a stop, or fails
 * with EINTR (kernel/signal.c).
 */
int schedule_wait(struct wait_queue_entry *wait, bool interruptible)
{
	bool process = interruptible && current->user.mm && kernel_locked();
	int depth = process ? release_kernel_lock() : 0;
	unsigned long flags = local_irq_save();
	int ret = 0;

	/*
	 * kthread_stop's wake-up ends the sleep too, so that a thread's
	 * wait_event(wq, ... || kthread_should_stop()) looks at its condition
	 * again, as Linux's wait_event does after any wake-up.
	 */
	while (!wait->woken && !current->should_stop) {
		if (interruptible && (signal_pending() || user_signal_pending())) {
			ret = -ERESTARTSYS;
			break;
		}
		sleep_once(interruptible);
	}
	__set_current_state(TASK_RUNNING);
	local_irq_restore(flags);
	reacquire_kernel_lock(depth);
	return ret;
}
