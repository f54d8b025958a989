/*
 * shell.c: the kernel's shell. Reads a line with the line editor, splits it,
 * finds the command in the table (the shell_cmds section) and runs it, with
 * its output captured for a "> FILE" redirection.
 */
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/mutex.h>
#include <kobold/readline.h>
#include <kobold/sched.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/udevd.h>

#define REDIRECT_MAX 65536 /* a command's output kept for "> FILE" */

static struct readline rl;
static char prompt[SHELL_LINE_MAX + 16];
static struct shell_cmdline cmdline;
static char redirect_buf[REDIRECT_MAX];
static size_t redirect_len;
static bool redirecting;
static bool redirect_flushed; /* the file holds output already: the rest is appended */
static int redirect_err;      /* a write to it failed: the rest is dropped, said at the end */
static bool redirect_open_failed;
static int nesting; /* lines run from deferred work, inside the current one */
/*
 * The shell's own state above (one shell today): held by the shell while
 * it runs a line, and by deferred work that runs one (udev's RUN+=), which
 * then waits for the shell's command to end. It is no big lock: the rest
 * of the kernel (events/0's probes, hotplug, udev's rules) runs beside a
 * command, under the locks of docs/locking.md.
 */
static DEFINE_MUTEX(shell_mutex);

/* The output kept so far goes to the file, as a shell's writes go as they come. */
static void redirect_flush(void)
{
	if (!redirect_err && redirect_len)
		redirect_err = shell_write_file(cmdline.redirect, redirect_buf, redirect_len,
						cmdline.append || redirect_flushed,
						&redirect_open_failed);
	redirect_flushed = true;
	redirect_len = 0;
}

void sh_write(const char *s, size_t n)
{
	if (!redirecting) {
		console_write(s, n);
		return;
	}
	while (n) {
		size_t room = REDIRECT_MAX - redirect_len, k = n < room ? n : room;

		memcpy(redirect_buf + redirect_len, s, k);
		redirect_len += k;
		s += k;
		n -= k;
		if (redirect_len == REDIRECT_MAX)
			redirect_flush();
	}
}

static void sh_vprintf(void (*emit)(const char *, size_t), const char *fmt, va_list ap)
{
	char buf[256], *big;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	if (n < (int)sizeof(buf)) {
		emit(buf, (size_t)n);
	} else if ((big = kmalloc((size_t)n + 1))) {
		vsnprintf(big, (size_t)n + 1, fmt, again);
		emit(big, (size_t)n);
		kfree(big);
	} else {
		emit(buf, sizeof(buf) - 1);
	}
	va_end(again);
}

void sh_printf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sh_vprintf(sh_write, fmt, ap);
	va_end(ap);
}

void sh_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	sh_vprintf(console_write, fmt, ap);
	va_end(ap);
}

static const struct shell_command *find_command(const char *name)
{
	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int run_redirected(const struct shell_command *c, struct shell_cmdline *cl)
{
	redirecting = true;
	redirect_len = 0;
	redirect_flushed = false;
	redirect_err = 0;
	redirect_open_failed = false;
	return shell_redirect_finish(c->name, c->fn(cl->argc, cl->argv));
}

/*
 * The output still kept goes to the file. Output past REDIRECT_MAX went
 * as it came (redirect_flush), so a long one reaches a file, or /dev/null,
 * whole; a file that cannot take it is said once, at the end.
 */
int shell_redirect_finish(const char *name, int status)
{
	if (!redirecting)
		return status; /* no "> FILE", or a command run by this one wrote it */
	if (redirect_len || !redirect_flushed)
		redirect_flush(); /* also makes an empty file for no output */
	redirecting = false;
	if (redirect_open_failed) { /* as bash reports a redirection it could not open */
		sh_err("kobold: %s: %s\n", cmdline.redirect, kstrerror(redirect_err));
		return 1;
	}
	if (redirect_err) {
		sh_err("%s: write error: %s\n", name, kstrerror(redirect_err));
		return 1;
	}
	return status;
}

static int run_command(const struct shell_command *c, struct shell_cmdline *cl)
{
	int status = cl->redirect ? run_redirected(c, cl) : c->fn(cl->argc, cl->argv);

	if (console_take_interrupt()) /* Ctrl-C stopped it (or came as it ended) */
		return 130;	      /* 128 + SIGINT, as a shell reports it */
	return status;
}

/* One command of the line, parsed into cmdline. */
static int execute_one(void)
{
	const struct shell_command *c;

	if (cmdline.argc == 0)
		return 0;
	if (!nesting)
		udevd_flush_work(); /* what the last command left is done first */
	c = find_command(cmdline.argv[0]);
	if (!c) {
		sh_err("%s: command not found\n", cmdline.argv[0]);
		return 127;
	}
	return run_command(c, &cmdline);
}

/*
 * Runs a line: one command, or a list of them separated by ';', in turn.
 * As sh does, a syntax error anywhere runs none of it, the status is the
 * last command's, and Ctrl-C stops the list.
 */
int shell_execute(const char *line)
{
	const char *err, *next;
	int status = 0;

	for (const char *s = line; s; s = cmdline.next)
		if (shell_parse(s, &cmdline, &err)) {
			sh_err("kobold: %s\n", err);
			return 2;
		}
	for (const char *s = line; s && status != 130; s = next) {
		shell_parse(s, &cmdline, &err);
		next = cmdline.next; /* before the command, which may run lines of its own */
		status = execute_one();
	}
	return status;
}

static int cmd_history(int argc, char **argv)
{
	unsigned int first = rl.hist_count > RL_HISTORY ? rl.hist_count - RL_HISTORY : 0;

	if (argc > 1) {
		sh_err("usage: history\n");
		return 1;
	}
	for (unsigned int i = first; i < rl.hist_count; i++) /* numbered as bash does */
		sh_printf("%5u  %s\n", i + 1, rl.history[i % RL_HISTORY]);
	return 0;
}
SHELL_COMMAND("history", "", "the lines typed so far, numbered", cmd_history);

/* Tab on the first word completes command names, later words paths. */
static void complete(struct readline *r, const char *line, size_t start)
{
	size_t n = r->len - start;
	char word[64];

	for (size_t i = 0; i < start; i++) {
		if (line[i] != ' ') {
			shell_complete_path(r, line + start, n);
			return;
		}
	}
	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++) {
		if (strncmp(c->name, line + start, n) == 0) {
			scnprintf(word, sizeof(word), "%s ", c->name);
			rl_add_candidate(r, word);
		}
	}
}

