/*
 * input.h: the input class (Linux's <linux/input.h>, drivers/input/input.c
 * and evdev.c): an input device per keyboard (input0, with name, phys and
 * id/), and its event device (event0, 13:64) as a child, both struct devices.
 */
#ifndef KOBOLD_INPUT_H
#define KOBOLD_INPUT_H

#include <kobold/device.h>

#define INPUT_MAJOR 13
#define EVDEV_MINOR_BASE 64
#define BUS_I8042 0x11

struct input_id {
	u16 bustype, vendor, product, version;
};

struct input_dev {
	const char *name; /* "AT Translated Set 2 keyboard" */
	const char *phys; /* "isa0060/serio0/input0" */
	struct input_id id;
	struct device dev;    /* inputN, below the port it came from */
	struct device *evdev; /* eventN, its child */
	unsigned long events; /* key events reported: eventN's "events" file */
	int num;	      /* N of inputN and eventN */
};

/* Zeroed, with its release set: fill name, phys, id, dev.parent; then register. */
struct input_dev *input_allocate_device(void);
void input_free_device(struct input_dev *dev); /* only if never registered */
int input_register_device(struct input_dev *dev);
void input_unregister_device(struct input_dev *dev); /* and the memory, at the last put */
/* A key went down (value 1) or up (0): counted on the event device. */
void input_report_key(struct input_dev *dev, unsigned int code, int value);
int input_init(void);

#endif
