/*
 * serial.c: the boot console on COM1 (QEMU: -serial stdio), 115200 8N1,
 * from the first line of kmain, before the device model exists (as Linux's
 * early 8250 console). Output is polled. Input is read by the serial8250
 * driver's interrupt (8250.c) while it drives the port, and polled from the
 * idle loop when no driver does, so the shell stays reachable after an unbind.
 * When the console queue is full, reading stops: the bytes wait in the UART,
 * and QEMU holds the rest until there is room (no byte is lost).
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/console.h>
#include <kobold/printk.h>

#include "8250.h"

static bool irq_input; /* serial8250 is bound: its interrupt reads the port */

static void serial_putc(char c)
{
	for (int i = 0; i < 100000 && !(inb(COM1 + UART_LSR) & UART_LSR_THRE); i++)
		;
	outb(COM1 + UART_TX, (u8)c);
}

static void serial_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			serial_putc('\r');
		serial_putc(s[i]);
	}
}

static void serial_unthrottle(void);

/* Moves received bytes to the console queue; stops while the queue is full. */
bool serial_console_receive(void)
{
	bool any = false;

	while (inb(COM1 + UART_LSR) & UART_LSR_DR) {
		if (!console_input_room()) {
			outb(COM1 + UART_IER, 0x00); /* no more interrupts until there is room */
			console_throttle(serial_unthrottle);
			break;
		}
		console_input((char)inb(COM1 + UART_RX));
		any = true;
	}
	return any;
}

static void serial_unthrottle(void)
{
	if (irq_input)
		outb(COM1 + UART_IER, UART_IER_RDI);
	serial_console_receive();
}

/* No interrupt (no driver bound, or no IRQ 4): the console polls, interrupts off at the UART. */
static void serial_poll(void)
{
	unsigned long flags = local_irq_save();

	serial_console_receive();
	local_irq_restore(flags);
}

/* Called by serial8250's probe and remove (with its handler on IRQ 4 or gone). */
void serial_console_irq_input(bool on)
{
	/*
	 * Interrupts off: once IER asks for them, the handler reads the port
	 * too, and one that came between our LSR and RX reads would leave us
	 * reading RX a second time, its last byte again (no FIFO).
	 */
	unsigned long flags = local_irq_save();

	irq_input = on;
	outb(COM1 + UART_IER, on ? UART_IER_RDI : 0x00);
	console_poll_input(on ? NULL : serial_poll);
	if (on)
		serial_console_receive();
	local_irq_restore(flags);
}

static struct console serial_console = { .name = "ttyS0", .write = serial_write };

void serial_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, UART_LCR_DLAB);
	outb(COM1 + UART_DLL, 1); /* divisor 1: 115200 baud */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, UART_LCR_WLEN8); /* 8 bits, no parity, one stop bit */
	/*
	 * FCR is left as the firmware set it: switching the FIFOs on or off
	 * empties them, losing what was typed before the first prompt. QEMU
	 * hands the UART one byte at a time without its FIFO, and never more
	 * than it has room for.
	 */
	outb(COM1 + UART_MCR, UART_MCR_DTR | UART_MCR_RTS | UART_MCR_OUT2);
	/*
	 * SeaBIOS's serial console switches the terminal's line wrap off
	 * (ESC [ ? 7 l) and leaves "Booting from ROM.." without a newline.
	 */
	serial_write("\x1b[?7h\n", 6);
	register_console(&serial_console);
	console_poll_input(serial_poll); /* until serial8250 takes IRQ 4 */
}
