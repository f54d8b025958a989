/*
 * usermode.c: how the kernel starts programs: init= as PID 1 (Linux's
 * init/main.c run_init_process), and a program the shell runs, looked up
 * in PATH, with the console as stdin, stdout and stderr, waited for, its
 * status returned (Ctrl-C meanwhile sends its group SIGINT).
 */
#include <kobold/console.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/fs.h>
#include <kobold/panic.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/tty.h>

static const char *init_path;
core_param(init, init_path, charp, "run this program as PID 1 on the console");

static char *const default_envp[] = { "HOME=/", "TERM=linux",
				      "PATH=/bin:/sbin:/usr/bin:/usr/sbin", NULL };

/*
 * fds 0, 1 and 2: the caller's console, the tty its shell reads
 * (/dev/ttyS0, /dev/tty0, /dev/hvc0), or /dev/console for init=.
 */
static int console_stdio(struct task_struct *p)
{
	struct tty_struct *tty = current->tty;
	char path[32];
	struct file *f;
	int err;

	scnprintf(path, sizeof(path), "/dev/%s", tty ? tty->name : "console");
	err = vfs_open(NULL, path, O_RDWR, 0, &f);
	if (err && !tty && p != current)
		return 0; /* a helper of khelper's, /dev a fresh tmpfs: it runs without, as 2.6's did */
	if (err)
		return err;
	fd_install_from(p->user.files, f, 0, false);
	fd_install_from(p->user.files, get_file(f), 1, false);
	fd_install_from(p->user.files, get_file(f), 2, false);
	return 0;
}

bool init_requested(void) { return init_path != NULL; }

/* No kernel shell reads the console: its ^C, ^\\ and ^Z go to the group in front. */
static void console_isig(struct tty_struct *tty, int sig)
{
	if (tty->pgrp)
		kill_pgrp(tty->pgrp, sig);
}

static void init_console_signals(int pgrp)
{
	struct tty_struct *tty = tty_lookup(MKDEV(TTY_MAJOR, SERIAL_MINOR_BASE));

	if (!tty)
		return;
	tty->pgrp = pgrp;
	tty->session = pgrp;
	tty->isig = console_isig;
	tty_kref_put(tty);
}

/* kmain's last step with init=: this thread, PID 1, becomes the program. */
void run_init_process(void)
{
	char *argv[] = { (char *)init_path, NULL };
	int err = user_task_init(current);

	if (!err)
		err = console_stdio(current);
	init_console_signals(current->pid);
	if (!err)
		err = kernel_execve(init_path, argv, default_envp);
	panic("No working init found: %s: error %d. Try passing init= option to kernel.",
	      init_path, err);
}

struct spawn_info {
	char *path;
	char **argv;
	int err; /* the execve's error, for the shell to say */
};

static struct spawn_info spawn;

static int spawn_start(void *data)
{
	struct spawn_info *si = data;

	si->err = kernel_execve(si->path, si->argv, default_envp);
	do_exit_user(126 << 8); /* as sh's status for a program it cannot run */
}

/*
 * A new process, not yet running, that will run fn(data) in its own
 * thread (fn execs); its stdio the caller's console (/dev/console for a
 * kernel thread with none). The program the shell runs and
 * call_usermodehelper's (kernel/kmod.c) are made here.
 */
struct task_struct *user_process_create(int (*fn)(void *data), void *data, const char *name)
{
	struct task_struct *p = create_thread(fn, data, name);
	int err;

	if (!p)
		return ERR_PTR(-ENOMEM);
	p->flags = 0;
	err = user_task_init(p);
	if (!err)
		err = console_stdio(p);
	if (err) {
		put_files(p->user.files);
		task_list_del(p);
		put_task_struct(p);
		return ERR_PTR(err);
	}
	return p;
}

/* The caller is its parent: it gets SIGCHLD and waits (the caller holds the big lock). */
void user_process_adopt(struct task_struct *p, bool autoreap)
{
	p->user.parent = current;
	p->user.orphan = autoreap; /* a kernel thread parent that never waits: reaped at exit */
	if (!current->user.children.next)
		INIT_LIST_HEAD(&current->user.children);
	list_add_tail(&p->user.sibling, &current->user.children);
	get_task_struct(p);
	nr_user_processes++;
}

int spawn_user_program(const char *path, char *const argv[], char *const envp[])
{
	struct task_struct *p;

	spawn.path = (char *)path;
	spawn.argv = (char **)argv;
	spawn.err = 0;
	p = user_process_create(spawn_start, &spawn, path);
	if (IS_ERR(p))
		return (int)PTR_ERR(p);
	user_process_adopt(p, false);
	wake_up_process(p);
	return p->pid;
}

/* PATH's directories, or the word itself if it has a '/': 0 and the path, or -ENOENT. */
static int find_program(const char *word, char *out, size_t size)
{
	static const char *const dirs[] = { "/bin", "/sbin", "/usr/bin", "/usr/sbin" };
	struct kstat st;

	if (strchr(word, '/')) {
		strscpy(out, word, size);
		return vfs_stat(NULL, out, LOOKUP_FOLLOW, &st) ? -ENOENT : 0;
	}
	for (unsigned int i = 0; i < ARRAY_SIZE(dirs); i++) {
		scnprintf(out, size, "%s/%s", dirs[i], word);
		if (!vfs_stat(NULL, out, LOOKUP_FOLLOW, &st) && S_ISREG(st.mode))
			return 0;
	}
	return -ENOENT;
}

/*
 * Waits for pid a tick at a time; the console's Ctrl-C goes as SIGINT to the
 * group in front, which a job-control shell (busybox sh) may have changed.
 */
static int wait_foreground(int pid)
{
	struct tty_struct *tty = current->tty;

	int status = 0, r;

	for (;;) {
		lock_kernel(); /* exiting orphans change PID 1's children under it */
		r = kernel_wait_nohang(pid, &status);
		unlock_kernel();
		if (r != 0)
			return r < 0 ? r : status;
		if (signal_pending()) { /* the shell's isig hook: ^C on its console */
			console_take_interrupt();
			kill_pgrp(tty && tty->pgrp ? tty->pgrp : pid, SIGINT);
		}
		schedule_timeout_interruptible(1);
	}
}

int shell_run_program(int argc, char **argv)
{
	char *path = kmalloc(PATH_MAX);
	struct tty_struct *tty = current->tty;
	struct termios saved;
	int pid, status, depth;

	if (!path)
		return -ENOMEM;
	if (find_program(argv[0], path, PATH_MAX)) {
		kfree(path);
		return -ENOENT;
	}
	pid = spawn_user_program(path, argv, default_envp);
	if (pid < 0) {
		kfree(path);
		return pid;
	}
	if (tty) {
		tty_ioctl(tty, TCGETS, &saved); /* the shell's raw mode; the program gets Linux's cooked */
		tty_ioctl(tty, TCSETS, (void *)&tty_std_termios);
		tty->pgrp = pid;
	}
	depth = release_kernel_lock(); /* the program's system calls take it */
	status = wait_foreground(pid);
	reacquire_kernel_lock(depth);
	if (tty) {
		tty->pgrp = 0;
		tty_ioctl(tty, TCSETS, &saved);
	}
	kfree(path);
	if (status < 0)
		return status;
	if (spawn.err)
		return spawn.err; /* it never ran: ENOEXEC, EACCES, ... */
	if (status & 0x7f)
		return 128 + (status & 0x7f); /* killed by a signal, as sh reports it */
	return (status >> 8) & 0xff;
}
