/* console.h: where kernel output goes (serial, VGA, virtio consoles); their input goes to each one's tty. */
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

/*
 * For an input device whose interrupt could not be had: fn fetches its
 * input, called while a tty reader waits and whenever a command checks
 * for Ctrl-C, instead of sleeping until an interrupt.
 */
void console_poll_input(void (*fn)(void));
void console_poll(void);
/*
 * For a command that waits for events until Ctrl-C: sleeps until the next
 * interrupt, unless work is queued or Ctrl-C has already arrived.
 */
void console_wait(void);
/* The keyboard's bytes (atkbd), typed into tty0, the VGA console's line. */
void kbd_put_queue(const char *s, size_t n);

/* The boot consoles: they write from the first line of kmain, before any driver binds. */
void serial_init(void);
void vgacon_init(void);
/* The serial console's input: by interrupt while serial8250 drives the port, else polled. */
void serial_console_irq_input(bool on);
bool serial_console_receive(void);
/* ttyS0's tty, the console's line (from serial_tty_init). */
int serial_console_tty_init(void);
/* tty0's, the VGA console and the keyboard (Linux's vty_init, from tty_init). */
int vty_init(void);
bool vgacon_present(void); /* vgacon_init found a text screen */
bool vgacon_bound(void);
void vgacon_bind(bool on);
/* /sys/class/vtconsole: the VGA console as a struct device (drivers/video/vtconsole.c). */
int vtconsole_init(void);

#endif
