/* panic.c: the end of the line: report, then leave QEMU with the failure code. */
#include <asm/io.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/string.h>

unsigned long warn_count;

__noreturn void qemu_exit(u8 code)
{
	outb(DEBUG_EXIT_PORT, code);
	/* Not under QEMU (or no isa-debug-exit): stop here. */
	for (;;)
		__asm__ volatile("cli; hlt");
}

__noreturn void panic(const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	local_irq_disable();
	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	printk(KERN_EMERG "PANIC: Kernel panic - not syncing: %s\n", msg);
	qemu_exit(EXIT_FAILURE_CODE);
}

void warn_slowpath(const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn_count++;
	printk(KERN_WARNING "WARNING: at %s:%d: %s\n", file, line, msg);
	dump_stack();
}
