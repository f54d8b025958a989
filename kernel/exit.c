/*
 * exit.c: a process's end and its parent's wait (Linux's kernel/exit.c).
 * An exiting process gives back its memory, files and cwd at once, hands
 * its children to PID 1, and stays a zombie holding its status until its
 * parent reaps it with wait4; its parent gets SIGCHLD. A process whose
 * new parent is the kernel's own PID 1 (the in-kernel shell, which never
 * waits for strangers) is reaped as it dies, as if SIGCHLD were ignored.
 */
#include <kobold/completion.h>
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/mm_types.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>
#include <kobold/wait.h>

#define EXIT_ZOMBIE 16
#define WNOHANG 1
#define WUNTRACED 2  /* also a stopped child, once */
#define WCONTINUED 8 /* also a child SIGCONT resumed, once */
#define SIGCHLD_NR 17

static DECLARE_WAIT_QUEUE_HEAD(child_exit_wait); /* every waiting parent sleeps here */
static unsigned long nr_exits;			 /* changes at each exit: a waiter looks again */

bool is_global_init(struct task_struct *p) { return p == &init_task; }

static void release_task(struct task_struct *p)
{
	list_del(&p->user.sibling);
	nr_user_processes--;
	put_task_struct(p); /* the parent's reference */
}

/* Nobody will wait: an orphan of the kernel's PID 1, or a parent ignoring SIGCHLD. */
static bool autoreap(struct task_struct *parent)
{
	struct sighand_struct *sh = parent->user.sighand;

	if (!parent->user.mm && current->user.orphan)
		return true;
	return sh && (sh->action[SIGCHLD_NR - 1].handler == SIG_IGN ||
		      (sh->action[SIGCHLD_NR - 1].flags & SA_NOCLDWAIT));
}

static bool has_stopped_jobs(int pgrp)
{
	struct task_struct *p;

	list_for_each_entry(p, &task_list, tasks)
		if (p->user.mm && p->user.pgrp == pgrp && p->user.stopped)
			return true;
	return false;
}

/*
 * 2.6's exit_notify: a child's group that this exit leaves orphaned, with a
 * stopped process in it, gets SIGHUP and SIGCONT: no shell is left to continue it.
 */
static void kill_orphaned_stopped(int pgrp)
{
	unsigned long flags = local_irq_save(); /* a task is freed at its last switch */
	bool stuck = has_stopped_jobs(pgrp) && is_orphaned_pgrp(pgrp);

	local_irq_restore(flags);
	if (stuck) {
		kill_pgrp(pgrp, SIGHUP);
		kill_pgrp(pgrp, SIGCONT);
	}
}

static void reparent_children(struct task_struct *dead)
{
	struct task_struct *c, *n;
	int pgrps[8], nr = 0;

	if (!dead->user.children.next)
		return;
	list_for_each_entry(c, &dead->user.children, user.sibling)
		if (c->user.pgrp != dead->user.pgrp && c->user.session == dead->user.session &&
		    nr < (int)ARRAY_SIZE(pgrps))
			pgrps[nr++] = c->user.pgrp;
	if (!init_task.user.children.next)
		INIT_LIST_HEAD(&init_task.user.children);
	list_for_each_entry_safe(c, n, &dead->user.children, user.sibling) {
		c->user.parent = &init_task;
		c->user.orphan = true;
		list_move_tail(&c->user.sibling, &init_task.user.children);
		if (c->user.exit_state == EXIT_ZOMBIE && !init_task.user.mm)
			release_task(c);
	}
	while (nr--)
		kill_orphaned_stopped(pgrps[nr]);
}

/* Let go of the memory, files, cwd; the vfork parent and CLONE_CHILD_CLEARTID's futex word. */
static void exit_resources(struct task_struct *p)
{
	struct user_task *u = &p->user;

	/* As 2.6.16's mm_release: only a memory someone else still uses needs telling. */
	if (u->clear_child_tid && u->mm && u->mm->users > 1)
		put_user(0, (int __user *)u->clear_child_tid);
	u->clear_child_tid = 0;
	exec_release_old(p);
	put_files(u->files);
	u->files = NULL;
	if (u->fs && --u->fs->count == 0) {
		path_put(&u->fs->pwd);
		kfree(u->fs);
	}
	u->fs = NULL;
	sighand_put(u->sighand);
	u->sighand = NULL;
	put_group_info(u->group_info);
	u->group_info = NULL;
	u->fpu = NULL; /* no more switches save it: the task never runs in user mode again */
	kfree(u->fpu_alloc);
	u->fpu_alloc = NULL;
}

