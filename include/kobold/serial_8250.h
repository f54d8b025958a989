/* serial_8250.h: what the serial8250 platform device carries (Linux's <linux/serial_8250.h>). */
#ifndef KOBOLD_SERIAL_8250_H
#define KOBOLD_SERIAL_8250_H

#define SERIAL8250_MAX_PORTS 4 /* COM1-COM4, as the BIOS data area lists them */

/* One port (Linux's plat_serial8250_port); the device's table ends with iobase 0. */
struct plat_serial8250_port {
	unsigned long iobase;
	unsigned int irq;
};

#endif
