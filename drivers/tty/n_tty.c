/*
 * n_tty.c: the default line discipline (Linux 2.6's drivers/char/n_tty.c),
 * in portable C: received bytes are edited into the tty's read buffer
 * (canonical mode with erase, kill, word erase, literal next and
 * end-of-file, or raw bytes), echoed through the driver, and INTR, QUIT
 * and SUSP become signals through tty->isig. Waiting is tty_io.c's.
 */
#include <kobold/errno.h>
#include <kobold/string.h>
#include <kobold/tty.h>

#define MASK(x) ((x) & (N_TTY_BUF_SIZE - 1))
#define L(tty, f) ((tty)->termios.c_lflag & (f))
#define I(tty, f) ((tty)->termios.c_iflag & (f))
#define CC(tty, v) ((tty)->termios.c_cc[v])
#define EOF_MARK 0 /* stored for ^D: ends a line and is not read (Linux's __DISABLED_CHAR) */

const struct termios tty_std_termios = {
	.c_iflag = ICRNL | IXON,
	.c_oflag = OPOST | ONLCR,
	.c_cflag = B38400 | CS8 | CREAD | HUPCL,
	.c_lflag = ISIG | ICANON | ECHO | ECHOE | ECHOK | ECHOCTL | ECHOKE | IEXTEN,
	/* ^C ^\ DEL ^U ^D, TIME 0, MIN 1, -, ^Q ^S ^Z, -, ^R ^O ^W ^V: Linux's INIT_C_CC */
	.c_cc = { 003, 034, 0177, 025, 004, 0, 1, 0, 021, 023, 032, 0, 022, 017, 027, 026, 0 },
};

static unsigned int read_cnt(const struct tty_struct *tty) { return tty->read_head - tty->read_tail; }

static bool is_line_end(const struct tty_struct *tty, unsigned int i)
{
	return tty->line_end[MASK(i) / 8] & (1u << (MASK(i) % 8));
}

static void set_line_end(struct tty_struct *tty, unsigned int i, bool on)
{
	unsigned char bit = (unsigned char)(1u << (MASK(i) % 8));

	if (on)
		tty->line_end[MASK(i) / 8] |= bit;
	else
		tty->line_end[MASK(i) / 8] &= (unsigned char)~bit;
}

void n_tty_flush(struct tty_struct *tty)
{
	tty->read_head = tty->read_tail = tty->canon_head = 0;
	tty->canon_data = 0;
	memset(tty->line_end, 0, sizeof(tty->line_end));
}

void n_tty_init(struct tty_struct *tty)
{
	tty->termios = tty_std_termios;
	tty->lnext = false;
	n_tty_flush(tty);
}

unsigned int n_tty_receive_room(const struct tty_struct *tty)
{
	unsigned int left = N_TTY_BUF_SIZE - read_cnt(tty) - 1;

	/* A line being typed into a full buffer can still be ended: never throttle then. */
	if (!left && L(tty, ICANON) && !tty->canon_data)
		left = 1;
	return left;
}

static void echo(struct tty_struct *tty, const char *s, size_t n)
{
	if (tty->ops && tty->ops->write)
		tty->ops->write(tty, s, n);
}

static bool shown_as_caret(const struct tty_struct *tty, unsigned char c)
{
	return L(tty, ECHOCTL) && (c < 0x20 || c == 0x7f) && c != '\t' && c != '\n';
}

/* ECHOCTL shows a control character as ^X (DEL as ^?). */
static void echo_char(struct tty_struct *tty, unsigned char c)
{
	char caret[2] = { '^', (char)(c ^ 0100) };

	if (shown_as_caret(tty, c))
		echo(tty, caret, 2);
	else
		echo(tty, (const char *)&c, 1);
}

/* Stores c; in ICANON the last slot is kept for the byte that ends the line. */
static bool put_char(struct tty_struct *tty, unsigned char c, bool ends_line)
{
	unsigned int limit = N_TTY_BUF_SIZE - 1 - (L(tty, ICANON) && !ends_line);

	if (read_cnt(tty) >= limit)
		return false;
	set_line_end(tty, tty->read_head, ends_line);
	tty->read_buf[MASK(tty->read_head++)] = c;
	return true;
}

static void end_line(struct tty_struct *tty, unsigned char c)
{
	if (!put_char(tty, c, true))
		return;
	tty->canon_head = tty->read_head;
	tty->canon_data++;
}

/* Takes the last byte of the line being typed off the buffer and, with ECHOE, off the screen. */
static unsigned char erase_one(struct tty_struct *tty)
{
	unsigned char c = tty->read_buf[MASK(--tty->read_head)];

	if (L(tty, ECHO) && L(tty, ECHOE)) {
		for (int w = shown_as_caret(tty, c) ? 2 : 1; w > 0; w--)
			echo(tty, "\b \b", 3);
	}
	return c;
}

