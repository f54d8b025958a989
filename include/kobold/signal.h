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
 * The shell, after a command: takes a pending Ctrl-C (and its queued byte),
 * echoing ^C if no loop did; true if there was one.
 */
bool console_take_interrupt(void);

#endif
