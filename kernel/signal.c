/*
 * signal.c: signals of processes (Linux's kernel/signal.c): sending
 * (kill, tgkill, the tty's ^C through kill_pgrp), masks, handlers, and the
 * default actions: terminate, ignore (SIGCHLD, SIGWINCH, SIGURG, SIGCONT),
 * and stop (SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU) until a SIGCONT. A
 * signal is acted on when its process returns to user mode (do_signal);
 * the handler's frame is built by arch/x86's layout in signal_frame.c.
 */
#include <asm/ptrace.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>
#include <kobold/wait.h>

#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))
#define DEFAULT_IGNORE \
	(sigmask(SIGCHLD) | sigmask(SIGWINCH) | sigmask(SIGURG) | sigmask(SIGCONT))
#define DEFAULT_STOP (sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU))

int setup_signal_frame(int sig, struct k_sigaction *ka, u64 oldmask, struct pt_regs *regs);

struct sighand_struct *sighand_alloc(const struct sighand_struct *copy)
{
	struct sighand_struct *sh = kzalloc(sizeof(*sh));

	if (!sh)
		return NULL;
	if (copy)
		memcpy(sh->action, copy->action, sizeof(sh->action));
	sh->count = 1;
	return sh;
}

void sighand_put(struct sighand_struct *sh)
{
	if (sh && --sh->count == 0)
		kfree(sh);
}

void flush_signal_handlers(struct task_struct *p)
{
	struct k_sigaction *ka = p->user.sighand->action;

	for (int i = 0; i < _NSIG; i++) {
		if (ka[i].handler != SIG_IGN)
			ka[i].handler = SIG_DFL;
		ka[i].flags = 0;
		ka[i].mask = 0;
	}
}

static bool sig_ignored(struct task_struct *p, int sig)
{
	unsigned long h = p->user.sighand->action[sig - 1].handler;

	if (p->user.blocked & sigmask(sig))
		return false;
	return h == SIG_IGN || (h == SIG_DFL && (sigmask(sig) & DEFAULT_IGNORE));
}

bool sig_ignored_or_blocked(int sig)
{
	return (current->user.blocked & sigmask(sig)) ||
	       current->user.sighand->action[sig - 1].handler == SIG_IGN;
}

bool is_orphaned_pgrp(int pgrp)
{
	struct task_struct *p, *q;

	list_for_each_entry(p, &task_list, tasks) {
		q = p->user.parent;
		if (!p->user.mm || p->user.pgrp != pgrp || p->user.exit_state)
			continue;
		if (q && q->user.mm && q->user.pgrp != pgrp && q->user.session == p->user.session)
			return false;
	}
	return true;
}

/*
 * 2.6's handle_stop_signal, when the signal is sent: SIGCONT resumes a stopped
 * process (caught, ignored or not) and drops its pending stop signals; a stop
 * signal drops a pending SIGCONT. True if p was stopped and now runs.
 */
static bool handle_stop_signal(int sig, struct task_struct *p)
{
	if (sigmask(sig) & DEFAULT_STOP) {
		p->user.pending &= ~sigmask(SIGCONT);
		return false;
	}
	if (sig != SIGCONT)
		return false;
	p->user.pending &= ~DEFAULT_STOP;
	if (!p->user.stopped)
		return false;
	p->user.stopped = false;
	p->user.stop_signal = 0;
	p->user.continued = true;
	wake_up_process(p);
	return true;
}

bool task_sigpending(struct task_struct *p) { return p->user.pending & ~p->user.blocked; }

bool user_signal_pending(void) { return current->user.mm && task_sigpending(current); }

void user_sleep(struct wait_queue_entry *w)
{
	local_irq_disable();
	if (!w->woken && !user_signal_pending()) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	local_irq_enable();
}

int send_sig(int sig, struct task_struct *p)
{
	unsigned long flags;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (!p->user.sighand || p->user.exit_state || p->state == TASK_DEAD)
		return sig ? 0 : 0;
	if (sig == 0)
		return 0;
	flags = local_irq_save();
	if (handle_stop_signal(sig, p))
		notify_parent_cldstop(p);
	if (!sig_ignored(p, sig)) {
		p->user.pending |= sigmask(sig);
		if (task_sigpending(p) && p->state == TASK_INTERRUPTIBLE)
			wake_up_process(p);
	}
	local_irq_restore(flags);
	return 0;
}

void force_sig(int sig, struct task_struct *p)
{
	struct k_sigaction *ka = &p->user.sighand->action[sig - 1];

	unsigned long flags = local_irq_save();

	if (ka->handler == SIG_IGN || (p->user.blocked & sigmask(sig)))
		ka->handler = SIG_DFL;
	p->user.blocked &= ~sigmask(sig);
	p->user.pending |= sigmask(sig);
	local_irq_restore(flags);
}

