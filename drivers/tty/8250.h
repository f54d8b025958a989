/* 8250.h: the 16550 UART's registers (National Semiconductor PC16550D datasheet; Linux's serial_reg.h names). */
#ifndef DRIVERS_TTY_8250_H
#define DRIVERS_TTY_8250_H

#include <kobold/serial_8250.h>

#define COM1 0x3f8
#define UART_RX 0	   /* receive buffer (read) */
#define UART_TX 0	   /* transmit holding (write) */
#define UART_DLL 0	   /* divisor latch, low byte (with DLAB) */
#define UART_DLM 1	   /* divisor latch, high byte (with DLAB) */
#define UART_IER 1	   /* interrupt enable */
#define UART_IER_RDI 0x01  /* received data available */
#define UART_LCR 3	   /* line control */
#define UART_LCR_DLAB 0x80 /* selects the divisor latch */
#define UART_LCR_WLEN8 0x03
#define UART_MCR 4 /* modem control; OUT2 gates the IRQ line on a PC */
#define UART_MCR_DTR 0x01
#define UART_MCR_RTS 0x02
#define UART_MCR_OUT2 0x08
#define UART_LSR 5	   /* line status */
#define UART_LSR_DR 0x01   /* a byte received */
#define UART_LSR_THRE 0x20 /* the holding register is empty */
#define UART_LSR_TEMT 0x40 /* the transmitter is empty: everything sent */
#define UART_SCR 7	   /* scratch register: probes find a UART by it */

#endif
