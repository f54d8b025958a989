/* timer.c: the list of pending kernel timers, kept sorted, and running the expired ones. */
#include <kobold/irqflags.h>
#include <kobold/timer.h>

static LIST_HEAD(timers);

/* a before b, in jiffies that wrap (2.6's time_before). */
static bool time_before(unsigned long a, unsigned long b) { return (long)(a - b) < 0; }

static void enqueue_timer(struct timer_list *timer)
{
	struct list_head *pos = &timers;
	struct timer_list *t;

	list_for_each_entry(t, &timers, entry) {
		if (time_before(timer->expires, t->expires)) {
			pos = &t->entry;
			break;
		}
	}
	list_add_tail(&timer->entry, pos); /* before the first later one: equal ones in order */
}

int mod_timer(struct timer_list *timer, unsigned long expires)
{
	unsigned long flags = local_irq_save();
	int was = timer_pending(timer);

	if (was)
		list_del_init(&timer->entry);
	timer->expires = expires;
	enqueue_timer(timer);
	local_irq_restore(flags);
	return was;
}

void add_timer(struct timer_list *timer) { (void)mod_timer(timer, timer->expires); }

int del_timer(struct timer_list *timer)
{
	unsigned long flags = local_irq_save();
	int was = timer_pending(timer);

	if (was)
		list_del_init(&timer->entry);
	local_irq_restore(flags);
	return was;
}

int del_timer_sync(struct timer_list *timer) { return del_timer(timer); }

/* Called with interrupts off, from the tick; a function may queue its timer again. */
void run_timers(unsigned long now)
{
	while (!list_empty(&timers)) {
		struct timer_list *t = list_first_entry(&timers, struct timer_list, entry);

		if (time_before(now, t->expires))
			break;
		list_del_init(&t->entry);
		t->function(t->data);
	}
}
