/*
 * tty_io.c: the tty layer's upper half (Linux 2.6's drivers/char/tty_io.c
 * and tty_ioctl.c): the list of lines, their char devices, reads that
 * wait as n_tty's read_chan does (a line, or VMIN bytes within VTIME),
 * writes, the termios ioctls, poll, hang-up, and the consoles a shell
 * runs on. Input comes from drivers' interrupts; n_tty.c edits it.
 */
#include <asm/io.h>
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/tty.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>

/* Every line there is; walked and changed with interrupts off (drivers' interrupts look too). */
static LIST_HEAD(tty_list);
static void (*console_add)(struct tty_struct *tty);
static void (*console_remove)(struct tty_struct *tty);

void tty_kref_get(struct tty_struct *tty)
{
	unsigned long flags = local_irq_save();

	tty->count++;
	local_irq_restore(flags);
}

void tty_kref_put(struct tty_struct *tty)
{
	unsigned long flags = local_irq_save();
	bool last = --tty->count == 0;

	local_irq_restore(flags);
	if (last)
		kfree(tty);
}

struct tty_struct *tty_lookup(dev_t devt)
{
	unsigned long flags = local_irq_save();
	struct tty_struct *tty, *found = NULL;

	list_for_each_entry(tty, &tty_list, list)
		if (tty->devt == devt) {
			found = tty;
			found->count++;
			break;
		}
	local_irq_restore(flags);
	return found;
}

struct tty_struct *tty_alloc(const char *name, dev_t devt, const struct tty_operations *ops,
			     void *driver_data)
{
	struct tty_struct *tty = kzalloc(sizeof(*tty));
	unsigned long flags;

	if (!tty)
		return NULL;
	strscpy(tty->name, name, sizeof(tty->name));
	tty->devt = devt;
	tty->ops = ops;
	tty->driver_data = driver_data;
	tty->count = 1; /* the driver's */
	tty->winsize = (struct winsize){ .ws_row = 25, .ws_col = 80 };
	n_tty_init(tty);
	init_waitqueue_head(&tty->read_wait);
	flags = local_irq_save();
	list_add_tail(&tty->list, &tty_list);
	local_irq_restore(flags);
	return tty;
}

void tty_register_console(struct tty_struct *tty)
{
	tty->console = true;
	if (console_add)
		console_add(tty);
}

void tty_hangup_and_put(struct tty_struct *tty)
{
	unsigned long flags = local_irq_save();

	tty->hung_up = true;
	list_del_init(&tty->list);
	local_irq_restore(flags);
	wake_up(&tty->read_wait);
	if (tty->console && console_remove)
		console_remove(tty);
	tty_kref_put(tty);
}

void tty_set_console_notify(void (*add)(struct tty_struct *tty),
			    void (*remove)(struct tty_struct *tty))
{
	struct tty_struct *batch[8], *tty;
	int n = 0;
	unsigned long flags = local_irq_save();

	console_add = add;
	console_remove = remove;
	list_for_each_entry(tty, &tty_list, list)
		if (tty->console && n < 8) {
			tty->count++;
			batch[n++] = tty;
		}
	local_irq_restore(flags);
	for (int i = 0; i < n; i++) { /* outside the irq-off section: add may sleep */
		add(batch[i]);
		tty_kref_put(batch[i]);
	}
}

size_t tty_insert_flip_string(struct tty_struct *tty, const unsigned char *buf, size_t n)
{
	unsigned int room = n_tty_receive_room(tty);
	size_t take = n < room ? n : room;

	n_tty_receive_buf(tty, buf, take);
	if (take < n)
		tty->throttled = true;
	if (take)
		wake_up(&tty->read_wait);
	return take;
}

/* The reader took bytes: a driver that held its input back may go on. */
static void tty_unthrottle(struct tty_struct *tty)
{
	if (tty->throttled && !tty->hung_up && n_tty_receive_room(tty) >= N_TTY_BUF_SIZE / 2) {
		tty->throttled = false;
		if (tty->ops->unthrottle)
			tty->ops->unthrottle(tty);
	}
}

static bool read_ready(struct tty_struct *tty, unsigned int amt)
{
	return tty->hung_up || n_tty_input_available(tty, amt);
}