__noreturn void do_exit_user(int status)
{
	struct task_struct *me = current, *parent;

	if (is_global_init(me))
		panic("Attempted to kill init! exitcode=0x%08x", status);
	if (!kernel_locked())  /* a fatal signal on the way to user mode: not in a call */
		lock_kernel(); /* the parent's list of children and PID 1's are shared */
	parent = me->user.parent;
	exit_resources(me);
	reparent_children(me);
	me->user.exit_status = status;
	if (parent && autoreap(parent)) {
		release_task(me);
	} else {
		me->user.exit_state = EXIT_ZOMBIE;
		if (parent)
			send_sig(SIGCHLD_NR, parent);
	}
	nr_exits++;
	wake_up(&child_exit_wait);
	release_kernel_lock();
	do_exit(status);
}

long sys_exit(int code) { do_exit_user((code & 0xff) << 8); }
long sys_exit_group(int code) { do_exit_user((code & 0xff) << 8); }

static bool wait_matches(struct task_struct *c, int pid)
{
	if (pid > 0)
		return c->pid == pid;
	if (pid == 0)
		return c->user.pgrp == current->user.pgrp;
	if (pid < -1)
		return c->user.pgrp == -pid;
	return true;
}

void notify_parent_cldstop(struct task_struct *p)
{
	struct task_struct *parent = p->user.parent;
	unsigned long flags;

	if (parent && parent->user.sighand &&
	    !(parent->user.sighand->action[SIGCHLD_NR - 1].flags & SA_NOCLDSTOP))
		send_sig(SIGCHLD_NR, parent);
	flags = local_irq_save();
	nr_exits++;
	local_irq_restore(flags);
	wake_up(&child_exit_wait);
}

/* A stopped or continued child that wait4's options ask about: its status, once. */
static bool report_stop(struct task_struct *c, int options, int *status)
{
	if ((options & WUNTRACED) && c->user.stopped && c->user.stop_signal) {
		*status = (c->user.stop_signal << 8) | 0x7f;
		c->user.stop_signal = 0;
		return true;
	}
	if ((options & WCONTINUED) && c->user.continued) {
		*status = 0xffff;
		c->user.continued = false;
		return true;
	}
	return false;
}

/* One look at the children: a reaped PID, 0 if some still run, -ECHILD if none match. */
static int reap_one(int pid, int *status, int options)
{
	struct task_struct *c, *n;
	bool any = false;

	if (!current->user.children.next)
		return -ECHILD;
	list_for_each_entry_safe(c, n, &current->user.children, user.sibling) {
		if (!wait_matches(c, pid))
			continue;
		any = true;
		if (c->user.exit_state != EXIT_ZOMBIE) {
			if (report_stop(c, options, status))
				return c->pid;
			continue;
		}
		*status = c->user.exit_status;
		pid = c->pid;
		release_task(c);
		return pid;
	}
	return any ? 0 : -ECHILD;
}

static long do_wait(int pid, int *status, int options)
{
	unsigned long seen;
	int ret;

	for (;;) {
		seen = nr_exits;
		ret = reap_one(pid, status, options);
		if (ret != 0 || (options & WNOHANG))
			return ret;
		if (wait_event_user(child_exit_wait, nr_exits != seen))
			return -ERESTARTSYS;
	}
}

long sys_wait4(int pid, int __user *stat_addr, int options, void __user *ru)
{
	int status = 0;
	long ret = do_wait(pid, &status, options);

	if (ret > 0 && stat_addr && put_user(status, stat_addr))
		return -EFAULT;
	if (ret >= 0 && ru && clear_user(ru, 72)) /* struct rusage: no accounting */
		return -EFAULT;
	return ret;
}

long sys_waitpid(int pid, int __user *stat_addr, int options)
{
	return sys_wait4(pid, stat_addr, options, NULL);
}

int kernel_wait(int pid, int *status) { return (int)do_wait(pid, status, 0); }

int kernel_wait_nohang(int pid, int *status) { return (int)do_wait(pid, status, WNOHANG); }
