/*
 * serial.c: the 16550 UART on COM1 (QEMU: -serial stdio), 115200 8N1.
 * Output is polled; input arrives by interrupt (IRQ 4) into the console queue.
 * When the queue is full the driver stops reading: the bytes wait in the
 * UART, and QEMU holds the rest until there is room (no byte is lost).
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/console.h>
#include <kobold/printk.h>

#define COM1 0x3f8
#define COM1_IRQ 4
#define RBR 0	/* receive buffer (read) */
#define THR 0	/* transmit holding (write) */
#define IER 1	/* interrupt enable */
#define LCR 3	/* line control; bit 7 selects the divisor latch */
#define MCR 4	/* modem control; OUT2 gates the IRQ line on a PC */
#define LSR 5	/* line status */
#define LSR_DR 0x01
#define LSR_THRE 0x20

static void serial_putc(char c)
{
	for (int i = 0; i < 100000 && !(inb(COM1 + LSR) & LSR_THRE); i++)
		;
	outb(COM1 + THR, (u8)c);
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
static bool serial_receive(void)
{
	bool any = false;

	while (inb(COM1 + LSR) & LSR_DR) {
		if (!console_input_room()) {
			outb(COM1 + IER, 0x00);	/* no more interrupts until there is room */
			console_throttle(serial_unthrottle);
			break;
		}
		console_input((char)inb(COM1 + RBR));
		any = true;
	}
	return any;
}

static void serial_unthrottle(void)
{
	outb(COM1 + IER, 0x01);	/* received data available */
	serial_receive();
}

static enum irqreturn serial_interrupt(int irq, void *dev)
{
	return serial_receive() ? IRQ_HANDLED : IRQ_NONE;
}

/* Without IRQ 4 the console polls: interrupts stay off at the UART. */
static void serial_poll(void)
{
	unsigned long flags = local_irq_save();

	serial_receive();
	local_irq_restore(flags);
}

static struct console serial_console = { .name = "ttyS0", .write = serial_write };

void serial_init(void)
{
	outb(COM1 + IER, 0x00);
	outb(COM1 + LCR, 0x80);
	outb(COM1 + 0, 1);	/* divisor 1: 115200 baud */
	outb(COM1 + 1, 0);
	outb(COM1 + LCR, 0x03);	/* 8 bits, no parity, one stop bit */
	/*
	 * FCR is left as the firmware set it: switching the FIFOs on or off
	 * empties them, losing what was typed before the first prompt. QEMU
	 * hands the UART one byte at a time without its FIFO, and never more
	 * than it has room for.
	 */
	outb(COM1 + MCR, 0x0b);	/* DTR, RTS, OUT2 */
	/*
	 * SeaBIOS's serial console switches the terminal's line wrap off
	 * (ESC [ ? 7 l) and leaves "Booting from ROM.." without a newline.
	 */
	serial_write("\x1b[?7h\n", 6);
	register_console(&serial_console);
}

/* Input interrupts start once the IDT and PIC are ready. */
void serial_enable_input(void)
{
	if (request_irq(COM1_IRQ, serial_interrupt, "serial", &serial_console)) {
		pr_err("serial: no interrupt: polling the port for input\n");
		console_poll_input(serial_poll);
		return;
	}
	outb(COM1 + IER, 0x01);	/* received data available */
	serial_interrupt(COM1_IRQ, NULL);
}
