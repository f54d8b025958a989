/*
 * atkbd.c: the PS/2 keyboard behind the i8042 controller (IRQ 1), scancode
 * set 1 as the controller translates it. Keys become the bytes a serial
 * terminal would send (arrows as ESC [ A), so the shell sees one input.
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/console.h>
#include <kobold/printk.h>

#define I8042_DATA 0x60
#define I8042_STATUS 0x64
#define SC_LSHIFT 0x2a
#define SC_RSHIFT 0x36
#define SC_CTRL 0x1d
#define SC_CAPS 0x3a
#define SC_RELEASE 0x80

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

static bool shift, ctrl, caps, extended;

static void extended_key(u8 sc)
{
	if (sc == 0x48)
		console_input_str("\x1b[A");
	else if (sc == 0x50)
		console_input_str("\x1b[B");
	else if (sc == 0x1c)
		console_input('\r');	/* keypad Enter */
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
	console_input(c);
}

static enum irqreturn atkbd_interrupt(int irq, void *dev)
{
	u8 sc;

	if (!(inb(I8042_STATUS) & 0x01))
		return IRQ_NONE;
	sc = inb(I8042_DATA);
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

void atkbd_init(void)
{
	while (inb(I8042_STATUS) & 0x01)	/* drop whatever the firmware left */
		inb(I8042_DATA);
	if (request_irq(1, atkbd_interrupt, "i8042", NULL))
		pr_err("atkbd: no interrupt: the keyboard is not read\n");
}
