/*
 * console.c: fans kernel output out to every registered console, and
 * Ctrl-C for the kernel's threads until Kobold has signals: a console's
 * INTR character (n_tty's isig hook) marks the thread that answers that
 * console, and the command it runs sees signal_pending(). Input goes to
 * each console's own tty (drivers/tty/tty_io.c).
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/console.h>
#include <kobold/idle.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/tty.h>
#include <kobold/workqueue.h>

static struct console *consoles;
static void (*poll_input)(void); /* a driver with no input interrupt */

void register_console(struct console *con)
{
	struct console **pp = &consoles;

	while (*pp)
		pp = &(*pp)->next;
	con->next = NULL;
	*pp = con;
}

void unregister_console(struct console *con)
{
	struct console **pp = &consoles;

	while (*pp && *pp != con)
		pp = &(*pp)->next;
	if (*pp)
		*pp = con->next;
}

/*
 * One write reaches the screens whole: no other thread's line lands in the
 * middle of it (a command's output beside events/0's messages). Interrupt
 * handlers still may, as Linux's printk from an interrupt may.
 */
void console_write(const char *s, size_t n)
{
	preempt_disable();
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, n);
	preempt_enable();
}

void console_puts(const char *s) { console_write(s, strlen(s)); }

void console_poll_input(void (*fn)(void))
{
	poll_input = fn;
}

void console_poll(void)
{
	void (*fn)(void) = poll_input;

	if (fn)
		fn();
}

/* The big kernel lock is let go meanwhile: the other consoles' commands and events/0 run. */
void console_wait(void)
{
	int depth = release_kernel_lock();

	local_irq_disable();
	if (!work_pending_any() && !current->sigint && !poll_input)
		idle_sleep();
	local_irq_enable();
	reacquire_kernel_lock(depth);
	cpu_relax();
}

void signal_interrupt(struct task_struct *p)
{
	p->sigint = true; /* an interruptible sleep looks each tick */
}

u64 signal_set_deadline(u64 deadline)
{
	u64 old = current->signal_deadline;

	current->signal_deadline = deadline;
	return old;
}

bool signal_deadline_passed(void)
{
	return current->signal_deadline && ktime_get_ns() >= current->signal_deadline;
}

/* On the thread's own console, at once, as a tty echoes it: undoing may take a while. */
static void echo_interrupt(void)
{
	if (current->tty)
		tty_write(current->tty, "^C\n", 3);
	else
		console_puts("^C\n");
}

bool signal_pending(void)
{
	console_poll();
	if (signal_deadline_passed())
		return true; /* no ^C: nobody typed it */
	if (current->sigint && !current->sigint_echoed) {
		current->sigint_echoed = true;
		echo_interrupt();
	}
	return current->sigint;
}

bool console_take_interrupt(void)
{
	unsigned long flags = local_irq_save();
	bool was = current->sigint, echoed = current->sigint_echoed;

	current->sigint = current->sigint_echoed = false;
	local_irq_restore(flags);
	if (was && !echoed)
		echo_interrupt();
	return was;
}
