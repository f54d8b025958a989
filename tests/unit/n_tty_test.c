/* n_tty_test.c: the line discipline fed byte by byte: cooked lines, erasing, ^D, ^C, raw mode, termios switches. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/string.h>
#include <kobold/tty.h>

static struct tty_struct tty; /* 4 KiB of buffer: not on a kernel stack */
static char echoed[512];
static size_t shown;
static int signals[4], nr_signals;

static void capture(struct tty_struct *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && shown + 1 < sizeof(echoed); i++)
		echoed[shown++] = s[i];
	echoed[shown] = '\0';
}

static void note_signal(struct tty_struct *t, int sig)
{
	if (nr_signals < 4)
		signals[nr_signals++] = sig;
}

static const struct tty_operations capture_ops = { .write = capture };

static void start(void)
{
	memset(&tty, 0, sizeof(tty));
	tty.ops = &capture_ops;
	tty.isig = note_signal;
	n_tty_init(&tty);
	shown = 0;
	echoed[0] = '\0';
	nr_signals = 0;
}

static void type(const char *s) { n_tty_receive_buf(&tty, (const unsigned char *)s, strlen(s)); }

/* One read of at most n bytes, NUL-terminated in out; its return value. */
static ssize_t read_some(char *out, size_t n)
{
	ssize_t got = n_tty_copy(&tty, out, n);

	out[got > 0 ? got : 0] = '\0';
	return got;
}

static void raw(unsigned int vmin)
{
	struct termios t = tty.termios;

	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = (cc_t)vmin;
	n_tty_set_termios(&tty, &t);
}

static void a_line_is_read_only_once_it_ends_and_is_echoed(struct ktest *t)
{
	char buf[64];

	start();
	type("ls /sys");
	KTEST_EXPECT_FALSE(t, n_tty_input_available(&tty, 1));
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), -EAGAIN);
	type("\r"); /* ICRNL: Enter's CR arrives as NL */
	KTEST_EXPECT_TRUE(t, n_tty_input_available(&tty, 1));
	KTEST_EXPECT_EQ(t, n_tty_chars_in_buffer(&tty), 8);
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 8);
	KTEST_EXPECT_STREQ(t, buf, "ls /sys\n");
	KTEST_EXPECT_STREQ(t, echoed, "ls /sys\n");
	type("one\ntwo\n"); /* two lines: one a read; a short read leaves the rest of its line */
	KTEST_EXPECT_EQ(t, read_some(buf, 2), 2);
	KTEST_EXPECT_STREQ(t, buf, "on");
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 2);
	KTEST_EXPECT_STREQ(t, buf, "e\n");
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 4);
	KTEST_EXPECT_STREQ(t, buf, "two\n");
}

static void erase_kill_and_word_erase_edit_the_line(struct ktest *t)
{
	char buf[64];

	start();
	type("abc\b\x7f"
	     "d\n"); /* ^H and DEL (VERASE) both erase, on the screen too */
	read_some(buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "ad\n");
	KTEST_EXPECT_STREQ(t, echoed, "abc\b \b\b \bd\n");
	start();
	type("a\x01\x7f"
	     "b\n"); /* a control character shown as ^A takes two columns back */
	read_some(buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "ab\n");
	KTEST_EXPECT_STREQ(t, echoed, "a^A\b \b\b \bb\n");
	start();
	type("garbage\x15"
	     "ok\n"); /* ^U: the whole line */
	read_some(buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "ok\n");
	start();
	type("echo one two  \x17"
	     "X\n"); /* ^W: the blanks, then the word */
	read_some(buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "echo one X\n");
	start();
	type("\x7f\x15\x17"
	     "q\n"); /* on an empty line they do nothing */
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 2);
	KTEST_EXPECT_STREQ(t, echoed, "q\n");
}

static void ctrl_d_ends_a_line_or_reads_end_of_file(struct ktest *t)
{
	char buf[64];

	start();
	type("\x04");
	KTEST_EXPECT_TRUE(t, n_tty_input_available(&tty, 1));
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 0); /* end of file */
	type("abc\x04");				    /* mid-line: the line, no newline */
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_STREQ(t, echoed, "abc"); /* ^D is not echoed */
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), -EAGAIN);
}

