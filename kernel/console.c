/*
 * console.c: fans output out to every registered console and queues input
 * from the serial port and the keyboard for the shell, which reads it
 * through one function whichever device the bytes came from.
 */
#include <asm/io.h>
#include <kobold/console.h>
#include <kobold/string.h>

#define INPUT_SIZE 1024

static struct console *consoles;
static char input[INPUT_SIZE];
static volatile unsigned int in_head, in_tail;	/* written by IRQs, read by the shell */

void register_console(struct console *con)
{
	struct console **pp = &consoles;

	while (*pp)
		pp = &(*pp)->next;
	con->next = NULL;
	*pp = con;
}

void console_write(const char *s, size_t n)
{
	for (struct console *c = consoles; c; c = c->next)
		c->write(s, n);
}

void console_puts(const char *s) { console_write(s, strlen(s)); }

/* Called with interrupts off (from an IRQ handler); a full queue drops the byte. */
void console_input(char c)
{
	unsigned int next = (in_head + 1) % INPUT_SIZE;

	if (next == in_tail)
		return;
	input[in_head] = c;
	in_head = next;
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
		in_tail = (in_tail + 1) % INPUT_SIZE;
	}
	local_irq_restore(flags);
	return c;
}

int console_getc(void)
{
	int c;

	for (;;) {
		local_irq_disable();
		c = console_trygetc();
		if (c >= 0) {
			local_irq_enable();
			return c;
		}
		safe_halt();	/* sti; hlt: an interrupt cannot slip in between */
	}
}
