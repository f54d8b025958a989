/*
 * vgacon.c: the VGA text console, 80x25 at 0xb8000 (QEMU's default -vga std
 * starts in this mode). Scrolls; moves the hardware cursor; of the ANSI
 * escape sequences it knows only clear's (ESC [ H, ESC [ J) and skips the rest.
 * A boot console from kmain's first lines; the "vga" platform driver then
 * owns it: unbinding it takes the console off the screen, binding puts it back.
 */
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/platform_device.h>
#include <kobold/string.h>
#include <kobold/tty.h>

#define COLS 80
#define ROWS 25
#define ATTR 0x0700 /* light grey on black */
#define CRTC_INDEX 0x3d4
#define CRTC_DATA 0x3d5

static u16 *const screen = (u16 *)__va(0xb8000); /* in low memory, as Linux's VGA_MAP_MEM */
static bool present = true;			 /* text memory at 0xb8000 (vgacon_init's test) */
static int row, col;
static int esc_state;	  /* 0: text, 1: after ESC, 2: inside a CSI sequence */
static bool bound = true; /* /sys/class/vtconsole/vtcon0/bind (vtconsole.c) */

static void move_cursor(void)
{
	u16 pos = (u16)(row * COLS + col);

	outb(CRTC_INDEX, 0x0f);
	outb(CRTC_DATA, pos & 0xff);
	outb(CRTC_INDEX, 0x0e);
	outb(CRTC_DATA, pos >> 8);
}

static void scroll(void)
{
	memmove(screen, screen + COLS, (ROWS - 1) * COLS * sizeof(u16));
	for (int i = 0; i < COLS; i++)
		screen[(ROWS - 1) * COLS + i] = ATTR | ' ';
	row = ROWS - 1;
}

/* ESC [ H: cursor home; ESC [ J: erase from the cursor to the end of the screen. */
static void csi_final(char c)
{
	esc_state = 0;
	if (c == 'H') {
		row = col = 0;
	} else if (c == 'J') {
		for (int i = row * COLS + col; i < COLS * ROWS; i++)
			screen[i] = ATTR | ' ';
	}
}

static bool swallow_escape(char c)
{
	if (esc_state == 0 && c == 0x1b) {
		esc_state = 1;
		return true;
	}
	if (esc_state == 1) {
		esc_state = c == '[' ? 2 : 0;
		return true;
	}
	if (esc_state == 2) {
		if (c >= 0x40 && c <= 0x7e)
			csi_final(c); /* the final byte of a CSI sequence */
		return true;
	}
	return false;
}

static void vga_putc(char c)
{
	if (swallow_escape(c))
		return;
	switch (c) {
	case '\n':
		col = 0;
		row++;
		break;
	case '\r':
		col = 0;
		break;
	case '\b':
		if (col > 0)
			col--;
		break;
	case '\t':
		col = (col + 8) & ~7;
		break;
	default:
		if ((unsigned char)c < 0x20)
			return;
		screen[row * COLS + col] = ATTR | (u8)c;
		col++;
	}
	if (col >= COLS) {
		col = 0;
		row++;
	}
	if (row >= ROWS)
		scroll();
}

static void vga_write(const char *s, size_t n)
{
	if (!bound)
		return;
	for (size_t i = 0; i < n; i++)
		vga_putc(s[i]);
	move_cursor();
}

static struct console vga_console = { .name = "tty0", .write = vga_write };

/* ---- tty0: the screen's line, typed into by the keyboard ---- */

static struct tty_struct *vt_tty;
static bool vga_registered = true; /* vgacon_init's, until the driver takes it */

/* tty0's output: on the screen while the vga driver has it (unbound: nowhere). */
static void vt_write(struct tty_struct *tty, const char *s, size_t n)
{
	if (vga_registered)
		vga_write(s, n);
}

static const struct tty_operations vt_ops = { .write = vt_write };

/* From the keyboard's interrupt; bytes past a full buffer are lost, as a keyboard's overrun. */
void kbd_put_queue(const char *s, size_t n)
{
	if (vt_tty)
		tty_insert_flip_string(vt_tty, (const unsigned char *)s, n);
}

/* tty0 (4:0): its device is the tty class's (tty_class.c); a shell starts on it. */
int vty_init(void)
{
	if (!present)
		return 0; /* no screen: no console line on it, whose shell nobody could see */
	vt_tty = tty_alloc("tty0", MKDEV(TTY_MAJOR, 0), &vt_ops, NULL);
	if (!vt_tty)
		return -ENOMEM;
	tty_register_console(vt_tty);
	return 0;
}

/* True if a CRTC register keeps what is written (with no VGA, the port reads 0xff). */
static bool vga_crtc_answers(void)
{
	u8 saved, got[2];

	outb(CRTC_INDEX, 0x0f); /* cursor location, low byte */
	saved = inb(CRTC_DATA);
	outb(CRTC_DATA, 0x55);
	got[0] = inb(CRTC_DATA);
	outb(CRTC_DATA, 0xaa);
	got[1] = inb(CRTC_DATA);
	outb(CRTC_DATA, saved);
	return got[0] == 0x55 && got[1] == 0xaa;
}

/*
 * As 2.6's vgacon_startup, text memory that keeps what is written; and,
 * since a PC without a VGA (QEMU -vga none) may have RAM there, a CRTC.
 */
static bool vga_present(void)
{
	volatile u16 *p = screen;
	u16 saved0 = p[0], saved1 = p[1];
	bool ok;

	p[0] = 0xaa55;
	p[1] = 0x55aa;
	ok = p[0] == 0xaa55 && p[1] == 0x55aa;
	p[0] = saved0;
	p[1] = saved1;
	return ok && vga_crtc_answers();
}

void vgacon_init(void)
{
	present = vga_present();
	if (!present)
		return;
	for (int i = 0; i < COLS * ROWS; i++)
		screen[i] = ATTR | ' ';
	row = col = 0;
	register_console(&vga_console);
}

static int vga_probe(struct platform_device *pdev)
{
	if (!present)
		return -ENODEV;
	if (!vga_registered)
		register_console(&vga_console);
	vga_registered = true;
	return 0;
}

static int vga_remove(struct platform_device *pdev)
{
	unregister_console(&vga_console); /* the screen keeps what it shows */
	vga_registered = false;
	return 0;
}

static struct platform_driver vga_driver = {
	.probe = vga_probe,
	.remove = vga_remove,
	.driver = { .name = "vga" },
};

int vga_init(void)
{
	return platform_driver_register(&vga_driver);
}

bool vgacon_present(void)
{
	return present;
}

bool vgacon_bound(void)
{
	return bound;
}

/* Unbound, the screen keeps what it shows and output goes to the serial console only. */
void vgacon_bind(bool on)
{
	bound = on;
}
