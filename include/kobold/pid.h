/*
 * pid.h: process IDs, handed out from a bitmap as Linux 2.6's alloc_pidmap
 * (kernel/pid.c): the next free one after the last, up to pid_max, then
 * again from RESERVED_PIDS, skipping those in use.
 */
#ifndef KOBOLD_PID_H
#define KOBOLD_PID_H

#define PID_MAX_DEFAULT 0x8000 /* 32768, Linux's default and, on i386, its limit */
#define PID_MAX_LIMIT PID_MAX_DEFAULT
#define RESERVED_PIDS 300 /* after a wrap the search starts here: daemons keep the low ones */

/* /proc/sys/kernel/pid_max: one more than the highest PID handed out (301-32768). */
extern int pid_max;
/* The PID handed out last, the search's starting point. */
extern int last_pid;

/* A free PID, marked used; -EAGAIN when every one below pid_max is. */
int alloc_pid(void);
/* pid is free again (0 and 1, never handed out, are ignored). */
void free_pid(int pid);

#endif
