/*
 * serial_tty.c: the 16550 ports the BIOS reports (its data area at 0x400
 * lists COM1-COM4; QEMU: one per -serial option) as char devices ttyS0..3,
 * 4:64..4:67, as Linux numbers them. A write goes out of the port, with
 * "\n" sent as "\r\n" (a tty's default ONLCR); a read returns what has
 * arrived. ttyS0 is the console, a tty with n_tty (tty_io.c): its node
 * opens that tty, which the shell on it reads too. The serial8250 driver
 * (8250.c) makes each port's device in the "tty" class, below the platform
 * device, and so its /dev node; this file is what opening that node reaches.
 */
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/console.h>
#include <kobold/device.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/init.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/tty.h>

#define SERIAL_NR 4
#define BIOS_COM_PORTS 0x400 /* BIOS data area: four words, the COM ports' bases */
#define RBR 0
#define THR 0
#define IER 1
#define FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define LSR_DR 0x01
#define LSR_THRE 0x20

static u16 port_base[SERIAL_NR];
static struct cdev serial_cdev;

/* Before paging_init unmaps page 0: which ports the firmware found. */
void serial_probe_bios_ports(void)
{
	const volatile u16 *bda = phys_to_virt(BIOS_COM_PORTS);

	for (int i = 0; i < SERIAL_NR; i++)
		port_base[i] = bda[i];
}

bool serial_has_com1(void)
{
	return port_base[0] != 0;
}

unsigned int serial_nr_ports(void)
{
	unsigned int n = 0;

	for (int i = 0; i < SERIAL_NR; i++)
		n += port_base[i] != 0;
	return n;
}

static void port_setup(u16 base)
{
	outb(base + IER, 0x00); /* polled: no interrupt lines for these */
	outb(base + LCR, 0x80);
	outb(base + 0, 1); /* divisor 1: 115200 baud */
	outb(base + 1, 0);
	outb(base + LCR, 0x03); /* 8N1 */
	outb(base + FCR, 0x07); /* FIFOs on and emptied */
	outb(base + MCR, 0x03); /* DTR, RTS */
}

static void port_putc(u16 base, char c)
{
	for (int i = 0; i < 100000 && !(inb(base + LSR) & LSR_THRE); i++)
		;
	outb(base + THR, (u8)c);
}

static u16 file_port(struct file *file)
{
	return (u16)(uintptr_t)file->private_data;
}

static int serial_tty_open(struct inode *inode, struct file *file)
{
	unsigned int i = MINOR(inode->i_rdev) - SERIAL_MINOR_BASE;

	if (i >= SERIAL_NR || !port_base[i])
		return -ENXIO; /* Linux: the port is not there */
	if (i == 0) {	       /* the console's: its tty, with n_tty */
		file->f_op = &tty_fops;
		return tty_fops.open(inode, file);
	}
	file->private_data = (void *)(uintptr_t)port_base[i];
	return 0;
}

static ssize_t serial_tty_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	u16 base = file_port(file);

	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n')
			port_putc(base, '\r');
		port_putc(base, buf[i]);
	}
	return (ssize_t)n;
}

static ssize_t serial_tty_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	u16 base = file_port(file);
	size_t got = 0;

	while (got < n && (inb(base + LSR) & LSR_DR))
		buf[got++] = (char)inb(base + RBR);
	return (ssize_t)got;
}

static const struct file_operations serial_tty_fops = {
	.open = serial_tty_open,
	.read = serial_tty_read,
	.write = serial_tty_write,
};

int serial_tty_init(void)
{
	int err;

	for (int i = 1; i < SERIAL_NR; i++) /* COM1 is the console's, set up already */
		if (port_base[i])
			port_setup(port_base[i]);
	if (!serial_has_com1()) /* QEMU -serial none: a console line on no UART would read 0xff for ever */
		pr_info("serial: the BIOS reported no COM1: no ttyS0 console\n");
	else if ((err = serial_console_tty_init()))
		return err;
	cdev_init(&serial_cdev, &serial_tty_fops);
	err = cdev_add(&serial_cdev, MKDEV(TTY_MAJOR, SERIAL_MINOR_BASE), SERIAL_NR);
	if (err) {
		pr_err("serial: ttyS numbers 4:64-67 are taken: %d\n", err);
		return err;
	}
	if (serial_nr_ports())
		pr_info("serial: %u port(s) the BIOS reported: ttyS0..ttyS%u\n", serial_nr_ports(),
			serial_nr_ports() - 1);
	return 0;
}
