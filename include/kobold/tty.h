/* tty.h: the tty class (Linux's tty_register_device): /sys/class/tty, one device per terminal line. */
#ifndef KOBOLD_TTY_H
#define KOBOLD_TTY_H

#include <kobold/device.h>

#define TTY_MAJOR 4    /* tty0.., and ttyS0.. from minor 64 (Linux's devices.txt) */
#define TTYAUX_MAJOR 5 /* 5:0 tty, 5:1 console */
#define SERIAL_MINOR_BASE 64

extern struct class *tty_class;

/* The class and its "console" device (5:1); from kmain, before the drivers. */
int tty_class_init(void);
/* NAME with dev_t devt below parent (/sys/devices/.../tty/NAME); an ERR_PTR on failure. */
struct device *tty_register_device(dev_t devt, struct device *parent, const char *name);
void tty_unregister_device(struct device *dev);

#endif
