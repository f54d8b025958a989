/* shell_parse_test.c: the shell's words: `$?` as the last status, unquoted, in "..." and not in '...'. */
#include <kobold/ktest.h>
#include <kobold/shell.h>
#include <kobold/string.h>

static struct shell_cmdline cl; /* 2 KiB of words: not on a kernel stack */

static int parse(const char *line, int status)
{
	const char *err = NULL;

	memset(&cl, 0, sizeof(cl));
	cl.status = status;
	return shell_parse(line, &cl, &err);
}

static void status_unquoted_and_in_double_quotes(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("echo $? \"x$?y\" a$?", 7), 0);
	KTEST_EXPECT_EQ(t, cl.argc, 4);
	KTEST_EXPECT_STREQ(t, cl.argv[1], "7");
	KTEST_EXPECT_STREQ(t, cl.argv[2], "x7y");
	KTEST_EXPECT_STREQ(t, cl.argv[3], "a7");
	KTEST_EXPECT_EQ(t, parse("echo $?$?", 130), 0);
	KTEST_EXPECT_STREQ(t, cl.argv[1], "130130");
	KTEST_EXPECT_EQ(t, parse("echo $?", 0), 0);
	KTEST_EXPECT_STREQ(t, cl.argv[1], "0");
}

static void single_quotes_and_a_backslash_keep_it(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, parse("echo '$?' \\$? $ ?", 1), 0);
	KTEST_EXPECT_EQ(t, cl.argc, 5);
	KTEST_EXPECT_STREQ(t, cl.argv[1], "$?");
	KTEST_EXPECT_STREQ(t, cl.argv[2], "$?");
	KTEST_EXPECT_STREQ(t, cl.argv[3], "$");
	KTEST_EXPECT_STREQ(t, cl.argv[4], "?");
}

/* A line of nothing but $? grows by half: the words still fit. */
static void a_line_of_statuses_fits(struct ktest *t)
{
	static char line[SHELL_LINE_MAX];

	for (int i = 0; i + 2 < SHELL_LINE_MAX; i += 2)
		memcpy(line + i, "$?", 2);
	KTEST_EXPECT_EQ(t, parse(line, 255), 0);
	KTEST_EXPECT_EQ(t, cl.argc, 1);
	KTEST_EXPECT_EQ(t, strlen(cl.argv[0]), (size_t)(SHELL_LINE_MAX - 2) / 2 * 3);
}

static const struct ktest_case shell_parse_cases[] = {
	KTEST_CASE(status_unquoted_and_in_double_quotes),
	KTEST_CASE(single_quotes_and_a_backslash_keep_it),
	KTEST_CASE(a_line_of_statuses_fits),
	KTEST_END,
};

static const struct ktest_suite shell_parse_suite = {
	.name = "shell_parse",
	.cases = shell_parse_cases,
};
KTEST_SUITE(shell_parse_suite);
