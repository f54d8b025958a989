/*
 * serial.c: the boot console on COM1 (QEMU: -serial stdio), 115200 8N1,
 * from the first line of kmain, before the device model exists (as Linux's
 * early 8250 console). Output is polled. Input is read by the serial8250
 * driver's interrupt (8250.c) while it drives the port, and polled from the
 * idle loop when no driver does, so the shell stays reachable after an unbind.
 * What arrives goes to ttyS0's tty (n_tty); when its buffer is full, reading
 * stops: the bytes wait in the UART, and QEMU holds the rest until there is
 * room (no byte is lost). Before the tty exists, they wait there too.
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/tty.h>

#include "8250.h"

static bool irq_input;		      /* serial8250 is bound: its interrupt reads the port */
static struct tty_struct *serial_tty; /* ttyS0's line, from serial_console_tty_init on */

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

/* Moves received bytes to ttyS0's tty; stops while its buffer is full (interrupts off). */
bool serial_console_receive(void)
{
	bool any = false;

	while (serial_tty && (inb(COM1 + UART_LSR) & UART_LSR_DR)) {
		unsigned char c;

		if (!n_tty_receive_room(serial_tty)) {
			outb(COM1 + UART_IER, 0x00); /* no more interrupts until there is room */
			serial_tty->throttled = true;
			break;
		}
		c = inb(COM1 + UART_RX);
		tty_insert_flip_string(serial_tty, &c, 1);
		any = true;
	}
	return any;
}

/* The reader made room (interrupts off). */
static void serial_unthrottle(struct tty_struct *tty)
{
	if (irq_input)
		outb(COM1 + UART_IER, UART_IER_RDI);
	serial_console_receive();
}

static void serial_tty_write(struct tty_struct *tty, const char *s, size_t n)
{
	serial_write(s, n);
}

static const struct tty_operations serial_tty_ops = {
	.write = serial_tty_write,
	.unthrottle = serial_unthrottle,
};

int serial_console_tty_init(void)
{
	unsigned long flags;

	serial_tty = tty_alloc("ttyS0", MKDEV(TTY_MAJOR, SERIAL_MINOR_BASE), &serial_tty_ops, NULL);
	if (!serial_tty)
		return -ENOMEM;
	flags = local_irq_save();
	serial_console_receive(); /* what was typed during the boot */
	local_irq_restore(flags);
	tty_register_console(serial_tty);
	return 0;
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
