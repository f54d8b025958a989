/* console.h: where kernel output goes (serial, VGA, virtio consoles) and where input comes from. */
#ifndef KOBOLD_CONSOLE_H
#define KOBOLD_CONSOLE_H

#include <kobold/types.h>

struct console {
	const char *name;
	void (*write)(const char *s, size_t n);
	struct console *next;
};

void register_console(struct console *con);
void unregister_console(struct console *con);
void console_write(const char *s, size_t n);
void console_puts(const char *s);

/* Input: interrupt handlers push bytes, the shell pops them. */
/* Queues c; -ENOSPC when the queue is full (the byte is not taken). */
int console_input(char c);
unsigned int console_input_room(void);
/*
 * A driver that stopped reading its device when the queue filled: fn
 * restarts it. Several may wait; each is called back once there is room.
 */
void console_throttle(void (*fn)(void));
void console_input_str(const char *s);
/*
 * For an input device whose interrupt could not be had: the console calls
 * fn to fetch input while it waits for a key and whenever a command checks
 * for Ctrl-C, instead of sleeping until an interrupt.
 */
void console_poll_input(void (*fn)(void));
/* Next input byte; sleeps until there is one (events/0 and other threads run meanwhile). */
int console_getc(void);
/* Next input byte, or -1 at once if none is queued. */
int console_trygetc(void);
/*
 * For a command that waits for events until Ctrl-C: sleeps until the next
 * interrupt, unless work is queued or a key (Ctrl-C) has already arrived.
 */
void console_wait(void);

/* The boot consoles: they write from the first line of kmain, before any driver binds. */
void serial_init(void);
void vgacon_init(void);
/* The serial console's input: by interrupt while serial8250 drives the port, else polled. */
void serial_console_irq_input(bool on);
bool serial_console_receive(void);
bool vgacon_bound(void);
void vgacon_bind(bool on);
/* /sys/class/vtconsole: the VGA console as a struct device (drivers/video/vtconsole.c). */
int vtconsole_init(void);

#endif
