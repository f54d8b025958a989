/*
 * 8250.c: the serial8250 platform driver (Linux's drivers/serial/8250.c) for
 * the PC's 16550 ports that the BIOS lists (QEMU: -serial stdio is COM1, a
 * second -serial is COM2). It owns IRQ 4 and reads the console port by
 * interrupt; the boot console (serial.c) writes, and polls while unbound.
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/console.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/platform_device.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/clock.h>
#include <kobold/time.h>
#include <kobold/tty.h>

#include "8250.h"

#define DRAIN_TIMEOUT_US 100000 /* 115200 baud: a 16-byte FIFO drains in ~1.4 ms */

static enum irqreturn serial8250_interrupt(int irq, void *dev)
{
	return serial_console_receive() ? IRQ_HANDLED : IRQ_NONE;
}

/* ttyS0..ttyS3, Linux's four legacy lines, whichever the BIOS found (4:64..4:67). */
static struct device *lines[SERIAL8250_MAX_PORTS];

static void serial8250_unregister_lines(void)
{
	for (int i = 0; i < SERIAL8250_MAX_PORTS; i++) {
		tty_unregister_device(lines[i]);
		lines[i] = NULL;
	}
}

static int serial8250_register_lines(struct platform_device *pdev)
{
	char name[8];

	for (int i = 0; i < SERIAL8250_MAX_PORTS; i++) {
		snprintf(name, sizeof(name), "ttyS%d", i);
		lines[i] = tty_register_device(MKDEV(TTY_MAJOR, SERIAL_MINOR_BASE + i), &pdev->dev,
					       name);
		if (IS_ERR(lines[i])) {
			int err = (int)PTR_ERR(lines[i]);

			lines[i] = NULL;
			serial8250_unregister_lines();
			return err;
		}
	}
	return 0;
}

static const struct plat_serial8250_port *ports(struct platform_device *pdev)
{
	return pdev->dev.platform_data;
}

static int serial8250_probe(struct platform_device *pdev)
{
	const struct plat_serial8250_port *p = ports(pdev);
	int err;

	if (!p || !p[0].iobase)
		return -ENODEV;
	for (int i = 0; i < SERIAL8250_MAX_PORTS && p[i].iobase; i++)
		pr_info("serial8250: ttyS%d at I/O 0x%lx (irq = %u) is a 16550A\n", i,
			p[i].iobase, p[i].irq);
	if (p[0].iobase != COM1)
		return serial8250_register_lines(pdev); /* the console's port is COM1 */
	err = request_irq((int)p[0].irq, serial8250_interrupt, "serial", pdev);
	if (err) {
		pr_err("serial: no interrupt: polling the port for input\n");
		return err;
	}
	err = serial8250_register_lines(pdev);
	if (err) {
		free_irq((int)p[0].irq, pdev);
		return err;
	}
	serial_console_irq_input(true);
	return 0;
}

static int serial8250_remove(struct platform_device *pdev)
{
	const struct plat_serial8250_port *p = ports(pdev);

	serial8250_unregister_lines();
	if (p[0].iobase != COM1)
		return 0;
	serial_console_irq_input(false); /* the boot console polls from now on */
	free_irq((int)p[0].irq, pdev);
	return 0;
}

/* Waits until every byte written has left the transmitter. */
static void serial8250_drain(unsigned long iobase)
{
	u64 end = ktime_get_ns() + DRAIN_TIMEOUT_US * 1000ULL;

	while (!(inb((u16)(iobase + UART_LSR)) & UART_LSR_TEMT) && ktime_get_ns() < end)
		cpu_relax();
}

static void serial8250_shutdown(struct platform_device *pdev)
{
	const struct plat_serial8250_port *p = ports(pdev);

	for (int i = 0; i < SERIAL8250_MAX_PORTS && p[i].iobase; i++)
		serial8250_drain(p[i].iobase);
}

static int serial8250_suspend(struct platform_device *pdev, pm_message_t state)
{
	serial8250_shutdown(pdev);
	if (ports(pdev)[0].iobase == COM1)
		serial_console_irq_input(false);
	return 0;
}

static int serial8250_resume(struct platform_device *pdev)
{
	if (ports(pdev)[0].iobase == COM1)
		serial_console_irq_input(true);
	return 0;
}

static struct platform_driver serial8250_driver = {
	.probe = serial8250_probe,
	.remove = serial8250_remove,
	.shutdown = serial8250_shutdown,
	.suspend = serial8250_suspend,
	.resume = serial8250_resume,
	.driver = { .name = "serial8250" },
};

int serial8250_init(void)
{
	return platform_driver_register(&serial8250_driver);
}
