/*
 * console.c: fans output out to every registered console and queues input
 * from the serial port and the keyboard for the shell, which reads it
 * through one function whichever device the bytes came from. Ctrl-C is
 * also noted as it arrives, so a long-running command can stop at it.
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/idle.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/string.h>
#include <kobold/workqueue.h>

#define INPUT_SIZE 4096 /* a power of two: the indices wrap with a mask */
#define CTRL_C 0x03

static struct console *consoles;
static char input[INPUT_SIZE];
static volatile unsigned int in_head, in_tail; /* written by IRQs, read by the shell */
#define MAX_THROTTLED 4
static void (*unthrottle[MAX_THROTTLED])(void); /* drivers waiting for room in the queue */
static void (*poll_input)(void);		/* a driver with no input interrupt */
static volatile bool intr_pending;		/* Ctrl-C arrived and the shell has not taken it */
static bool intr_echoed;			/* its ^C is on the screen already */
static u64 deadline_ns;				/* signal_set_deadline's, 0 for none */

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

unsigned int console_input_room(void)
{
	return INPUT_SIZE - 1 - ((in_head - in_tail) & (INPUT_SIZE - 1));
}

/* The driver stopped reading its device; fn restarts it once there is room. */
void console_throttle(void (*fn)(void))
{
	int free = -1;

	for (int i = 0; i < MAX_THROTTLED; i++) {
		if (unthrottle[i] == fn)
			return;
		if (!unthrottle[i] && free < 0)
			free = i;
	}
	if (!WARN(free < 0, "console: too many throttled inputs"))
		unthrottle[free] = fn;
}

/* Each waiting driver in turn, while there is room: serial and virtio console alike. */
static void maybe_unthrottle(void)
{
	for (int i = 0; i < MAX_THROTTLED; i++) {
		void (*fn)(void) = unthrottle[i];

		if (!fn || console_input_room() < INPUT_SIZE / 2)
			continue;
		unthrottle[i] = NULL;
		fn();
	}
}

/*
 * Called with interrupts off (from an IRQ handler). Ctrl-C drops what was
 * typed ahead of it, as a Linux tty does for its interrupt character.
 */
int console_input(char c)
{
	if (c == CTRL_C) {
		intr_pending = true;
		in_tail = in_head;
	}
	if (!console_input_room())
		return -ENOSPC;
	input[in_head] = c;
	in_head = (in_head + 1) & (INPUT_SIZE - 1);
	if (c == CTRL_C)
		maybe_unthrottle(); /* the flush made room */
	return 0;
}

void console_input_str(const char *s)
{
	unsigned long flags = local_irq_save();

	while (*s)
		console_input(*s++);
	local_irq_restore(flags);
}

int console_trygetc(void)
{
	unsigned long flags = local_irq_save();
	int c = -1;

	if (in_tail != in_head) {
		c = (unsigned char)input[in_tail];
		in_tail = (in_tail + 1) & (INPUT_SIZE - 1);
		if (c == CTRL_C)
			intr_pending = intr_echoed = false; /* the line editor handles it */
		maybe_unthrottle();
	}
	local_irq_restore(flags);
	return c;
}

void console_poll_input(void (*fn)(void))
{
	poll_input = fn;
}

int console_getc(void)
{
	int c;

	for (;;) {
		if (poll_input)
			poll_input();
		local_irq_disable();
		c = console_trygetc();
		if (c >= 0) {
			local_irq_enable();
			return c;
		}
		if (in_tail == in_head && !poll_input)
			idle_sleep(); /* until the next tick: other threads run meanwhile */
		local_irq_enable();
		cpu_relax();
	}
}

void console_wait(void)
{
	local_irq_disable();
	if (!work_pending_any() && !intr_pending && !poll_input)
		idle_sleep();
	local_irq_enable();
	cpu_relax();
}

u64 signal_set_deadline(u64 deadline)
{
	u64 old = deadline_ns;

	deadline_ns = deadline;
	return old;
}

bool signal_deadline_passed(void)
{
	return deadline_ns && ktime_get_ns() >= deadline_ns;
}

bool signal_pending(void)
{
	if (poll_input)
		poll_input();
	if (signal_deadline_passed())
		return true; /* no ^C: nobody typed it */
	if (intr_pending && !intr_echoed) {
		intr_echoed = true;
		console_puts("^C\n"); /* at once, as a tty echoes it: undoing may take a while */
	}
	return intr_pending;
}

bool console_take_interrupt(void)
{
	unsigned long flags = local_irq_save();
	bool was = intr_pending, echoed = intr_echoed;

	if (was && in_tail != in_head && input[in_tail] == CTRL_C)
		in_tail = (in_tail + 1) & (INPUT_SIZE - 1);
	intr_pending = intr_echoed = false;
	maybe_unthrottle();
	local_irq_restore(flags);
	if (was && !echoed)
		console_puts("^C\n");
	return was;
}
