/*
 * completion.h: "this has happened", as Linux 2.6's completions: one side
 * waits for it (wait_for_completion), the other says it (complete), in
 * either order; each complete() lets one wait through.
 */
#ifndef KOBOLD_COMPLETION_H
#define KOBOLD_COMPLETION_H

#include <kobold/irqflags.h>
#include <kobold/wait.h>

struct completion {
	unsigned int done; /* complete()s not yet waited for; UINT_MAX: complete_all */
	struct wait_queue_head wait;
};

#define COMPLETION_INITIALIZER(work) { 0, __WAIT_QUEUE_HEAD_INITIALIZER((work).wait) }
#define DECLARE_COMPLETION(work) struct completion work = COMPLETION_INITIALIZER(work)

static inline void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void complete(struct completion *x);
/* Every wait, now and later, goes through. */
void complete_all(struct completion *x);
void wait_for_completion(struct completion *x);
/* A signal (Ctrl-C) ends the wait: -ERESTARTSYS, as 2.6's. */
int wait_for_completion_interruptible(struct completion *x);
/* Takes a complete() if one is there, without waiting; true if it did. */
bool try_wait_for_completion(struct completion *x);

#endif
