/* signal.h: Ctrl-C for long-running commands (Kobold has no signals yet: a flag per thread). */
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

#endif
