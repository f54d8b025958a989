/* workqueue.h: deferred work, run later outside the code that queued it. */
#ifndef KOBOLD_WORKQUEUE_H
#define KOBOLD_WORKQUEUE_H

#include <kobold/list.h>
#include <kobold/smp.h>
#include <kobold/timer.h>
#include <kobold/types.h>
#include <kobold/wait.h>

struct work_struct;
typedef void (*work_func_t)(struct work_struct *work);

/*
 * A piece of work to run later, as Linux's (2.6.20's signature: the
 * function gets the work item and finds its object with container_of).
 * Embed it in the object the work is about.
 */
struct work_struct {
	struct list_head entry; /* on the pending list while queued */
	bool pending;		/* queued, or held off by cancel_work_sync */
	work_func_t func;
	struct workqueue_struct *wq; /* the queue it was last queued on (2.6's work->data) */
};

#define INIT_WORK(w, f)                      \
	do {                                 \
		INIT_LIST_HEAD(&(w)->entry); \
		(w)->pending = false;        \
		(w)->func = (f);             \
		(w)->wq = NULL;              \
	} while (0)

/* An item being run, on its runner's stack: cancel_work_sync looks for it (2.6's current_work). */
struct work_run {
	struct work_struct *work; /* compared only: its function may have freed it */
	struct work_run *outer;	  /* the item it nests in, in the same thread */
};

/*
 * A queue of work and its worker threads, NAME/N, one per online CPU and
 * bound to it, as 2.6's create_workqueue. keventd_workqueue is the default
 * one, "events". The workers share the one list (2.6 kept one per CPU).
 */
struct workqueue_struct {
	const char *name;
	struct list_head pending;	     /* of work_struct, oldest first */
	int running;			     /* items running now (nested ones in one thread) */
	struct task_struct *runner;	     /* the thread running them: one at a time, as 2.6's one worker */
	struct work_run *current_run;	     /* the innermost item running, or NULL */
	struct wait_queue_head idle;	     /* woken after each item: flush_workqueue */
	struct task_struct *worker[NR_CPUS]; /* NAME/N on CPU N, while it is online */
	struct list_head list;		     /* on the list of every queue (CPU hotplug) */
	bool singlethread;		     /* one worker, named NAME, on no CPU in particular */
};

extern struct workqueue_struct *keventd_workqueue;

/* A new queue with its own worker thread; NULL if there is no memory. */
struct workqueue_struct *create_workqueue(const char *name);
/* As 2.6's: one worker thread for the queue, named NAME (`ps`: [khelper]), whatever the CPUs. */
struct workqueue_struct *create_singlethread_workqueue(const char *name);
/*
 * Runs what is queued, stops the worker, frees the queue. It lets go of
 * the big kernel lock while the worker stops (the worker may be waiting
 * for it), as 2.6's BKL was let go across any sleep.
 */
void destroy_workqueue(struct workqueue_struct *wq);
/* As schedule_work, on wq. */
bool queue_work(struct workqueue_struct *wq, struct work_struct *work);
/*
 * Returns once everything queued on wq before the call has run. The caller
 * waits for the worker; but a caller that holds the big kernel lock (which
 * the worker needs), or the worker itself, runs the items instead.
 */
void flush_workqueue(struct workqueue_struct *wq);
/* Runs wq's oldest item in the caller; false if there was none. */
bool run_workqueue_one(struct workqueue_struct *wq);

/* kernel/keventd.c (the host's shim has none): the worker threads. */
int workqueue_start_worker(struct workqueue_struct *wq);
void workqueue_stop_worker(struct workqueue_struct *wq);
void workqueue_wake_worker(struct workqueue_struct *wq);
bool workqueue_flush_in_caller(struct workqueue_struct *wq);

/*
 * Queues work on keventd's queue to run later; false if it is already
 * queued (it then runs once). The events/0 thread runs it, one item at a time under the big
 * kernel lock, so while the shell waits for a key; and the shell runs
 * whatever is still queued before its next command (flush_scheduled_work).
 * A work function may queue itself again to do a long job in slices.
 */
bool schedule_work(struct work_struct *work);

/* Starts the events/0 worker thread. */
void init_workqueues(void);

/* Runs the oldest work on keventd's queue in the caller; false if there was none. */
bool run_scheduled_work(void);

/* flush_workqueue(keventd_workqueue): what is queued there, and what it queues, has run. */
void flush_scheduled_work(void);

/*
 * Takes work off the queue if it has not run yet; true if it was queued.
 * It does not wait for a run that has begun (on another CPU's worker, or
 * in a thread that runs work itself): before freeing what the work uses,
 * call cancel_work_sync.
 */
bool cancel_work(struct work_struct *work);
/*
 * As 2.6.22's: takes work off its queue and, if it is running, waits for
 * that run to end; while it waits the work cannot be queued again (its own
 * function's schedule_work returns false). Afterwards the work is neither
 * queued nor running, so its owner may free it; true if it was queued
 * (2.6.23's return value). The big kernel lock is let go meanwhile, as
 * 2.6's schedule() let it go. Called from the work's own function (or an
 * item it runs nested), it cannot wait for that run and does not. Whoever
 * queues the work (an interrupt) must have been stopped first.
 */
bool cancel_work_sync(struct work_struct *work);

/*
 * Work queued after a delay, as 2.6.20's struct delayed_work: a kernel
 * timer that queues the work when it expires.
 */
struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq; /* where the timer queues it */
};

void delayed_work_timer_fn(unsigned long data);

#define INIT_DELAYED_WORK(d, f)                                                      \
	do {                                                                         \
		INIT_WORK(&(d)->work, (f));                                          \
		setup_timer(&(d)->timer, delayed_work_timer_fn, (unsigned long)(d)); \
	} while (0)

static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return container_of(work, struct delayed_work, work);
}

/* Queues the work on wq delay jiffies from now (0: at once); false if it is already waiting or queued. */
bool queue_delayed_work(struct workqueue_struct *wq, struct delayed_work *dwork,
			unsigned long delay);
/* The same on keventd's queue. */
bool schedule_delayed_work(struct delayed_work *dwork, unsigned long delay);
/*
 * Stops it if it has not run yet: its timer deleted (2.6.20's
 * cancel_delayed_work), or, once the timer has fired, taken off the queue
 * (as later kernels' does). True if it was waiting or queued.
 */
bool cancel_delayed_work(struct delayed_work *dwork);
/*
 * Its timer deleted, the work taken off the queue, and a run that has begun
 * waited for, as cancel_work_sync; nothing, the work itself included, can
 * start the timer again meanwhile. 2.6.22 called it cancel_rearming_delayed_work,
 * 2.6.23 cancel_delayed_work_sync. True if it was waiting or queued.
 */
bool cancel_delayed_work_sync(struct delayed_work *dwork);

bool work_pending(const struct work_struct *work);
/* True if any work is queued on keventd's queue. */
bool work_pending_any(void);
/* True if work is queued on keventd's queue or runs there in another thread than the caller. */
bool keventd_busy(void);

/* For `ps`: each queued item, oldest first (fn must not queue or run work). */
void workqueue_for_each_pending(void (*fn)(const struct work_struct *work, void *arg), void *arg);

/* Runs since boot per work function; the last row also counts any beyond the table. */
#define WORK_STATS_MAX 16
struct work_stat {
	work_func_t func; /* NULL: an unused row */
	unsigned long runs;
};
/* The table (WORK_STATS_MAX rows) and, in *total, every run since boot. */
const struct work_stat *workqueue_stats(unsigned long *total);

#endif