/*
 * Waits (a tick at a time, looking for Ctrl-C and polled input) until
 * the line has amt bytes or a line, or the deadline passes (0: none).
 * Interrupts off on entry and on return.
 */
static int wait_for_input(struct tty_struct *tty, unsigned int amt, unsigned long deadline)
{
	struct wait_queue_entry wait;

	INIT_LIST_HEAD(&wait.entry);
	for (;;) {
		prepare_to_wait(&tty->read_wait, &wait);
		if (read_ready(tty, amt) || (deadline && (long)(jiffies - deadline) >= 0))
			break;
		if (signal_pending() || user_signal_pending()) { /* ^C, or a process's signal */
			finish_wait(&tty->read_wait, &wait);
			return user_signal_pending() ? -ERESTARTSYS : -EINTR;
		}
		schedule_timeout_interruptible(1);
		local_irq_enable();
		console_poll(); /* a port read by polling: its bytes come in here */
		local_irq_disable();
	}
	finish_wait(&tty->read_wait, &wait);
	return 0;
}

/* Takes what n_tty has, with interrupts off; -EAGAIN if nothing. */
static ssize_t take_input(struct tty_struct *tty, char *buf, size_t n)
{
	ssize_t got = n_tty_copy(tty, buf, n);

	if (got >= 0)
		tty_unthrottle(tty);
	return got;
}

/* Raw reads: VMIN bytes, with VTIME (tenths of a second) as the whole or the inter-byte timer. */
static ssize_t read_raw(struct tty_struct *tty, char *buf, size_t n, bool nonblock)
{
	unsigned int vmin = tty->termios.c_cc[VMIN], vtime = tty->termios.c_cc[VTIME];
	unsigned long timeout = vtime * (HZ / 10);
	size_t got = 0;
	ssize_t r;

	if (vmin > n)
		vmin = (unsigned int)n;
	for (;;) {
		r = take_input(tty, buf + got, n - got);
		if (r > 0)
			got += (size_t)r;
		/* enough; or VMIN 0 and VTIME 0: whatever there was, at once */
		if (got >= vmin && (got || !vtime))
			return (ssize_t)got;
		if (tty->hung_up)
			return (ssize_t)got;
		if (nonblock)
			return got ? (ssize_t)got : -EAGAIN;
		/* VMIN 0: VTIME counts from the read; else from each byte (none before the first) */
		r = wait_for_input(tty, (unsigned int)got + 1,
				   vtime && (!vmin || got) ? jiffies + timeout : 0);
		if (r)
			return got ? (ssize_t)got : r;
		if (!n_tty_input_available(tty, (unsigned int)got + 1) && !tty->hung_up)
			return (ssize_t)got; /* the timer ran out */
	}
}

/* The caller is a process of a group behind the one in front of its terminal. */
static bool in_background(const struct tty_struct *tty)
{
	const struct task_struct *me = current;

	return me->user.mm && tty->pgrp && me->user.pgrp != tty->pgrp &&
	       (!tty->session || tty->session == me->user.session);
}

/*
 * 2.6's job_control: a process of a background group that reads its terminal
 * gets SIGTTIN (its whole group stops), or EIO if it ignores the signal or
 * no shell could continue it.
 */
static int job_control(struct tty_struct *tty)
{
	unsigned long flags;
	int err = 0;

	if (!in_background(tty))
		return 0;
	flags = local_irq_save();
	if (sig_ignored_or_blocked(SIGTTIN) || is_orphaned_pgrp(current->user.pgrp))
		err = -EIO;
	local_irq_restore(flags);
	if (err)
		return err;
	kill_pgrp(current->user.pgrp, SIGTTIN);
	return -ERESTARTSYS;
}

/*
 * 2.6's tty_check_change: a process of a background group that changes its
 * terminal's settings, or writes to it with TOSTOP set, gets SIGTTOU (its
 * group stops), unless it ignores or blocks the signal: then it may go on.
 * An orphaned group gets EIO: no shell could continue it.
 */
static int tty_check_change(struct tty_struct *tty)
{
	bool ignored, orphaned;
	unsigned long flags;

	if (!in_background(tty))
		return 0;
	flags = local_irq_save();
	ignored = sig_ignored_or_blocked(SIGTTOU);
	orphaned = is_orphaned_pgrp(current->user.pgrp);
	local_irq_restore(flags);
	if (ignored)
		return 0;
	if (orphaned)
		return -EIO;
	kill_pgrp(current->user.pgrp, SIGTTOU);
	return -ERESTARTSYS;
}

