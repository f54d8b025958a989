/*
 * atkbd.c: the AT keyboard driver on the serio bus (Linux 2.6's
 * drivers/input/keyboard/atkbd.c), bound to the i8042's keyboard port
 * (serio0): scancode set 1 as the controller translates it. Keys become the
 * bytes a serial terminal would send (arrows as ESC [ A), so the shell sees
 * one input.
 */
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/input.h>
#include <kobold/printk.h>
#include <kobold/serio.h>
#include <kobold/string.h>

#define SC_LSHIFT 0x2a
#define SC_RSHIFT 0x36
#define SC_CTRL 0x1d
#define SC_CAPS 0x3a
#define SC_RELEASE 0x80

/* clang-format off */
static const char normal_map[128] = {
	0, 27, '1', '2', '3', '4', '5', '6', '7', '8', '9', '0', '-', '=', 127, '\t',
	'q', 'w', 'e', 'r', 't', 'y', 'u', 'i', 'o', 'p', '[', ']', '\r', 0, 'a', 's',
	'd', 'f', 'g', 'h', 'j', 'k', 'l', ';', '\'', '`', 0, '\\', 'z', 'x', 'c', 'v',
	'b', 'n', 'm', ',', '.', '/', 0, '*', 0, ' ',
};

static const char shift_map[128] = {
	0, 27, '!', '@', '#', '$', '%', '^', '&', '*', '(', ')', '_', '+', 127, '\t',
	'Q', 'W', 'E', 'R', 'T', 'Y', 'U', 'I', 'O', 'P', '{', '}', '\r', 0, 'A', 'S',
	'D', 'F', 'G', 'H', 'J', 'K', 'L', ':', '"', '~', 0, '|', 'Z', 'X', 'C', 'V',
	'B', 'N', 'M', '<', '>', '?', 0, '*', 0, ' ',
};
/* clang-format on */

static bool shift, ctrl, caps, extended;
static struct input_dev *atkbd_input; /* input0, while atkbd is bound to serio0 */
static char atkbd_phys[40];

static void extended_key(u8 sc)
{
	if (sc == 0x48)
		kbd_put_queue("\x1b[A", 3);
	else if (sc == 0x50)
		kbd_put_queue("\x1b[B", 3);
	else if (sc == 0x1c)
		kbd_put_queue("\r", 1); /* keypad Enter */
}

static void key_press(u8 sc)
{
	bool upper = shift;
	char c;

	if (sc == SC_LSHIFT || sc == SC_RSHIFT) {
		shift = true;
		return;
	}
	if (sc == SC_CTRL) {
		ctrl = true;
		return;
	}
	if (sc == SC_CAPS) {
		caps = !caps;
		return;
	}
	c = normal_map[sc];
	if (c >= 'a' && c <= 'z')
		upper ^= caps;
	c = upper ? shift_map[sc] : c;
	if (!c)
		return;
	if (ctrl && c >= 'a' && c <= 'z')
		c &= 0x1f;
	else if (ctrl && c >= 'A' && c <= 'Z')
		c &= 0x1f;
	kbd_put_queue(&c, 1);
}

static enum irqreturn atkbd_interrupt(struct serio *serio, unsigned char sc,
				      unsigned int flags)
{
	if (sc != 0xe0 && atkbd_input)
		input_report_key(atkbd_input, sc & ~SC_RELEASE, !(sc & SC_RELEASE));
	if (sc == 0xe0) {
		extended = true;
		return IRQ_HANDLED;
	}
	if (sc & SC_RELEASE) {
		sc &= ~SC_RELEASE;
		if (sc == SC_LSHIFT || sc == SC_RSHIFT)
			shift = false;
		else if (sc == SC_CTRL)
			ctrl = false;
	} else if (extended) {
		extended_key(sc);
	} else {
		key_press(sc);
	}
	extended = false;
	return IRQ_HANDLED;
}

/* input0 below the port: Linux's names and ids for a translated set 2 keyboard. */
static struct input_dev *atkbd_input_device(struct serio *serio)
{
	struct input_dev *dev = input_allocate_device();

	if (!dev)
		return NULL;
	snprintf(atkbd_phys, sizeof(atkbd_phys), "%s/input0", serio->phys);
	dev->name = "AT Translated Set 2 keyboard";
	dev->phys = atkbd_phys;
	dev->id = (struct input_id){ BUS_I8042, 0x0001, 0x0001, 0xab41 };
	dev->dev.parent = &serio->dev;
	if (input_register_device(dev)) {
		input_free_device(dev);
		return NULL;
	}
	return dev;
}

static int atkbd_connect(struct serio *serio, struct serio_driver *drv)
{
	int err;

	shift = ctrl = caps = extended = false;
	atkbd_input = atkbd_input_device(serio);
	if (!atkbd_input)
		return -ENOMEM;
	err = serio_open(serio, drv);
	if (err) {
		input_unregister_device(atkbd_input);
		atkbd_input = NULL;
	}
	return err;
}

static void atkbd_disconnect(struct serio *serio)
{
	serio_close(serio);
	input_unregister_device(atkbd_input);
	atkbd_input = NULL;
}

/* As Linux's: the i8042's ports, translated or not, and serial PS/2 adapters. */
static const struct serio_device_id atkbd_serio_ids[] = {
	{ .type = SERIO_8042, .proto = SERIO_ANY, .id = SERIO_ANY, .extra = SERIO_ANY },
	{ .type = SERIO_8042_XL, .proto = SERIO_ANY, .id = SERIO_ANY, .extra = SERIO_ANY },
	{ 0 },
};

static struct serio_driver atkbd_drv = {
	.description = "AT and PS/2 keyboard driver",
	.id_table = atkbd_serio_ids,
	.interrupt = atkbd_interrupt,
	.connect = atkbd_connect,
	.disconnect = atkbd_disconnect,
	.driver = { .name = "atkbd" },
};

int atkbd_init(void)
{
	return serio_register_driver(&atkbd_drv);
}
