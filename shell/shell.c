/*
 * shell.c: the kernel's shell, one per console, each in a thread of its
 * own reading its console's tty. Reads a line with the line editor, splits
 * it, finds the command in the table (the shell_cmds section) and runs it,
 * with its output captured for a "> FILE" redirection.
 */
#include <asm/io.h>
#include <kobold/console.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/kthread.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/readline.h>
#include <kobold/sched.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/tty.h>
#include <kobold/udevd.h>

#define REDIRECT_MAX 65536 /* a command's output kept for "> FILE" */

/*
 * One shell: each console's runs in a thread of its own and reads its
 * tty; work_shell runs udev's RUN+= lines in the events/0 thread. All a
 * command line's state is here, so two consoles' commands never share it.
 */
struct shell {
	struct tty_struct *tty;	  /* its console; NULL: output to every console */
	struct task_struct *task; /* the thread it runs in */
	struct list_head list;	  /* in shells */
	struct shell_fs fs;	  /* its working directory */
	struct shell_files files; /* its open files */
	struct readline rl;	  /* its line, and its history */
	char prompt[SHELL_LINE_MAX + 16];
	struct shell_cmdline cmdline;
	char redirect_buf[REDIRECT_MAX];
	size_t redirect_len;
	bool redirecting;
	bool redirect_flushed; /* the file holds output already: the rest is appended */
	int redirect_err;      /* a write to it failed: the rest is dropped, said at the end */
	bool redirect_open_failed;
	int nesting; /* lines run from deferred work, inside the current one */
};

static LIST_HEAD(shells); /* every console's; changed with interrupts off */
static struct shell work_shell;

/* The running thread's shell: its console's, or work_shell for any other thread. */
static struct shell *current_shell(void)
{
	unsigned long flags = local_irq_save();
	struct shell *sh, *found = &work_shell;

	list_for_each_entry(sh, &shells, list)
		if (sh->task == current) {
			found = sh;
			break;
		}
	local_irq_restore(flags);
	return found;
}

struct shell_fs *shell_fs_current(void) { return &current_shell()->fs; }

struct shell_files *shell_files_current(void) { return &current_shell()->files; }

/* Where the shell's own text goes: its console, or every console for deferred work's lines. */
static void sh_out(struct shell *sh, const char *s, size_t n)
{
	if (sh->tty && !sh->nesting)
		tty_write(sh->tty, s, n);
	else
		console_write(s, n);
}

static void sh_tty_write(const char *s, size_t n) { sh_out(current_shell(), s, n); }

/* The output kept so far goes to the file, as a shell's writes go as they come. */
static void redirect_flush(struct shell *sh)
{
	if (!sh->redirect_err && sh->redirect_len)
		sh->redirect_err = shell_write_file(sh->cmdline.redirect, sh->redirect_buf,
						    sh->redirect_len,
						    sh->cmdline.append || sh->redirect_flushed,
						    &sh->redirect_open_failed);
	sh->redirect_flushed = true;
	sh->redirect_len = 0;
}