/*
 * A command that reads a tty (cat /dev/hvc0) lets the big kernel lock go
 * while it waits for input, as 2.6's schedule() let it go for any sleep.
 */

ssize_t tty_read(struct tty_struct *tty, char *buf, size_t n, bool nonblock)
{
	unsigned long flags;
	ssize_t r;
	int depth;

	if (!n)
		return 0;
	r = job_control(tty);
	if (r)
		return r;
	depth = release_kernel_lock();
	flags = local_irq_save();
	if (!(tty->termios.c_lflag & ICANON)) {
		r = read_raw(tty, buf, n, nonblock);
	} else {
		r = take_input(tty, buf, n);
		while (r == -EAGAIN && !tty->hung_up && !nonblock) {
			r = wait_for_input(tty, 1, 0);
			if (!r)
				r = take_input(tty, buf, n);
		}
		if (r == -EAGAIN && tty->hung_up)
			r = 0;
	}
	local_irq_restore(flags);
	reacquire_kernel_lock(depth);
	return r;
}

ssize_t tty_write(struct tty_struct *tty, const char *buf, size_t n)
{
	unsigned long flags = local_irq_save();
	ssize_t r = -EIO;

	if (!tty->hung_up) {
		tty->ops->write(tty, buf, n);
		r = (ssize_t)n;
	}
	local_irq_restore(flags);
	return r;
}

unsigned int tty_poll(struct tty_struct *tty)
{
	unsigned long flags = local_irq_save();
	unsigned int mask = 0;

	if (tty->hung_up)
		mask |= TTY_POLLIN | TTY_POLLHUP;
	else if (n_tty_input_available(tty, tty->termios.c_cc[VMIN]))
		mask |= TTY_POLLIN;
	if (!tty->hung_up)
		mask |= TTY_POLLOUT;
	local_irq_restore(flags);
	return mask;
}

/* ---- ioctls (tty_ioctl.c in 2.6) ---- */

static void set_termios(struct tty_struct *tty, const struct termios *t, bool flush)
{
	unsigned long flags = local_irq_save();

	if (flush)
		n_tty_flush(tty);
	n_tty_set_termios(tty, t);
	local_irq_restore(flags);
	wake_up(&tty->read_wait); /* ICANON off may have made input readable */
}

size_t tty_ioctl_arg_size(unsigned int cmd, bool *to_kernel, bool *to_user)
{
	*to_kernel = cmd == TCSETS || cmd == TCSETSW || cmd == TCSETSF || cmd == TIOCSWINSZ ||
		     cmd == TIOCSPGRP;
	*to_user = cmd == TCGETS || cmd == TIOCGWINSZ || cmd == TIOCGPGRP || cmd == FIONREAD;
	switch (cmd) {
	case TCGETS:
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return sizeof(struct termios);
	case TIOCGWINSZ:
	case TIOCSWINSZ:
		return sizeof(struct winsize);
	case TIOCGPGRP:
	case TIOCSPGRP:
	case FIONREAD:
		return sizeof(int);
	}
	return 0;
}

int tty_ioctl(struct tty_struct *tty, unsigned int cmd, void *arg)
{
	int err;

	if (tty->hung_up)
		return -EIO;
	if (cmd == TCSETS || cmd == TCSETSW || cmd == TCSETSF || cmd == TIOCSPGRP) {
		err = tty_check_change(tty);
		if (err)
			return cmd == TIOCSPGRP && err == -EIO ? -ENOTTY : err; /* 2.6's tiocspgrp */
	}
	switch (cmd) {
	case TCGETS:
		memcpy(arg, &tty->termios, sizeof(tty->termios));
		return 0;
	case TCSETS:
	case TCSETSW: /* output is never queued: nothing to drain first */
	case TCSETSF:
		set_termios(tty, arg, cmd == TCSETSF);
		return 0;
	case TIOCGWINSZ:
		memcpy(arg, &tty->winsize, sizeof(tty->winsize));
		return 0;
	case TIOCSWINSZ:
		memcpy(&tty->winsize, arg, sizeof(tty->winsize));
		return 0;
	case TIOCGPGRP:
		*(int *)arg = tty->pgrp;
		return 0;
	case TIOCSPGRP:
		if (*(int *)arg < 0)
			return -EINVAL;
		tty->pgrp = *(int *)arg;
		return 0;
	case FIONREAD:
		*(int *)arg = (int)n_tty_chars_in_buffer(tty);
		return 0;
	case TIOCSCTTY:
		tty->session = current->pid;					    /* the caller's session: Kobold's sessions are its pid */
		tty->pgrp = current->user.pgrp ? current->user.pgrp : current->pid; /* in front */
		return 0;
	}
	return -ENOTTY;
}