/*
 * A line from deferred work (udev's RUN+=), which may run while another
 * command runs: that command's words and redirection are set aside and
 * put back after, so the line's own output and "> FILE" are its own.
 */
int shell_execute_nested(const char *line)
{
	struct shell_nest {
		struct shell_cmdline cmdline;
		char buf[REDIRECT_MAX];
		size_t len;
		bool redirecting, flushed, open_failed;
		int err;
	} *saved = kmalloc(sizeof(*saved));
	bool mine = shell_mutex.owner == current; /* run from work the shell runs itself */
	int status;

	if (!saved) {
		sh_err("kobold: %s\n", kstrerror(-ENOMEM));
		return 1;
	}
	if (!mine)
		mutex_lock(&shell_mutex);
	memcpy(&saved->cmdline, &cmdline, sizeof(cmdline));
	memcpy(saved->buf, redirect_buf, redirect_len);
	saved->len = redirect_len;
	saved->redirecting = redirecting;
	saved->flushed = redirect_flushed;
	saved->open_failed = redirect_open_failed;
	saved->err = redirect_err;
	redirecting = false;
	nesting++; /* the work it runs in comes first: other work waits its turn */
	status = shell_execute(line);
	nesting--;
	memcpy(&cmdline, &saved->cmdline, sizeof(cmdline));
	memcpy(redirect_buf, saved->buf, saved->len);
	redirect_len = saved->len;
	redirecting = saved->redirecting;
	redirect_flushed = saved->flushed;
	redirect_open_failed = saved->open_failed;
	redirect_err = saved->err;
	if (!mine)
		mutex_unlock(&shell_mutex);
	kfree(saved);
	return status;
}

/* For udevd's events, whose RUN+= lines run here: see udevd_set_executor_lock. */
static int shell_enter(void)
{
	if (shell_mutex.owner == current)
		return 0;
	if (!list_empty(&shell_mutex.wait.head))
		return -1; /* a typed line waits for it: the shell goes first, and runs the event itself */
	return mutex_trylock(&shell_mutex) ? 1 : -1;
}

static void shell_leave(void) { mutex_unlock(&shell_mutex); }

void shell_run(void)
{
	enum rl_status st;

	udevd_set_executor(shell_execute_nested); /* udev's RUN+= runs command lines */
	udevd_set_executor_lock(shell_enter, shell_leave);
	rl_init(&rl, console_write, complete);
	for (;;) {
		kmem_check(NULL); /* overruns and writes after free show up at the next prompt */
		scnprintf(prompt, sizeof(prompt), "kobold:%s# ", shell_cwd_path());
		rl_start(&rl, prompt);
		do
			st = rl_feed(&rl, console_getc());
		while (st == RL_EDITING);
		if (st == RL_TOO_LONG)
			sh_err("kobold: line too long (at most %d characters)\n", RL_LINE_MAX - 1);
		if (st != RL_LINE)
			continue;
		rl_history_add(&rl, rl.line);
		mutex_lock(&shell_mutex);
		shell_execute(rl.line);
		mutex_unlock(&shell_mutex);
		udevd_kick(); /* the events the command sent, if it left any */
	}
}