int kill_pgrp(int pgrp, int sig)
{
	unsigned long flags = local_irq_save(); /* a task is freed at its last switch */
	struct task_struct *p;
	int found = -ESRCH;

	list_for_each_entry(p, &task_list, tasks) {
		if (p->user.mm && p->user.pgrp == pgrp) {
			send_sig(sig, p);
			found = 0;
		}
	}
	local_irq_restore(flags);
	return found;
}

static int kill_all(int sig)
{
	unsigned long flags = local_irq_save(); /* a task is freed at its last switch */
	struct task_struct *p;
	int found = -ESRCH;

	list_for_each_entry(p, &task_list, tasks) {
		if (p->user.mm && p != current && !is_global_init(p)) {
			send_sig(sig, p);
			found = 0;
		}
	}
	local_irq_restore(flags);
	return found;
}

long sys_kill(int pid, int sig)
{
	struct task_struct *p;

	if (sig < 0 || sig > _NSIG)
		return -EINVAL;
	if (pid > 0) {
		unsigned long flags = local_irq_save();
		int err;

		p = find_task_by_pid(pid);
		err = p && p->user.mm ? send_sig(sig, p) : -ESRCH;
		local_irq_restore(flags);
		return err;
	}
	if (pid == -1)
		return kill_all(sig);
	return kill_pgrp(pid ? -pid : current->user.pgrp, sig);
}

long sys_tgkill(int tgid, int pid, int sig) { return sys_kill(pid, sig); }
long sys_tkill(int pid, int sig) { return sys_kill(pid, sig); }

long sys_rt_sigaction(int sig, const struct k_sigaction __user *act,
		      struct k_sigaction __user *oact, size_t sigsetsize)
{
	struct k_sigaction *k, new;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (sig < 1 || sig > _NSIG || ((sig == SIGKILL || sig == SIGSTOP) && act))
		return -EINVAL;
	k = &current->user.sighand->action[sig - 1];
	if (act && copy_from_user(&new, act, sizeof(new)))
		return -EFAULT;
	if (oact && copy_to_user(oact, k, sizeof(*k)))
		return -EFAULT;
	if (act) {
		new.mask &= ~UNBLOCKABLE;
		*k = new;
		if (sig_ignored(current, sig))
			current->user.pending &= ~sigmask(sig); /* as POSIX: a pending one goes */
	}
	return 0;
}

static int set_blocked(int how, u64 set)
{
	u64 *b = &current->user.blocked;

	if (how == SIG_BLOCK)
		*b |= set;
	else if (how == SIG_UNBLOCK)
		*b &= ~set;
	else if (how == SIG_SETMASK)
		*b = set;
	else
		return -EINVAL;
	*b &= ~UNBLOCKABLE;
	return 0;
}

long sys_rt_sigprocmask(int how, const u64 __user *set, u64 __user *oset, size_t sigsetsize)
{
	u64 old = current->user.blocked, new;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (set) {
		if (copy_from_user(&new, set, sizeof(new)))
			return -EFAULT;
		if (set_blocked(how, new))
			return -EINVAL;
	}
	if (oset && copy_to_user(oset, &old, sizeof(old)))
		return -EFAULT;
	return 0;
}

long sys_rt_sigpending(u64 __user *set, size_t sigsetsize)
{
	u64 p = current->user.pending & current->user.blocked;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	return copy_to_user(set, &p, sizeof(p)) ? -EFAULT : 0;
}

static DECLARE_WAIT_QUEUE_HEAD(pause_wait); /* nobody wakes it: only a signal ends the sleep */

long sys_pause(void)
{
	wait_event_user(pause_wait, false);
	return -ERESTARTNOHAND; /* a handler ran: EINTR; none (a stop, then SIGCONT): sleep again */
}

long sys_rt_sigsuspend(const u64 __user *mask, size_t sigsetsize)
{
	u64 new;

	if (sigsetsize != sizeof(u64))
		return -EINVAL;
	if (copy_from_user(&new, mask, sizeof(new)))
		return -EFAULT;
	current->user.saved_blocked = current->user.blocked;
	current->user.restore_blocked = true;
	current->user.blocked = new & ~UNBLOCKABLE;
	wait_event_user(pause_wait, false);
	return -ERESTARTNOHAND;
}

void sigmask_for_call(u64 mask)
{
	current->user.saved_blocked = current->user.blocked;
	current->user.restore_blocked = true;
	current->user.blocked = mask & ~UNBLOCKABLE;
}

