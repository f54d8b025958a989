/* fuzz_readline.c: libFuzzer target for the line editor (shell/readline.c). */
#include <kobold/readline.h>
#include <kobold/string.h>

#include <stdint.h>
#include <stdlib.h>

static struct readline rl;
static size_t echoed;

static void out(const char *s, size_t n)
{
	echoed += n;
	(void)s;
}

/* A completer with many candidates, long ones and directories, as sysfs gives. */
static void complete(struct readline *r, const char *line, size_t start)
{
	static const char *const words[] = { "sys/", "sbd0 ", "sbd1 ", "size ", "subsystem/" };
	char big[80];

	for (unsigned int i = 0; i < ARRAY_SIZE(words); i++)
		rl_add_candidate(r, words[i]);
	if (start < r->len && line[start] == 'x') {
		memset(big, 'x', sizeof(big) - 1);
		big[sizeof(big) - 1] = '\0';
		for (int i = 0; i < RL_MAX_SHOWN + 3; i++)
			rl_add_candidate(r, big);
	}
}

static void check(void)
{
	if (rl.len >= RL_LINE_MAX || strlen(rl.line) != rl.len)
		abort();
	for (size_t i = 0; i < rl.len; i++)
		if (rl.line[i] < 0x20 || rl.line[i] >= 0x7f)
			abort(); /* only printable ASCII gets into a line */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	rl_init(&rl, out, complete);
	rl_start(&rl, "kobold:/# ");
	for (size_t i = 0; i < size; i++) {
		enum rl_status st = rl_feed(&rl, data[i]);

		check();
		if (st == RL_LINE)
			rl_history_add(&rl, rl.line);
		if (st != RL_EDITING)
			rl_start(&rl, "kobold:/# ");
	}
	return 0;
}