void sh_write(const char *s, size_t n)
{
	struct shell *sh = current_shell();

	if (!sh->redirecting) {
		sh_out(sh, s, n);
		return;
	}
	while (n) {
		size_t room = REDIRECT_MAX - sh->redirect_len, k = n < room ? n : room;

		memcpy(sh->redirect_buf + sh->redirect_len, s, k);
		sh->redirect_len += k;
		s += k;
		n -= k;
		if (sh->redirect_len == REDIRECT_MAX)
			redirect_flush(sh);
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
	sh_vprintf(sh_tty_write, fmt, ap);
	va_end(ap);
}

static const struct shell_command *find_command(const char *name)
{
	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int run_redirected(struct shell *sh, const struct shell_command *c)
{
	sh->redirecting = true;
	sh->redirect_len = 0;
	sh->redirect_flushed = false;
	sh->redirect_err = 0;
	sh->redirect_open_failed = false;
	return shell_redirect_finish(c->name, c->fn(sh->cmdline.argc, sh->cmdline.argv));
}

/*
 * The output still kept goes to the file. Output past REDIRECT_MAX went
 * as it came (redirect_flush), so a long one reaches a file, or /dev/null,
 * whole; a file that cannot take it is said once, at the end.
 */
int shell_redirect_finish(const char *name, int status)
{
	struct shell *sh = current_shell();

	if (!sh->redirecting)
		return status; /* no "> FILE", or a command run by this one wrote it */
	if (sh->redirect_len || !sh->redirect_flushed)
		redirect_flush(sh); /* also makes an empty file for no output */
	sh->redirecting = false;
	if (sh->redirect_open_failed) { /* as bash reports a redirection it could not open */
		sh_err("kobold: %s: %s\n", sh->cmdline.redirect, kstrerror(sh->redirect_err));
		return 1;
	}
	if (sh->redirect_err) {
		sh_err("%s: write error: %s\n", name, kstrerror(sh->redirect_err));
		return 1;
	}
	return status;
}

static int run_command(struct shell *sh, const struct shell_command *c)
{
	struct shell_cmdline *cl = &sh->cmdline;
	int status = cl->redirect ? run_redirected(sh, c) : c->fn(cl->argc, cl->argv);

	if (console_take_interrupt()) /* Ctrl-C stopped it (or came as it ended) */
		return 130;	      /* 128 + SIGINT, as a shell reports it */
	return status < 0 ? 1 : status;
}

/* One command of the line, parsed into sh->cmdline. */
static int execute_one(struct shell *sh)
{
	const struct shell_command *c;

	if (sh->cmdline.argc == 0)
		return 0;
	c = find_command(sh->cmdline.argv[0]);
	if (!c) {
		int status = shell_run_program(sh->cmdline.argc, sh->cmdline.argv); /* a program in PATH */

		if (status >= 0)
			return status;
		if (status != -ENOENT) {
			sh_err("kobold: %s: %s\n", sh->cmdline.argv[0], kstrerror(status));
			return 126;
		}
		sh_err("%s: command not found\n", sh->cmdline.argv[0]);
		return 127;
	}
	return run_command(sh, c);
}

/*
 * Runs a line: one command, or a list of them separated by ';', in turn.
 * As sh does, a syntax error anywhere runs none of it, the status is the
 * last command's, and Ctrl-C stops the list.
 */
int shell_execute(const char *line)
{
	struct shell *sh = current_shell();
	const char *err, *next;
	int status = 0;

	for (const char *s = line; s; s = sh->cmdline.next)
		if (shell_parse(s, &sh->cmdline, &err)) {
			sh_err("kobold: %s\n", err);
			return sh->cmdline.status = 2;
		}
	for (const char *s = line; s && status != 130; s = next) {
		shell_parse(s, &sh->cmdline, &err);
		next = sh->cmdline.next; /* before the command, which may run lines of its own */
		status = execute_one(sh);
		sh->cmdline.status = status; /* `$?` in the next command */
	}
	return status;
}

static int cmd_history(int argc, char **argv)
{
	struct readline *rl = &current_shell()->rl;
	unsigned int first = rl->hist_count > RL_HISTORY ? rl->hist_count - RL_HISTORY : 0;

	if (argc > 1) {
		sh_err("usage: history\n");
		return 1;
	}
	for (unsigned int i = first; i < rl->hist_count; i++) /* numbered as bash does */
		sh_printf("%5u  %s\n", i + 1, rl->history[i % RL_HISTORY]);
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
	struct shell *sh = current_shell();
	struct shell_nest {
		struct shell_cmdline cmdline;
		char buf[REDIRECT_MAX];
		size_t len;
		bool redirecting, flushed, open_failed;
		int err;
	} *saved = kmalloc(sizeof(*saved));
	int status;

	if (!saved) {
		sh_err("kobold: %s\n", kstrerror(-ENOMEM));
		return 1;
	}
	memcpy(&saved->cmdline, &sh->cmdline, sizeof(sh->cmdline));
	memcpy(saved->buf, sh->redirect_buf, sh->redirect_len);
	saved->len = sh->redirect_len;
	saved->redirecting = sh->redirecting;
	saved->flushed = sh->redirect_flushed;
	saved->open_failed = sh->redirect_open_failed;
	saved->err = sh->redirect_err;
	sh->redirecting = false;
	sh->nesting++; /* its output goes to every console, as deferred work's */
	status = shell_execute(line);
	sh->nesting--;
	memcpy(&sh->cmdline, &saved->cmdline, sizeof(sh->cmdline));
	memcpy(sh->redirect_buf, saved->buf, saved->len);
	sh->redirect_len = saved->len;
	sh->redirecting = saved->redirecting;
	sh->redirect_flushed = saved->flushed;
	sh->redirect_open_failed = saved->open_failed;
	sh->redirect_err = saved->err;
	kfree(saved);
	return status;
}

/*
 * The shell's own line editing (readline.c) reads the tty raw: no echo,
 * no cooked lines, CR as typed; ISIG stays, so Ctrl-C is INTR, reaching
 * the shell through the tty's isig hook even while a command runs.
 */
static void tty_raw_for_readline(struct tty_struct *tty)
{
	struct termios t;

	tty_ioctl(tty, TCGETS, &t);
	t.c_lflag &= ~(ICANON | ECHO | ECHOE | ECHOK | ECHONL | IEXTEN);
	t.c_iflag &= ~(ICRNL | INLCR | IGNCR | ISTRIP | IXON);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	t.c_cc[VQUIT] = t.c_cc[VSUSP] = 0; /* disabled: only ^C is a signal here */
	tty_ioctl(tty, TCSETS, &t);
}

/* The isig hook: Ctrl-C stops this console's command, or drops its line; ^Z and ^\\ go to its program. */
static void shell_isig(struct tty_struct *tty, int sig)
{
	struct shell *sh = tty->isig_data;

	if (sig == SIGINT)
		signal_interrupt(sh->task);
	else if (tty->pgrp)
		kill_pgrp(tty->pgrp, sig);
}

/* Reads a line; false when the console went away. */
static bool read_line(struct shell *sh, enum rl_status *st)
{
	char c;
	ssize_t r;

	do {
		r = tty_read(sh->tty, &c, 1, false);
		if (r == -EINTR) { /* Ctrl-C: signal_pending() echoed ^C */
			console_take_interrupt();
			*st = RL_CANCELLED;
			return true;
		}
		if (r <= 0)
			return false; /* hung up */
		*st = rl_feed(&sh->rl, c);
	} while (*st == RL_EDITING);
	return true;
}

static void shell_loop(struct shell *sh)
{
	enum rl_status st;

	current->tty = sh->tty;
	sh->tty->isig_data = sh;
	sh->tty->isig = shell_isig;
	tty_raw_for_readline(sh->tty);
	for (;;) {
		kmem_check(NULL); /* overruns and writes after free show up at the next prompt */
		scnprintf(sh->prompt, sizeof(sh->prompt), "kobold:%s# ", shell_cwd_path());
		rl_start(&sh->rl, sh->prompt);
		if (!read_line(sh, &st))
			return;
		if (st == RL_TOO_LONG)
			sh_err("kobold: line too long (at most %d characters)\n", RL_LINE_MAX - 1);
		if (st != RL_LINE)
			continue;
		rl_history_add(&sh->rl, sh->rl.line);
		shell_execute(sh->rl.line); /* no big kernel lock: its state is its own */
	}
}

static struct shell *shell_alloc(struct tty_struct *tty)
{
	struct shell *sh = kzalloc(sizeof(*sh));

	if (!sh)
		return NULL;
	tty_kref_get(tty);
	sh->tty = tty;
	INIT_LIST_HEAD(&sh->list);
	rl_init(&sh->rl, sh_tty_write, complete);
	return sh;
}

static void shell_list_add(struct shell *sh, struct task_struct *task)
{
	unsigned long flags = local_irq_save();

	sh->task = task;
	list_add_tail(&sh->list, &shells);
	local_irq_restore(flags);
}

static void shell_free(struct shell *sh)
{
	unsigned long flags = local_irq_save();

	list_del_init(&sh->list);
	sh->tty->isig = NULL; /* the hook's data goes below */
	local_irq_restore(flags);
	shell_files_exit(&sh->files);
	shell_fs_exit(&sh->fs);
	current->tty = NULL;
	tty_kref_put(sh->tty);
	kfree(sh);
}

/* A console's shell thread: [sh/hvc0] in ps. It ends when its console hangs up. */
static int shell_thread(void *data)
{
	struct shell *sh = data;

	shell_loop(sh);
	shell_free(sh);
	return 0;
}

static struct tty_struct *boot_tty; /* /dev/console's line: ttyS0, else the first console */
static struct shell *boot_shell;    /* boot_tty's: the boot thread runs it */

/* A console appeared (tty_io.c): a shell for it, in a thread of its own. */
static void shell_console_add(struct tty_struct *tty)
{
	struct shell *sh = shell_alloc(tty);
	struct task_struct *k;

	if (!sh) {
		pr_err("kobold: no memory for a shell on %s\n", tty->name);
		return;
	}
	if (!boot_shell && tty == boot_tty && current->pid == 1) {
		boot_shell = sh;
		shell_list_add(sh, current);
		return;
	}
	k = kthread_create(shell_thread, sh, "sh/%s", tty->name);
	if (IS_ERR(k)) {
		pr_err("kobold: no shell on %s: %s\n", tty->name, kstrerror((int)PTR_ERR(k)));
		tty_kref_put(tty);
		kfree(sh);
		return;
	}
	shell_list_add(sh, k);
	wake_up_process(k);
}

/* PID 1 with no console of its own sleeps on; a console that comes later gets a shell thread. */
static __noreturn void shell_idle(void)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
}

void shell_run(void)
{
	udevd_set_executor(shell_execute_nested); /* udev's RUN+= runs command lines */
	rl_init(&work_shell.rl, sh_tty_write, NULL);
	boot_tty = tty_console(); /* held until the notify below has seen it */
	tty_set_console_notify(shell_console_add, NULL);
	if (boot_tty)
		tty_kref_put(boot_tty);
	if (!boot_shell) { /* no console line at all (QEMU -serial none -vga none), as 2.6's init/main.c */
		pr_warn("Warning: unable to open an initial console.\n");
		shell_idle();
	}
	if (boot_tty->devt != MKDEV(TTY_MAJOR, SERIAL_MINOR_BASE))
		pr_info("kobold: no ttyS0: the boot shell is on %s\n", boot_tty->name);
	shell_loop(boot_shell); /* PID 1, "sh" in ps; it ends if its console hangs up (hvc0's device gone) */
	if (!boot_shell->tty->hung_up)
		panic("the console's shell ended");
	pr_info("kobold: %s hung up: the boot shell ended\n", boot_shell->tty->name);
	shell_free(boot_shell);
	shell_idle();
}
