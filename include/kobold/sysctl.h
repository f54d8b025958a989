/*
 * sysctl.h: /proc/sys, Linux 2.6's ctl_table: a tree of tables, each entry
 * a file (data, maxlen, mode and the proc_handler that reads and writes
 * it) or a directory (child). kernel/sysctl.c holds the tables; procfs
 * shows them (fs/proc/proc_sysctl.c).
 */
#ifndef KOBOLD_SYSCTL_H
#define KOBOLD_SYSCTL_H

#include <kobold/fs.h>
#include <kobold/spinlock.h>
#include <kobold/types.h>

struct ctl_table;

/*
 * Read (write 0): the value's text into buffer, *lenp its room and then
 * the length. Write: the *lenp bytes of buffer parsed into data. 2.6's
 * signature without the struct file; the buffer is the kernel's copy.
 */
typedef int proc_handler(struct ctl_table *table, int write, char *buffer, size_t *lenp,
			 loff_t *ppos);

/* An entry; an array of them ends with one whose procname is NULL. */
struct ctl_table {
	const char *procname;
	void *data;
	int maxlen;
	umode_t mode;
	struct ctl_table *child; /* a directory's entries */
	proc_handler *proc_handler;
	void *extra1, *extra2; /* proc_dointvec_minmax's bounds */
};

/* A string of at most maxlen - 1 bytes; a write up to the first newline (longer: -EINVAL). */
proc_handler proc_dostring;
/* maxlen / sizeof(int) integers, separated by blanks. */
proc_handler proc_dointvec;
/* The same, each within *extra1 .. *extra2 (-EINVAL otherwise). */
proc_handler proc_dointvec_minmax;
/* One unsigned long, within *extra1 .. *extra2 where they are set (aio-max-nr). */
proc_handler proc_doulongvec_minmax;

/* /proc/sys itself: kernel, fs, vm. */
extern struct ctl_table sysctl_root_table[];
/* Taken while a handler copies a value in or out: a reader never sees half a write. */
extern spinlock_t sysctl_data_lock;

#endif