static void ctrl_c_signals_and_drops_what_was_typed(struct ktest *t)
{
	char buf[64];

	start();
	type("half a line\x03");
	KTEST_EXPECT_EQ(t, nr_signals, 1);
	KTEST_EXPECT_EQ(t, signals[0], SIGINT);
	KTEST_EXPECT_EQ(t, n_tty_chars_in_buffer(&tty), 0);
	KTEST_EXPECT_TRUE(t, strstr(echoed, "^C") != NULL); /* ECHOCTL */
	type("\x1c\x1a");
	KTEST_EXPECT_EQ(t, nr_signals, 3);
	KTEST_EXPECT_EQ(t, signals[1], SIGQUIT);
	KTEST_EXPECT_EQ(t, signals[2], SIGTSTP);
	type("\x16\x03\n"); /* ^V: the next byte literally, no signal */
	KTEST_EXPECT_EQ(t, nr_signals, 3);
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 2);
	KTEST_EXPECT_EQ(t, buf[0], 3);
	start();
	tty.termios.c_lflag &= ~ISIG; /* no ISIG: ^C is a byte like any other */
	type("\x03\n");
	KTEST_EXPECT_EQ(t, nr_signals, 0);
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 2);
}

static void raw_mode_hands_over_bytes_as_they_come(struct ktest *t)
{
	char buf[64];

	start();
	type("partial");
	raw(1); /* the line being typed becomes plain input */
	KTEST_EXPECT_TRUE(t, n_tty_input_available(&tty, 1));
	KTEST_EXPECT_FALSE(t, n_tty_input_available(&tty, 8)); /* VMIN 8 would wait */
	KTEST_EXPECT_EQ(t, read_some(buf, 3), 3);
	KTEST_EXPECT_STREQ(t, buf, "par");
	type("\x7f\x15\r"); /* no editing; CR still becomes NL (ICRNL) */
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 7);
	KTEST_EXPECT_STREQ(t, buf, "tial\x7f\x15\n");
	KTEST_EXPECT_STREQ(t, echoed, "partial"); /* echoed while cooked; ECHO is off now */
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), -EAGAIN);
	type("abc");
	n_tty_set_termios(&tty, &tty_std_termios); /* back to cooked: "abc" is a line being typed */
	KTEST_EXPECT_FALSE(t, n_tty_input_available(&tty, 1));
	type("\x7f\n");
	KTEST_EXPECT_EQ(t, read_some(buf, sizeof(buf)), 3);
	KTEST_EXPECT_STREQ(t, buf, "ab\n");
}

static void a_full_buffer_keeps_room_for_the_end_of_the_line(struct ktest *t)
{
	char buf[16];
	unsigned int n = 0;

	start();
	tty.termios.c_lflag &= ~ECHO;
	for (int i = 0; i < N_TTY_BUF_SIZE + 100; i++)
		type("x");
	KTEST_EXPECT_EQ(t, n_tty_receive_room(&tty), 1); /* never 0 while no line is complete */
	type("\n");
	KTEST_EXPECT_EQ(t, n_tty_chars_in_buffer(&tty), N_TTY_BUF_SIZE - 1);
	while (read_some(buf, sizeof(buf) - 1) > 0)
		n++;
	KTEST_EXPECT_EQ(t, n, (N_TTY_BUF_SIZE - 1 + 14) / 15);
	raw(1);
	for (int i = 0; i < N_TTY_BUF_SIZE + 100; i++)
		type("y");
	KTEST_EXPECT_EQ(t, n_tty_receive_room(&tty), 0); /* raw: the driver throttles */
	KTEST_EXPECT_EQ(t, n_tty_chars_in_buffer(&tty), N_TTY_BUF_SIZE - 1);
}

static const struct ktest_case n_tty_cases[] = {
	KTEST_CASE(a_line_is_read_only_once_it_ends_and_is_echoed),
	KTEST_CASE(erase_kill_and_word_erase_edit_the_line),
	KTEST_CASE(ctrl_d_ends_a_line_or_reads_end_of_file),
	KTEST_CASE(ctrl_c_signals_and_drops_what_was_typed),
	KTEST_CASE(raw_mode_hands_over_bytes_as_they_come),
	KTEST_CASE(a_full_buffer_keeps_room_for_the_end_of_the_line),
	KTEST_END,
};

static const struct ktest_suite n_tty_suite = {
	.name = "n_tty",
	.cases = n_tty_cases,
};
KTEST_SUITE(n_tty_suite);
