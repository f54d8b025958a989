/*
 * serial.c: the 16550 UART on COM1 (QEMU: -serial stdio), 115200 8N1.
 * Output is polled; input arrives by interrupt (IRQ 4) into the console queue.
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
#define FCR 2	/* FIFO control */
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

static enum irqreturn serial_interrupt(int irq, void *dev)
{
	bool any = false;

	while (inb(COM1 + LSR) & LSR_DR) {
		console_input((char)inb(COM1 + RBR));
		any = true;
	}
	return any ? IRQ_HANDLED : IRQ_NONE;
}

static struct console serial_console = { .name = "ttyS0", .write = serial_write };

void serial_init(void)
{
	outb(COM1 + IER, 0x00);
	outb(COM1 + LCR, 0x80);
	outb(COM1 + 0, 1);	/* divisor 1: 115200 baud */
	outb(COM1 + 1, 0);
	outb(COM1 + LCR, 0x03);	/* 8 bits, no parity, one stop bit */
	outb(COM1 + FCR, 0xc1);	/* FIFOs on, 14-byte trigger; keep what was typed early */
	outb(COM1 + MCR, 0x0b);	/* DTR, RTS, OUT2 */
	register_console(&serial_console);
}

/* Input interrupts start once the IDT and PIC are ready. */
void serial_enable_input(void)
{
	if (request_irq(COM1_IRQ, serial_interrupt, "serial", &serial_console))
		pr_err("serial: no interrupt: input from the serial port is not read\n");
	outb(COM1 + IER, 0x01);	/* received data available */
	serial_interrupt(COM1_IRQ, NULL);
}
