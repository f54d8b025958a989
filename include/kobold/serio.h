/*
 * serio.h: the serio bus (Linux 2.6's <linux/serio.h>): byte-stream ports,
 * such as the i8042's keyboard port, and the drivers that speak a protocol
 * over them (atkbd), matched by the port's type.
 */
#ifndef KOBOLD_SERIO_H
#define KOBOLD_SERIO_H

#include <asm/irq.h>
#include <kobold/device.h>

#define SERIO_ANY 0xff
#define SERIO_8042 0x01	   /* an i8042 port, untranslated */
#define SERIO_8042_XL 0x06 /* an i8042 port with scancode translation */

struct serio_device_id {
	u8 type, extra, id, proto;
};

struct serio_driver;

struct serio {
	void *port_data;
	char name[32]; /* "i8042 KBD port": its description file */
	char phys[32]; /* "isa0060/serio0": where it is */
	struct serio_device_id id;
	int (*write)(struct serio *serio, unsigned char byte);
	int (*open)(struct serio *serio);
	void (*close)(struct serio *serio);
	struct serio_driver *drv; /* set by serio_open: who gets the bytes */
	struct device dev;	  /* serioN, below the controller's device */
};

#define to_serio_port(d) container_of((d), struct serio, dev)

struct serio_driver {
	const char *description;
	const struct serio_device_id *id_table; /* ends with type 0 */
	enum irqreturn (*interrupt)(struct serio *serio, unsigned char data, unsigned int flags);
	int (*connect)(struct serio *serio, struct serio_driver *drv);
	void (*disconnect)(struct serio *serio);
	void (*cleanup)(struct serio *serio); /* at shutdown */
	struct device_driver driver;
};

#define to_serio_driver(d) container_of((d), struct serio_driver, driver)

extern struct bus_type serio_bus;

/*
 * The port's memory is kzalloc'ed by its controller and freed by the bus at
 * the last put; Linux 2.6 registered ports later from kseriod, Kobold at once.
 */
int serio_register_port(struct serio *serio);
void serio_unregister_port(struct serio *serio);
int serio_register_driver(struct serio_driver *drv);
void serio_unregister_driver(struct serio_driver *drv);

/* From a driver's connect and disconnect: start and stop getting the port's bytes. */
int serio_open(struct serio *serio, struct serio_driver *drv);
void serio_close(struct serio *serio);
/* From the controller's interrupt handler: a byte for the bound driver (dropped if none). */
enum irqreturn serio_interrupt(struct serio *serio, unsigned char data, unsigned int flags);

int serio_init(void);

#endif
