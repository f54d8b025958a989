/*
 * tty_io_test.c: `test=tty_io`, kernel only (it sleeps on jiffies): reads
 * that wait as n_tty's read_chan (O_NONBLOCK, VMIN, VTIME), the termios
 * and window ioctls on kernel copies, and a line that hangs up.
 */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/tty.h>

static char out[64];
static size_t out_len;

static void capture(struct tty_struct *tty, const char *s, size_t n)
{
	for (size_t i = 0; i < n && out_len + 1 < sizeof(out); i++)
		out[out_len++] = s[i];
	out[out_len] = '\0';
}

static const struct tty_operations capture_ops = { .write = capture };

static struct tty_struct *test_tty(void)
{
	out_len = 0;
	out[0] = '\0';
	return tty_alloc("ttytest", MKDEV(0, 250), &capture_ops, NULL);
}

static void type(struct tty_struct *tty, const char *s)
{
	tty_insert_flip_string(tty, (const unsigned char *)s, strlen(s));
}

static void set_raw(struct tty_struct *tty, int vmin, int vtime)
{
	struct termios t;

	tty_ioctl(tty, TCGETS, &t);
	t.c_lflag &= ~(ICANON | ECHO);
	t.c_cc[VMIN] = (cc_t)vmin;
	t.c_cc[VTIME] = (cc_t)vtime;
	tty_ioctl(tty, TCSETS, &t);
}

static void tty_io_a_cooked_read_waits_for_its_line(struct ktest *t)
{
	struct tty_struct *tty = test_tty();
	char buf[16] = "";

	KTEST_ASSERT_TRUE(t, tty != NULL);
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), true), -EAGAIN);
	type(tty, "ab");
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), true), -EAGAIN); /* no line yet */
	KTEST_EXPECT_EQ(t, tty_poll(tty), TTY_POLLOUT);
	type(tty, "\r");
	KTEST_EXPECT_EQ(t, tty_poll(tty), TTY_POLLIN | TTY_POLLOUT);
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), false), 3);
	KTEST_EXPECT_TRUE(t, memcmp(buf, "ab\n", 3) == 0);
	KTEST_EXPECT_STREQ(t, out, "ab\n"); /* echoed through the driver */
	KTEST_EXPECT_EQ(t, tty_write(tty, "x", 1), 1);
	tty_hangup_and_put(tty);
}

static void tty_io_raw_reads_follow_vmin_and_vtime(struct ktest *t)
{
	struct tty_struct *tty = test_tty();
	char buf[16];
	unsigned long start;

	KTEST_ASSERT_TRUE(t, tty != NULL);
	set_raw(tty, 0, 0);
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), false), 0); /* polling read */
	set_raw(tty, 0, 1);
	start = jiffies;
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), false), 0); /* a tenth of a second */
	KTEST_EXPECT_TRUE(t, jiffies - start >= HZ / 10);
	set_raw(tty, 2, 0);
	type(tty, "xyz");
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, 2, false), 2);
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, 1, false), 1); /* VMIN 2, capped by n */
	KTEST_EXPECT_EQ(t, buf[0], 'z');
	set_raw(tty, 3, 1);
	type(tty, "q");
	start = jiffies; /* the inter-byte timer ends it with what came */
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), false), 1);
	KTEST_EXPECT_TRUE(t, jiffies - start >= HZ / 10);
	tty_hangup_and_put(tty);
}

static void tty_io_ioctls_take_kernel_copies(struct ktest *t)
{
	struct tty_struct *tty = test_tty();
	struct winsize ws = { .ws_row = 50, .ws_col = 132 }, got;
	struct termios tio;
	bool in, outw;
	int n = -1;

	KTEST_ASSERT_TRUE(t, tty != NULL);
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TCGETS, &tio), 0);
	KTEST_EXPECT_TRUE(t, (tio.c_lflag & (ICANON | ECHO | ISIG)) == (ICANON | ECHO | ISIG));
	KTEST_EXPECT_EQ(t, tio.c_cc[VINTR], 3);
	KTEST_EXPECT_EQ(t, sizeof(tio), 36); /* Linux i386's struct termios */
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TIOCSWINSZ, &ws), 0);
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TIOCGWINSZ, &got), 0);
	KTEST_EXPECT_EQ(t, got.ws_col, 132);
	type(tty, "abc\n");
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, FIONREAD, &n), 0);
	KTEST_EXPECT_EQ(t, n, 4);
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TCSETSF, &tio), 0); /* flushes the input */
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, FIONREAD, &n), 0);
	KTEST_EXPECT_EQ(t, n, 0);
	n = -5;
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TIOCSPGRP, &n), -EINVAL);
	n = 7;
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TIOCSPGRP, &n), 0);
	n = 0;
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, TIOCGPGRP, &n), 0);
	KTEST_EXPECT_EQ(t, n, 7);
	KTEST_EXPECT_EQ(t, tty_ioctl(tty, 0x5499, &n), -ENOTTY);
	KTEST_EXPECT_EQ(t, tty_ioctl_arg_size(TCSETS, &in, &outw), sizeof(struct termios));
	KTEST_EXPECT_TRUE(t, in && !outw);
	KTEST_EXPECT_EQ(t, tty_ioctl_arg_size(TIOCGWINSZ, &in, &outw), sizeof(struct winsize));
	KTEST_EXPECT_TRUE(t, !in && outw);
	tty_hangup_and_put(tty);
}

static void tty_io_a_hung_up_line_reads_end_of_file(struct ktest *t)
{
	struct tty_struct *tty = test_tty();
	char buf[4];

	KTEST_ASSERT_TRUE(t, tty != NULL);
	KTEST_EXPECT_TRUE(t, tty_lookup(MKDEV(0, 250)) == tty); /* a reference of its own */
	tty_hangup_and_put(tty);				/* the driver's goes */
	KTEST_EXPECT_TRUE(t, tty_lookup(MKDEV(0, 250)) == NULL);
	KTEST_EXPECT_EQ(t, tty_read(tty, buf, sizeof(buf), false), 0);
	KTEST_EXPECT_EQ(t, tty_write(tty, "x", 1), -EIO);
	KTEST_EXPECT_EQ(t, tty_poll(tty), TTY_POLLIN | TTY_POLLHUP);
	tty_kref_put(tty); /* the lookup's: freed now */
}

static const struct ktest_case tty_io_cases[] = {
	KTEST_CASE(tty_io_a_cooked_read_waits_for_its_line),
	KTEST_CASE(tty_io_raw_reads_follow_vmin_and_vtime),
	KTEST_CASE(tty_io_ioctls_take_kernel_copies),
	KTEST_CASE(tty_io_a_hung_up_line_reads_end_of_file),
	KTEST_END,
};

static struct ktest_suite tty_io_suite = {
	.name = "tty_io",
	.cases = tty_io_cases,
};
KTEST_SUITE(tty_io_suite);