void sigmask_call_done(long ret)
{
	if (ret == -ERESTARTNOHAND || !current->user.restore_blocked)
		return; /* do_signal puts it back, after the handler's frame has the old one */
	current->user.blocked = current->user.saved_blocked;
	current->user.restore_blocked = false;
}

/* The lowest unblocked pending signal, taken off; 0 if none. */
static int dequeue_signal(struct task_struct *p)
{
	unsigned long flags = local_irq_save(); /* send_sig may come from an interrupt */
	u64 ready = p->user.pending & ~p->user.blocked;
	int sig = 0;

	if (ready) {
		sig = __builtin_ctzll(ready) + 1;
		p->user.pending &= ~sigmask(sig);
	}
	local_irq_restore(flags);
	return sig;
}

/* int 0x80 is two bytes: back over it, with the call's number in eax again. */
static void restart_call(struct pt_regs *regs)
{
	regs->eax = (u32)current->user.orig_eax;
	regs->eip -= 2;
}

/* 2.6 i386's handle_signal: a call the handler interrupted fails with EINTR, or runs again. */
static void restart_for_handler(struct pt_regs *regs, const struct k_sigaction *ka)
{
	if (current->user.orig_eax < 0)
		return;
	switch ((int)regs->eax) {
	case -ERESTART_RESTARTBLOCK:
	case -ERESTARTNOHAND:
		regs->eax = (u32)-EINTR;
		break;
	case -ERESTARTSYS:
		if (!(ka->flags & SA_RESTART)) {
			regs->eax = (u32)-EINTR;
			break;
		}
		restart_call(regs);
		break;
	case -ERESTARTNOINTR:
		restart_call(regs);
		break;
	}
	current->user.orig_eax = -1;
}

void syscall_restart(struct pt_regs *regs)
{
	int ret = (int)regs->eax;

	if (current->user.orig_eax >= 0 &&
	    (ret == -ERESTARTSYS || ret == -ERESTARTNOINTR || ret == -ERESTARTNOHAND))
		restart_call(regs);
	if (current->user.orig_eax >= 0 && ret == -ERESTART_RESTARTBLOCK) {
		current->user.orig_eax = 0; /* __NR_restart_syscall: the sleep goes on */
		restart_call(regs);
	}
	current->user.orig_eax = -1;
}

static bool orphaned_pgrp_locked(int pgrp)
{
	unsigned long flags = local_irq_save(); /* a task is freed at its last switch */
	bool orphaned = is_orphaned_pgrp(pgrp);

	local_irq_restore(flags);
	return orphaned;
}

/* 2.6's do_signal_stop: asleep until SIGCONT (or SIGKILL); the parent hears of it. */
static void do_signal_stop(int sig)
{
	struct task_struct *me = current;
	unsigned long flags = local_irq_save();

	me->user.stopped = true;
	me->user.stop_signal = sig;
	me->user.continued = false;
	notify_parent_cldstop(me);
	while (me->user.stopped && !(me->user.pending & sigmask(SIGKILL))) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
		__set_current_state(TASK_RUNNING);
	}
	me->user.stopped = false;
	local_irq_restore(flags);
}

void do_signal(struct pt_regs *regs)
{
	struct task_struct *me = current;
	u64 oldmask = me->user.restore_blocked ? me->user.saved_blocked : me->user.blocked;
	struct k_sigaction *ka;
	int sig;

	while ((sig = dequeue_signal(me))) {
		ka = &me->user.sighand->action[sig - 1];
		if (ka->handler == SIG_IGN)
			continue;
		if (ka->handler == SIG_DFL) {
			if (sigmask(sig) & DEFAULT_IGNORE)
				continue;
			if (sigmask(sig) & DEFAULT_STOP) {
				/* a group no shell can continue is not stopped by the tty's signals */
				if (sig == SIGSTOP || !orphaned_pgrp_locked(me->user.pgrp))
					do_signal_stop(sig);
				continue;
			}
			do_exit_user(sig); /* wait's status: the signal, no core */
		}
		me->user.restore_blocked = false;
		restart_for_handler(regs, ka);
		if (setup_signal_frame(sig, ka, oldmask, regs)) {
			force_sig(SIGSEGV, me);
			continue;
		}
		me->user.blocked |= ka->mask | (ka->flags & SA_NODEFER ? 0 : sigmask(sig));
		me->user.blocked &= ~UNBLOCKABLE;
		if (ka->flags & SA_RESETHAND)
			ka->handler = SIG_DFL;
		return;
	}
	if (me->user.restore_blocked) {
		me->user.blocked = me->user.saved_blocked;
		me->user.restore_blocked = false;
	}
}
