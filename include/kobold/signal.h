/* signal.h: Ctrl-C for long-running commands (Kobold has no signals yet: one flag for the console). */
#ifndef KOBOLD_SIGNAL_H
#define KOBOLD_SIGNAL_H

#include <kobold/types.h>

/*
 * True once Ctrl-C has arrived on a console, until the shell takes it. A
 * command's long loops check it, undo what they did and return -EINTR, as a
 * Linux syscall interrupted by SIGINT does. The first call that sees it
 * echoes ^C.
 */
bool signal_pending(void);

/*
 * A deadline for the work running now, in ktime_get_ns() time (0: none).
 * Past it signal_pending() is true, so a command that udevd runs for a
 * RUN+= key stops at the event timeout as a program systemd-udevd kills
 * does. Work runs on the stack of whoever runs it, so the deadline is one
 * setting, put back (the old value returned) when the work ends; once work
 * runs in threads of its own, it belongs to the thread.
 */
u64 signal_set_deadline(u64 deadline_ns);
/* True once the deadline set has passed. */
bool signal_deadline_passed(void);

/*
 * The shell, after a command: takes a pending Ctrl-C (and its queued byte),
 * echoing ^C if no loop did; true if there was one.
 */
bool console_take_interrupt(void);

#endif
