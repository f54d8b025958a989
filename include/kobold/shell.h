/* shell.h: the in-kernel shell: its command table, parser and output. */
#ifndef KOBOLD_SHELL_H
#define KOBOLD_SHELL_H

#include <kobold/errno.h>
#include <kobold/types.h>

#define SHELL_MAX_ARGS 32

struct shell_command {
	const char *name;
	const char *usage;		  /* arguments, for help: "[-l] [PATH...]" */
	const char *help;		  /* one line */
	int (*fn)(int argc, char **argv); /* returns 0 or 1, like an exit status */
};

/* Adds a command to the table (the shell_cmds section), from any file. */
#define SHELL_COMMAND(cname, cusage, chelp, cfn)                             \
	static const struct shell_command __shell_cmd_##cfn                  \
		__attribute__((used, section("shell_cmds"), aligned(4))) = { \
			cname, cusage, chelp, cfn                            \
		}

extern const struct shell_command __start_shell_cmds[], __stop_shell_cmds[];

#define SHELL_LINE_MAX 1024

/* A parsed command line: words, and the file of a "> FILE" redirection. */
struct shell_cmdline {
	int argc;
	char *argv[SHELL_MAX_ARGS + 1];
	char *redirect;
	bool append;			/* ">>": write at the end instead of replacing */
	const char *next;		/* after a ';': the rest of the line, else NULL */
	int status;			/* the last command's status: what `$?` reads */
	char words[SHELL_LINE_MAX * 2]; /* each word and its NUL */
};

/*
 * Splits line (at most SHELL_LINE_MAX - 1 bytes are read) into cl's words,
 * up to the end or the first unquoted ';' (cl->next is then what follows
 * it); `$?` becomes cl->status. On error returns -EINVAL and sets *err to
 * the message.
 */
int shell_parse(const char *line, struct shell_cmdline *cl, const char **err);

/*
 * Ctrl-C ended the call: the shell's own -EINTR, or the -ERESTARTSYS (or
 * another restart code) a driver's interrupted sleep returns, which a
 * process would see as EINTR or not at all. The command's status is 130.
 */
static inline bool sh_interrupted(long err)
{
	return err == -EINTR || (err <= -ERESTARTSYS && err >= -ERESTART_RESTARTBLOCK);
}

#ifndef KOBOLD_HOST
/* Command output: to the console, or to the redirection buffer. */
void sh_printf(const char *fmt, ...) __printf(1, 2);
void sh_write(const char *s, size_t n);
/* Error messages: always to the console, like stderr. */
void sh_err(const char *fmt, ...) __printf(1, 2);
void shell_run(void);
/* The lines below a command's usage in `help CMD` (helptext.c), or NULL. */
const char *shell_help_text(const char *name);
/* Runs one command line as if typed (used by tests and boot scripts). */
int shell_execute(const char *line);
/* The same from deferred work (udev's RUN+=), even while another command runs. */
int shell_execute_nested(const char *line);
/*
 * Writes the line's "> FILE" now, with what was printed so far, and returns
 * status (1 if the write failed: the error is printed as NAME's). A command
 * that runs another (failslab N CMD) calls it so that the write is part of
 * what it runs; later calls, and calls with no redirection, do nothing.
 */
int shell_redirect_finish(const char *name, int status);
#endif

#endif
