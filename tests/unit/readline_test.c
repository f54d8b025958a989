/* readline_test.c: the shell's line editor fed byte by byte: erasing, Ctrl-C, too-long lines. */
#include <kobold/ktest.h>
#include <kobold/readline.h>
#include <kobold/string.h>

static struct readline rl; /* about 100 KiB: too big for a kernel stack */
static char screen[256];
static size_t shown;

static void capture(const char *s, size_t n)
{
	for (size_t i = 0; i < n && shown + 1 < sizeof(screen); i++)
		screen[shown++] = s[i];
	screen[shown] = '\0';
}

static enum rl_status feed(const char *s)
{
	enum rl_status st = RL_EDITING;

	while (*s)
		st = rl_feed(&rl, (unsigned char)*s++);
	return st;
}

static void start(void)
{
	rl_init(&rl, capture, NULL);
	shown = 0;
	rl_start(&rl, "# ");
}

static void ctrl_w_erases_one_word_and_the_blanks_after_it(struct ktest *t)
{
	start();
	KTEST_EXPECT_EQ(t, feed("echo one two  three\x17"), RL_EDITING);
	KTEST_EXPECT_STREQ(t, rl.line, "echo one two  ");
	feed("\x17");
	KTEST_EXPECT_STREQ(t, rl.line, "echo one ");
	KTEST_EXPECT_EQ(t, feed("X\r"), RL_LINE);
	KTEST_EXPECT_STREQ(t, rl.line, "echo one X");
	start();
	feed("\x17\x17word\x17\x17"); /* on an empty line it does nothing */
	KTEST_EXPECT_EQ(t, rl.len, 0);
	KTEST_EXPECT_TRUE(t, strstr(screen, "\b \b") != NULL); /* erased on the terminal too */
}

static void ctrl_u_and_ctrl_c_drop_the_line(struct ktest *t)
{
	start();
	feed("garbage\x15");
	KTEST_EXPECT_EQ(t, rl.len, 0);
	KTEST_EXPECT_EQ(t, feed("echo x\x03"), RL_CANCELLED);
	KTEST_EXPECT_EQ(t, rl.len, 0);
	KTEST_EXPECT_TRUE(t, strstr(screen, "^C\n") != NULL);
}

static void a_line_too_long_is_refused_at_its_enter(struct ktest *t)
{
	start();
	for (int i = 0; i < 3000; i++)
		KTEST_EXPECT_EQ(t, rl_feed(&rl, 'y'), RL_EDITING);
	KTEST_EXPECT_EQ(t, rl.len, RL_LINE_MAX - 1);
	KTEST_EXPECT_EQ(t, feed("\r"), RL_TOO_LONG);
	rl_start(&rl, "# ");
	KTEST_EXPECT_EQ(t, feed("\nok\r"), RL_LINE); /* the LF of CR LF is the same Enter */
	KTEST_EXPECT_STREQ(t, rl.line, "ok");
}

static const struct ktest_case readline_cases[] = {
	KTEST_CASE(ctrl_w_erases_one_word_and_the_blanks_after_it),
	KTEST_CASE(ctrl_u_and_ctrl_c_drop_the_line),
	KTEST_CASE(a_line_too_long_is_refused_at_its_enter),
	KTEST_END,
};

static const struct ktest_suite readline_suite = {
	.name = "readline",
	.cases = readline_cases,
};
KTEST_SUITE(readline_suite);
