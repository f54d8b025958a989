/*
 * interrupts.c: the shell's `interrupts`, the text of Linux's
 * /proc/interrupts (one line per IRQ: count, controller, handlers), until
 * Kobold has a procfs to put it in.
 */
#include <asm/irq.h>
#include <kobold/shell.h>

#define INTERRUPTS_BUF 4096

static int cmd_interrupts(int argc, char **argv)
{
	static char buf[INTERRUPTS_BUF];

	if (argc > 1) {
		sh_err("interrupts: takes no arguments\n");
		return 1;
	}
	show_interrupts(buf, sizeof(buf));
	sh_printf("%s", buf);
	return 0;
}
SHELL_COMMAND("interrupts", "", "interrupt counts per IRQ, as Linux's /proc/interrupts",
	      cmd_interrupts);
