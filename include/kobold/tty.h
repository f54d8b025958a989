/*
 * tty.h: terminals, as Linux 2.6's tty layer: a struct tty_struct per line
 * (ttyS0, tty0, hvcN), fed by its driver's interrupt and read through the
 * n_tty line discipline (drivers/tty/n_tty.c), with termios settings;
 * tty_io.c makes each one a char device (/dev/ttyS0, /dev/tty0, /dev/hvcN,
 * /dev/console). Also the tty class, /sys/class/tty (tty_class.c).
 */
#ifndef KOBOLD_TTY_H
#define KOBOLD_TTY_H

#include <kobold/device.h>
#include <kobold/fs.h>
#include <kobold/list.h>
#include <kobold/termios.h>
#include <kobold/wait.h>

#define TTY_MAJOR 4    /* tty0.., and ttyS0.. from minor 64 (Linux's devices.txt) */
#define TTYAUX_MAJOR 5 /* 5:0 tty, 5:1 console */
#define SERIAL_MINOR_BASE 64
#define HVC_MAJOR 229 /* hvc0.. from minor 0 */

#define N_TTY_BUF_SIZE 4096 /* a power of two: the indices wrap with a mask */
#define TTY_NAME_LEN 16

struct tty_struct;
struct file;

/* What the driver does for its line (Linux's struct tty_operations, the part Kobold uses). */
struct tty_operations {
	/* Sends n bytes out of the line; "\n" leaves as "\r\n" (OPOST|ONLCR). Any context. */
	void (*write)(struct tty_struct *tty, const char *buf, size_t n);
	/* The read buffer has room again: the driver restarts the input it held back. */
	void (*unthrottle)(struct tty_struct *tty);
};

/*
 * A terminal line. The driver's interrupt hands received bytes to
 * tty_insert_flip_string(); n_tty edits them into read_buf (echoing through
 * ops->write) and readers take them from there.
 */
struct tty_struct {
	char name[TTY_NAME_LEN];
	dev_t devt;
	const struct tty_operations *ops;
	void *driver_data;
	struct termios termios;
	struct winsize winsize;
	int pgrp;    /* foreground process group (TIOCSPGRP), 0: none */
	int session; /* the session it controls (TIOCSCTTY), 0: none */
	/*
	 * ISIG's hook: n_tty calls it, with interrupts off, for INTR (SIGINT),
	 * QUIT (SIGQUIT) and SUSP (SIGTSTP). Kobold's shell stops the
	 * command of this console with it; processes get kill_pgrp(pgrp, sig).
	 */
	void (*isig)(struct tty_struct *tty, int sig);
	void *isig_data;

	/* n_tty's state: free-running indices into read_buf, masked on use. */
	unsigned char read_buf[N_TTY_BUF_SIZE];
	unsigned int read_head, read_tail;
	unsigned int canon_head;		    /* end of the last complete line (ICANON) */
	unsigned int canon_data;		    /* complete lines not yet read */
	unsigned char line_end[N_TTY_BUF_SIZE / 8]; /* a bit per slot: a line ends there */
	bool lnext;				    /* the last byte was VLNEXT: the next is taken literally */
	bool throttled;				    /* the driver was told the buffer is full */

	/* tty_io.c's */
	struct wait_queue_head read_wait; /* readers, woken as input arrives or the line hangs up */
	bool hung_up;			  /* the line went away: reads return 0, writes -EIO */
	int count;			  /* references: the driver's, each open file's, a shell's */
	bool console;			  /* a console: a shell runs on it */
	struct list_head list;		  /* in tty_list */
};

/* ---- n_tty (portable: drivers/tty/n_tty.c) ---- */

/* Linux's tty_std_termios: cooked, echoing, ^C interrupts, 38400 8N1. */
extern const struct termios tty_std_termios;

/* Zeroes the line discipline's state and takes tty_std_termios. */
void n_tty_init(struct tty_struct *tty);
/* Edits count received bytes into the read buffer (from the driver's interrupt). */
void n_tty_receive_buf(struct tty_struct *tty, const unsigned char *cp, size_t count);
/* Bytes the buffer still takes. */
unsigned int n_tty_receive_room(const struct tty_struct *tty);
/*
 * True if a read would return now: a complete line (ICANON), else at least
 * amt bytes. (A hung-up line is tty_io.c's to check.)
 */
bool n_tty_input_available(const struct tty_struct *tty, unsigned int amt);
/* Bytes a read would find now (FIONREAD). */
unsigned int n_tty_chars_in_buffer(const struct tty_struct *tty);
/*
 * Moves at most n bytes to buf without waiting: a line's worth in ICANON
 * (0 for an end-of-file ^D at a line's start), else what is there.
 * -EAGAIN when there is nothing to take.
 */