static bool is_word_char(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* VERASE (or ^H), VWERASE or VKILL on the line being typed (Linux's eraser()). */
static void eraser(struct tty_struct *tty, unsigned char c)
{
	bool kill = c == CC(tty, VKILL);
	bool werase = !kill && c == CC(tty, VWERASE) && c != CC(tty, VERASE) && c != '\b';
	bool seen_word = false;

	if (tty->read_head == tty->canon_head)
		return;
	if (kill && L(tty, ECHO) && !(L(tty, ECHOE) && L(tty, ECHOKE))) {
		tty->read_head = tty->canon_head; /* no visual erase: the kill character, and a newline */
		echo_char(tty, c);
		if (L(tty, ECHOK))
			echo(tty, "\n", 1);
		return;
	}
	if (!L(tty, ECHOE) && L(tty, ECHO) && !kill)
		echo_char(tty, c);
	while (tty->read_head != tty->canon_head) {
		unsigned char last = tty->read_buf[MASK(tty->read_head - 1)];

		if (werase && is_word_char(last))
			seen_word = true;
		else if (werase && seen_word)
			break;
		erase_one(tty);
		if (!kill && !werase)
			break;
	}
}

static void isig(struct tty_struct *tty, unsigned char c, int sig)
{
	if (!L(tty, NOFLSH))
		n_tty_flush(tty);
	if (L(tty, ECHO))
		echo_char(tty, c);
	if (tty->isig)
		tty->isig(tty, sig);
}

/* The special characters of canonical mode; false if c is an ordinary byte. */
static bool canon_special(struct tty_struct *tty, unsigned char c)
{
	/* ^H erases as well as VERASE (DEL): terminals send either for Backspace. */
	if (c == CC(tty, VERASE) || c == '\b' || c == CC(tty, VKILL) ||
	    (c == CC(tty, VWERASE) && L(tty, IEXTEN))) {
		eraser(tty, c);
		return true;
	}
	if (c == CC(tty, VLNEXT) && L(tty, IEXTEN)) {
		tty->lnext = true;
		if (L(tty, ECHO) && L(tty, ECHOCTL))
			echo(tty, "^\b", 2);
		return true;
	}
	if (c == CC(tty, VEOF)) {
		end_line(tty, EOF_MARK); /* not echoed; a line's start: read returns 0 */
		return true;
	}
	if (c == '\n' || (c && (c == CC(tty, VEOL) || c == CC(tty, VEOL2)))) {
		if (L(tty, ECHO) || (c == '\n' && L(tty, ECHONL)))
			echo_char(tty, c);
		end_line(tty, c);
		return true;
	}
	return false;
}

static void receive_char(struct tty_struct *tty, unsigned char c)
{
	bool literal = tty->lnext;

	tty->lnext = false;
	if (I(tty, ISTRIP))
		c &= 0x7f;
	if (!literal && c == '\r') {
		if (I(tty, IGNCR))
			return;
		if (I(tty, ICRNL))
			c = '\n';
	} else if (!literal && c == '\n' && I(tty, INLCR)) {
		c = '\r';
	}
	if (!literal && L(tty, ISIG) && c) {
		int sig = c == CC(tty, VINTR) ? SIGINT : c == CC(tty, VQUIT) ? SIGQUIT
						 : c == CC(tty, VSUSP)	     ? SIGTSTP
									     : 0;
		if (sig) {
			isig(tty, c, sig);
			return;
		}
	}
	if (!literal && L(tty, ICANON) && canon_special(tty, c))
		return;
	if (put_char(tty, c, false) && L(tty, ECHO))
		echo_char(tty, c);
}

void n_tty_receive_buf(struct tty_struct *tty, const unsigned char *cp, size_t count)
{
	while (count--)
		receive_char(tty, *cp++);
}

bool n_tty_input_available(const struct tty_struct *tty, unsigned int amt)
{
	if (L(tty, ICANON))
		return tty->canon_data > 0;
	return read_cnt(tty) >= (amt ? amt : 1);
}

unsigned int n_tty_chars_in_buffer(const struct tty_struct *tty)
{
	if (L(tty, ICANON))
		return tty->canon_data ? tty->canon_head - tty->read_tail : 0;
	return read_cnt(tty);
}

/* One line (or its first n bytes); its end-of-file mark is taken but not copied. */
static ssize_t copy_canon(struct tty_struct *tty, char *buf, size_t n)
{
	size_t got = 0;

	if (!tty->canon_data)
		return -EAGAIN;
	while (got < n) {
		unsigned int i = tty->read_tail++;
		unsigned char c = tty->read_buf[MASK(i)];
		bool eol = is_line_end(tty, i);

		set_line_end(tty, i, false);
		if (eol) {
			tty->canon_data--;
			if (c != EOF_MARK)
				buf[got++] = (char)c;
			break;
		}
		buf[got++] = (char)c;
	}
	return (ssize_t)got;
}

ssize_t n_tty_copy(struct tty_struct *tty, char *buf, size_t n)
{
	size_t got = 0;

	if (L(tty, ICANON))
		return copy_canon(tty, buf, n);
	if (!read_cnt(tty))
		return -EAGAIN;
	while (got < n && read_cnt(tty))
		buf[got++] = (char)tty->read_buf[MASK(tty->read_tail++)];
	tty->canon_head = tty->read_tail;
	return (ssize_t)got;
}

void n_tty_set_termios(struct tty_struct *tty, const struct termios *new)
{
	bool was_canon = L(tty, ICANON);

	tty->termios = *new;
	if (was_canon == !!L(tty, ICANON))
		return;
	/* As Linux: the bytes waiting are one line being typed (ICANON) or plain input. */
	memset(tty->line_end, 0, sizeof(tty->line_end));
	tty->canon_head = tty->read_tail;
	tty->canon_data = 0;
}
