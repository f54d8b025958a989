/*
 * timer.h: kernel timers, as Linux 2.6's struct timer_list: a function run
 * once at a given jiffy. Kobold runs expired timers from the timer
 * interrupt itself (2.6 ran them in the timer softirq, just after it), so a
 * timer function runs with interrupts off and must not sleep.
 */
#ifndef KOBOLD_TIMER_H
#define KOBOLD_TIMER_H

#include <kobold/list.h>
#include <kobold/types.h>

struct timer_list {
	struct list_head entry; /* on the pending list, soonest first */
	unsigned long expires;	/* the jiffy it runs at */
	void (*function)(unsigned long data);
	unsigned long data;
};

static inline void init_timer(struct timer_list *timer) { INIT_LIST_HEAD(&timer->entry); }

static inline void setup_timer(struct timer_list *timer, void (*function)(unsigned long),
			       unsigned long data)
{
	init_timer(timer);
	timer->function = function;
	timer->data = data;
}

static inline bool timer_pending(const struct timer_list *timer) { return !list_empty(&timer->entry); }

/* Queues it to run at timer->expires. */
void add_timer(struct timer_list *timer);
/* (Re)queues it to run at expires; 1 if it was pending, 0 if not. */
int mod_timer(struct timer_list *timer, unsigned long expires);
/* Takes it off the queue; 1 if it was pending. */
int del_timer(struct timer_list *timer);
/*
 * As del_timer, and when it returns the function is not running anywhere.
 * On one CPU, where timers run from the tick interrupt, that is del_timer
 * (2.6 defined it so without CONFIG_SMP).
 */
int del_timer_sync(struct timer_list *timer);
/* The tick: runs every timer whose jiffy has come, soonest first. */
void run_timers(unsigned long now);

#endif
