/*
 * console_file.c: the console as a process's stdin, stdout and stderr
 * until each console has a tty with a line discipline of its own: reads
 * take the console's input queue (kernel/console.c) a line at a time with
 * echo, erase, ^U, ^D and ^C (SIGINT to the foreground process group)
 * while ICANON is set, or byte by byte in raw mode; writes go to every
 * console as printk's do. TCGETS/TCSETS*, TIOCGWINSZ and TIOCGPGRP/
 * TIOCSPGRP keep one termios, one window size and one foreground group.
 * (docs/userspace.md: where a real tty replaces it.)
 */
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/timer.h>
#include <kobold/uaccess.h>

#define TCGETS 0x5401
#define TCSETS 0x5402
#define TCSETSW 0x5403
#define TCSETSF 0x5404
#define TIOCSCTTY 0x540E
#define TIOCGPGRP 0x540F
#define TIOCSPGRP 0x5410
#define TIOCGWINSZ 0x5413
#define TIOCSWINSZ 0x5414
#define FIONREAD 0x541B
#define ICRNL 0000400
#define ISIG 0000001
#define ICANON 0000002
#define ECHO 0000010
#define VINTR 0
#define VERASE 2
#define VKILL 3
#define VEOF 4
#define LINE_MAX_LEN 1024
#define POLLIN 0x001
#define POLLOUT 0x004

struct termios {
	u32 c_iflag, c_oflag, c_cflag, c_lflag;
	u8 c_line;
	u8 c_cc[19];
};

struct winsize {
	u16 ws_row, ws_col, ws_xpixel, ws_ypixel;
};

/* Linux's tty_std_termios: 38400 8N1, canonical, echo, ^C ^\ DEL ^U ^D. */
static struct termios termios = {
	.c_iflag = 0002400, /* ICRNL | IXON */
	.c_oflag = 0000005, /* OPOST | ONLCR */
	.c_cflag = 0000277, /* B38400 | CS8 | CREAD | HUPCL */
	.c_lflag = 0105073, /* ISIG ICANON ECHO ECHOE ECHOK ECHOCTL ECHOKE IEXTEN */
	.c_cc = { 3, 28, 127, 21, 4, 0, 1, 0, 17, 19, 26, 0, 18, 15, 23, 22, 0 },
};
static struct winsize winsize = { 24, 80, 0, 0 };
static int fg_pgrp;
static char line[LINE_MAX_LEN];
static size_t line_len, line_pos; /* a finished line not yet all read */
static bool line_ready;
static struct super_block console_sb;
static struct inode console_inode = {
	.i_count = 1 << 30,
	.i_mode = S_IFCHR | 0620,
	.i_rdev = MKDEV(5, 1), /* /dev/console */
	.i_sb = &console_sb,
};

/*
 * ^C typed while the foreground group does not read (sleep, say): a tick
 * of 10 ms looks for it, since the console's interrupt handler knows
 * nothing of process groups (a tty's n_tty would signal at once).
 */
static struct timer_list intr_timer;

static void intr_check(unsigned long unused)
{
	if (fg_pgrp && (termios.c_lflag & ISIG) && signal_pending()) {
		console_take_interrupt();
		kill_pgrp(fg_pgrp, SIGINT);
	}
	mod_timer(&intr_timer, jiffies + HZ / 100);
}

void console_set_foreground(int pgrp)
{
	fg_pgrp = pgrp;
	if (!intr_timer.function) {
		setup_timer(&intr_timer, intr_check, 0);
		mod_timer(&intr_timer, jiffies + HZ / 100);
	}
}

bool console_isig(void) { return termios.c_lflag & ISIG; }

/* The next input byte; sleeps a tick at a time; -EINTR for a signal. */
static int next_byte(void)
{
	int c, depth;

	while ((c = console_trygetc()) < 0) {
		if (user_signal_pending())
			return -EINTR;
		depth = sys_sleep_begin();
		schedule_timeout_interruptible(1);
		sys_sleep_end(depth);
	}
	if (c == '\r' && (termios.c_iflag & ICRNL))
		c = '\n';
	return c;
}

