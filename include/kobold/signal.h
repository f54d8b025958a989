/*
 * signal.h: Ctrl-C for the shell's long-running commands (a flag per
 * thread), and the signals of processes (kernel/signal.c), with Linux
 * i386's numbers, sigaction and frame.
 */
#ifndef KOBOLD_SIGNAL_H
#define KOBOLD_SIGNAL_H

#include <kobold/types.h>

struct task_struct;

/*
 * Ctrl-C for p (from its console's isig hook, interrupts off): its
 * signal_pending() is true from now on, until its shell takes it.
 */
void signal_interrupt(struct task_struct *p);

/*
 * True once Ctrl-C has arrived on the running thread's console, until its
 * shell takes it. A command's long loops check it, undo what they did and
 * return -EINTR, as a Linux syscall interrupted by SIGINT does. The first
 * call that sees it echoes ^C on that console.
 */
bool signal_pending(void);

/*
 * A deadline for the work running now, in ktime_get_ns() time (0: none).
 * Past it signal_pending() is true, so a command that udevd runs for a
 * RUN+= key stops at the event timeout as a program systemd-udevd kills
 * does. The deadline is the running thread's, put back (the old value
 * returned) when the work ends.
 */
u64 signal_set_deadline(u64 deadline_ns);
/* True once the deadline set has passed. */
bool signal_deadline_passed(void);

/*
 * The shell, after a command: takes the running thread's pending Ctrl-C,
 * echoing ^C if no loop did; true if there was one.
 */
bool console_take_interrupt(void);

#define SIGHUP 1
#define SIGINT 2
#define SIGQUIT 3
#define SIGILL 4
#define SIGTRAP 5
#define SIGABRT 6
#define SIGBUS 7
#define SIGFPE 8
#define SIGKILL 9
#define SIGUSR1 10
#define SIGSEGV 11
#define SIGUSR2 12
#define SIGPIPE 13
#define SIGALRM 14
#define SIGTERM 15
#define SIGSTKFLT 16
#define SIGCHLD 17
#define SIGCONT 18
#define SIGSTOP 19
#define SIGTSTP 20
#define SIGTTIN 21
#define SIGTTOU 22
#define SIGURG 23
#define SIGXCPU 24
#define SIGXFSZ 25
#define SIGVTALRM 26
#define SIGPROF 27
#define SIGWINCH 28
#define SIGIO 29
#define SIGPWR 30
#define SIGSYS 31
#define _NSIG 64

#define SIG_DFL 0UL
#define SIG_IGN 1UL
#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO 0x00000004
#define SA_RESTORER 0x04000000
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000

#define sigmask(sig) (1ULL << ((sig) - 1))

/* The kernel's sigaction: rt_sigaction's layout on i386. */
struct k_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	u64 mask;
};

/* A process's handlers (shared by CLONE_SIGHAND; counted). */
struct sighand_struct {
	int count;
	struct k_sigaction action[_NSIG];
};

struct task_struct;
struct pt_regs;

/* Sends sig to p (0 checks only): 0, -EINVAL, -EPERM. Any context. */
int send_sig(int sig, struct task_struct *p);
/* Sends sig to every process of group pgrp: 0, or -ESRCH if none (the tty's ^C). */
int kill_pgrp(int pgrp, int sig);
/*
 * 2.6's is_orphaned_pgrp: no process of the group has its parent in another
 * group of the same session, so no shell could continue it if it stopped.
 * Interrupts off.
 */
bool is_orphaned_pgrp(int pgrp);
/* The current process ignores or blocks sig. */
bool sig_ignored_or_blocked(int sig);
/* exit.c: a child stopped or continued: SIGCHLD (unless SA_NOCLDSTOP), and its waiting parent looks. */
void notify_parent_cldstop(struct task_struct *p);
/* An unblocked signal waits for p. */
bool task_sigpending(struct task_struct *p);
/* On the way back to user mode: runs the default action or sets up the handler's frame. */
void do_signal(struct pt_regs *regs);
/* Last on the way out: a call interrupted with -ERESTART* and no handler run starts again. */
void syscall_restart(struct pt_regs *regs);
/*
 * ppoll's mask for the length of the call, as sigsuspend's; the call's end
 * puts the old one back, unless it returns -ERESTARTNOHAND: then do_signal
 * does, once the handler's frame holds it (2.6.16's TIF_RESTORE_SIGMASK).
 */
void sigmask_for_call(u64 mask);
void sigmask_call_done(long ret);
/* A fault in user mode: sig now, even if blocked or ignored (it would fault again). */
void force_sig(int sig, struct task_struct *p);
struct sighand_struct *sighand_alloc(const struct sighand_struct *copy);
void sighand_put(struct sighand_struct *sh);
/* At execve: handlers go back to SIG_DFL, ignored signals stay ignored. */
void flush_signal_handlers(struct task_struct *p);

#endif
