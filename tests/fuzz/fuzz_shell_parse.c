/* fuzz_shell_parse.c: libFuzzer target for the shell's tokenizer (shell/parse.c). */
#include <kobold/shell.h>
#include <kobold/string.h>

#include <stdint.h>
#include <stdlib.h>

static struct shell_cmdline cl;

/* Every word lies inside cl.words and ends before the buffer does. */
static void check_words(void)
{
	const char *lo = cl.words, *hi = cl.words + sizeof(cl.words);

	if (cl.argc < 0 || cl.argc > SHELL_MAX_ARGS || cl.argv[cl.argc] != NULL)
		abort();
	for (int i = 0; i < cl.argc; i++)
		if (cl.argv[i] < lo || cl.argv[i] + strlen(cl.argv[i]) >= hi)
			abort();
	if (cl.redirect && (cl.redirect < lo || cl.redirect + strlen(cl.redirect) >= hi))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1); /* exact size: ASan sees any read past the NUL */
	const char *err = NULL;

	memcpy(line, data, size);
	line[size] = '\0';
	if (shell_parse(line, &cl, &err) == 0) {
		check_words();
		if (cl.next && (cl.next <= line || cl.next > line + size))
			abort(); /* the rest of a list lies after its ';', inside the line */
	} else if (!err || cl.argc != 0 || cl.redirect || cl.next) {
		abort();
	}
	free(line);
	return 0;
}