static bool interrupt(int c)
{
	if (!(termios.c_lflag & ISIG) || c != termios.c_cc[VINTR])
		return false;
	if (termios.c_lflag & ECHO)
		console_puts("^C\n");
	console_take_interrupt();
	line_len = 0;
	if (fg_pgrp)
		kill_pgrp(fg_pgrp, SIGINT);
	return true;
}

static void echo(const char *s, size_t n)
{
	if (termios.c_lflag & ECHO)
		console_write(s, n);
}

/* Canonical mode: a line, edited, ends with '\n' or ^D. */
static int read_line(void)
{
	int c;

	while (!line_ready) {
		c = next_byte();
		if (c < 0)
			return c;
		if (interrupt(c))
			continue;
		if (c == termios.c_cc[VERASE] || c == '\b') {
			if (line_len) {
				line_len--;
				echo("\b \b", 3);
			}
		} else if (c == termios.c_cc[VKILL]) {
			for (; line_len; line_len--)
				echo("\b \b", 3);
		} else if (c == termios.c_cc[VEOF]) {
			line_ready = true; /* what is typed, or end of file if nothing */
		} else if (line_len < LINE_MAX_LEN) {
			line[line_len++] = (char)c;
			echo((char *)&line[line_len - 1], 1);
			line_ready = c == '\n';
		}
	}
	return 0;
}

static ssize_t console_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	size_t k = 0;
	int c, err;

	if (!(termios.c_lflag & ICANON)) {
		do {
			c = next_byte();
			if (c < 0)
				return c;
		} while (interrupt(c));
		buf[k++] = (char)c;
		while (k < n && (c = console_trygetc()) >= 0) {
			if (c == '\r' && (termios.c_iflag & ICRNL))
				c = '\n';
			if (!interrupt(c))
				buf[k++] = (char)c;
		}
		return (ssize_t)k;
	}
	err = read_line();
	if (err)
		return err;
	k = min(n, line_len - line_pos);
	memcpy(buf, line + line_pos, k);
	line_pos += k;
	if (line_pos == line_len)
		line_pos = line_len = 0, line_ready = false;
	return (ssize_t)k;
}

static ssize_t console_fwrite(struct file *f, const char *buf, size_t n, loff_t *pos)
{
	console_write(buf, n);
	return (ssize_t)n;
}

static long console_ioctl(struct file *f, unsigned int cmd, unsigned long arg)
{
	void __user *p = (void __user *)arg;

	switch (cmd) {
	case TCGETS:
		return copy_to_user(p, &termios, sizeof(termios)) ? -EFAULT : 0;
	case TCSETS:
	case TCSETSW:
	case TCSETSF:
		return copy_from_user(&termios, p, sizeof(termios)) ? -EFAULT : 0;
	case TIOCGWINSZ:
		return copy_to_user(p, &winsize, sizeof(winsize)) ? -EFAULT : 0;
	case TIOCSWINSZ:
		return copy_from_user(&winsize, p, sizeof(winsize)) ? -EFAULT : 0;
	case TIOCGPGRP:
		return put_user(fg_pgrp ? fg_pgrp : current->user.pgrp, (int __user *)p);
	case TIOCSPGRP:
		return get_user(fg_pgrp, (int __user *)p);
	case TIOCSCTTY: /* a session leader takes the console: its group is in front */
		fg_pgrp = current->user.pgrp;
		return 0;
	case FIONREAD:
		return put_user((int)(4095 - console_input_room()), (int __user *)p);
	default:
		return -ENOTTY;
	}
}

static unsigned int console_poll(struct file *f)
{
	bool input = console_input_room() < 4095 || line_ready;

	return POLLOUT | (input ? POLLIN : 0);
}

static const struct file_operations console_fops = {
	.read = console_read,
	.write = console_fwrite,
	.unlocked_ioctl = console_ioctl,
	.poll = console_poll,
};

int console_file_open(struct file **out)
{
	struct file *f = kzalloc(sizeof(*f));

	if (!f)
		return -ENOMEM;
	f->f_op = &console_fops;
	f->f_flags = O_RDWR;
	f->f_path.inode = &console_inode;
	*out = f;
	return 0;
}