/* ---- the char devices ---- */

struct tty_struct *tty_console(void)
{
	struct tty_struct *tty = tty_lookup(MKDEV(TTY_MAJOR, SERIAL_MINOR_BASE)), *t;
	unsigned long flags;

	if (tty && tty->console)
		return tty;
	if (tty)
		tty_kref_put(tty);
	tty = NULL;
	flags = local_irq_save();
	list_for_each_entry(t, &tty_list, list)
		if (t->console) {
			tty = t;
			tty->count++;
			break;
		}
	local_irq_restore(flags);
	return tty;
}

struct tty_struct *tty_from_file(struct file *file)
{
	struct inode *inode = file->f_path.inode;

	if (!inode || (!S_ISCHR(inode->i_mode)))
		return NULL;
	return inode->i_rdev == MKDEV(TTYAUX_MAJOR, 1) ? tty_console() : tty_lookup(inode->i_rdev);
}

static int tty_open(struct inode *inode, struct file *file)
{
	struct tty_struct *tty = tty_from_file(file);

	if (!tty)
		return -ENXIO; /* Linux: no such line */
	tty_kref_put(tty);
	return 0;
}

ssize_t tty_file_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	struct tty_struct *tty = tty_from_file(file);
	ssize_t r;

	if (!tty)
		return -EIO; /* hung up */
	r = tty_read(tty, buf, n, file->f_flags & O_NONBLOCK);
	tty_kref_put(tty);
	return r;
}

ssize_t tty_file_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	struct tty_struct *tty = tty_from_file(file);
	ssize_t r;

	if (!tty)
		return -EIO;
	r = tty->termios.c_lflag & TOSTOP ? tty_check_change(tty) : 0;
	if (!r)
		r = tty_write(tty, buf, n);
	tty_kref_put(tty);
	return r;
}

/* A process's ioctl: the argument copied in and out by tty_ioctl_arg_size's rule. */
static long tty_file_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct tty_struct *tty = tty_from_file(file);
	bool in, out;
	size_t size = tty_ioctl_arg_size(cmd, &in, &out);
	u8 k[64];
	long r;

	if (!tty)
		return -EIO;
	r = in && copy_from_user(k, (const void __user *)arg, size) ? -EFAULT : 0;
	if (!r)
		r = tty_ioctl(tty, cmd, size ? k : NULL);
	if (!r && out && copy_to_user((void __user *)arg, k, size))
		r = -EFAULT;
	tty_kref_put(tty);
	return r;
}

static unsigned int tty_file_poll(struct file *file, struct poll_table_struct *wait)
{
	struct tty_struct *tty = tty_from_file(file);
	unsigned int mask;

	if (!tty)
		return TTY_POLLIN | TTY_POLLHUP;
	mask = tty_poll(tty);
	tty_kref_put(tty);
	return mask;
}

const struct file_operations tty_fops = {
	.open = tty_open,
	.read = tty_file_read,
	.write = tty_file_write,
	.unlocked_ioctl = tty_file_ioctl,
	.poll = tty_file_poll,
};

static struct cdev tty0_cdev, console_cdev;

int tty_init(void)
{
	int err;

	cdev_init(&tty0_cdev, &tty_fops);
	cdev_init(&console_cdev, &tty_fops);
	err = cdev_add(&tty0_cdev, MKDEV(TTY_MAJOR, 0), 1);
	if (!err)
		err = cdev_add(&console_cdev, MKDEV(TTYAUX_MAJOR, 1), 1);
	if (err) {
		pr_err("tty: char numbers 4:0 and 5:1 are taken: %d\n", err);
		return err;
	}
	return vty_init();
}
