/*
 * poll.h: a file's poll operation (Linux's include/linux/poll.h): it
 * returns the POLL* bits that hold now, and calls poll_wait() on each wait
 * queue that is woken when they may change, so that a sleeping poll() or
 * select() wakes at once (fs/select.c).
 */
#ifndef KOBOLD_POLL_H
#define KOBOLD_POLL_H

#include <kobold/fs.h>
#include <kobold/wait.h>

/* Linux's values (asm-generic/poll.h). */
#define POLLIN 0x001
#define POLLPRI 0x002
#define POLLOUT 0x004
#define POLLERR 0x008
#define POLLHUP 0x010
#define POLLNVAL 0x020
#define POLLRDNORM 0x040
#define POLLWRNORM 0x100

#define POLL_TABLE_ENTRIES 32

/* The queues one poll() waits on: an entry on each (fs/select.c). */
typedef struct poll_table_struct {
	int nr;
	struct {
		struct wait_queue_head *head;
		struct wait_queue_entry wait;
	} entry[POLL_TABLE_ENTRIES];
} poll_table;

void __pollwait(struct file *file, struct wait_queue_head *head, poll_table *p);

/* Adds the caller to head's waiters for this poll (NULL p: a second look, nothing to add). */
static inline void poll_wait(struct file *file, struct wait_queue_head *head, poll_table *p)
{
	if (p && head)
		__pollwait(file, head, p);
}

#endif