ssize_t n_tty_copy(struct tty_struct *tty, char *buf, size_t n);
/* New settings (TCSETS): switching ICANON re-reads the pending input as Linux does. */
void n_tty_set_termios(struct tty_struct *tty, const struct termios *new);
/* Drops every byte not yet read (TCSETSF, and INTR without NOFLSH). */
void n_tty_flush(struct tty_struct *tty);

/* ---- tty_io.c ---- */

/*
 * A new line for a driver: named name (hvc0), devt its char number, ops its
 * output. Opens of devt reach it from now on. NULL without memory.
 */
struct tty_struct *tty_alloc(const char *name, dev_t devt, const struct tty_operations *ops,
			     void *driver_data);
/* The line is a console, ready for output: a shell starts on it. May sleep. */
void tty_register_console(struct tty_struct *tty);
/* The driver's line goes away: readers wake to end of file, writes fail; freed at the last put. */
void tty_hangup_and_put(struct tty_struct *tty);
void tty_kref_get(struct tty_struct *tty);
void tty_kref_put(struct tty_struct *tty);
/*
 * From the driver's interrupt (interrupts off): n bytes arrived. Returns
 * how many were taken; fewer means the buffer is full and ops->unthrottle
 * will be called when there is room (Linux: tty_insert_flip_string and
 * tty_flip_buffer_push in one).
 */
size_t tty_insert_flip_string(struct tty_struct *tty, const unsigned char *buf, size_t n);
/* Reads as n_tty's read_chan: blocks (unless nonblock: -EAGAIN) per ICANON or VMIN/VTIME; -EINTR on a signal. */
ssize_t tty_read(struct tty_struct *tty, char *buf, size_t n, bool nonblock);
/* Writes to the line (no output processing beyond the driver's ONLCR); -EIO once hung up. */
ssize_t tty_write(struct tty_struct *tty, const char *buf, size_t n);
/*
 * The tty ioctls with a kernel copy of the argument: TCGETS, TCSETS,
 * TCSETSW, TCSETSF (struct termios), TIOCGWINSZ, TIOCSWINSZ (struct
 * winsize), TIOCGPGRP, TIOCSPGRP, FIONREAD (int), TIOCSCTTY (none).
 * -ENOTTY for any other, as Linux.
 */
int tty_ioctl(struct tty_struct *tty, unsigned int cmd, void *arg);
/* How many bytes arg points at for cmd (0 for none), and whether the call reads or fills them. */
size_t tty_ioctl_arg_size(unsigned int cmd, bool *to_kernel, bool *to_user);
#define TTY_POLLIN 0x0001
#define TTY_POLLOUT 0x0004
#define TTY_POLLHUP 0x0010
/* POLLIN | POLLOUT | POLLHUP as they stand; tty->read_wait is woken when they change. */
unsigned int tty_poll(struct tty_struct *tty);
/* The tty behind an open file of a tty node, or NULL: for the ioctl and poll system calls. */
struct tty_struct *tty_from_file(struct file *file);
/* The file operations of a tty node (/dev/tty0, /dev/console, /dev/ttyS0); hvc's call the two. */
extern const struct file_operations tty_fops;
struct file;
ssize_t tty_file_read(struct file *file, char *buf, size_t n, loff_t *pos);
ssize_t tty_file_write(struct file *file, const char *buf, size_t n, loff_t *pos);
/* The line with this char number, with a reference, or NULL. */
struct tty_struct *tty_lookup(dev_t devt);
/*
 * /dev/console's line, with a reference: ttyS0 (the console of make run),
 * or without one (QEMU -serial none) the first console line there is
 * (tty0, hvc0); NULL if there is none.
 */
struct tty_struct *tty_console(void);
/*
 * Calls add for each console line there is and each one registered later,
 * remove when one hangs up (the shell's per-console threads). Any context
 * where the caller may sleep.
 */
void tty_set_console_notify(void (*add)(struct tty_struct *tty),
			    void (*remove)(struct tty_struct *tty));
/* The char devices: /dev/tty0 (4:0), /dev/console (5:1: tty_console()'s line). */
int tty_init(void);

/* ---- the tty class (tty_class.c) ---- */

extern struct class *tty_class;

/* The class and its "console" device (5:1); from kmain, before the drivers. */
int tty_class_init(void);
/* NAME with dev_t devt below parent (/sys/devices/.../tty/NAME); an ERR_PTR on failure. */
struct device *tty_register_device(dev_t devt, struct device *parent, const char *name);
void tty_unregister_device(struct device *dev);

#endif
