/*
 * sched.h: threads and the scheduler (kernel/sched.c). Every flow of
 * control is a struct task_struct with a stack of its own: the shell, the
 * kernel threads, the idle thread. The runnable ones wait on their CPU's run
 * queue (struct rq, kernel/runqueue.c); schedule() picks the next in turn
 * and switch_to() changes stacks. A thread runs until it sleeps, or until
 * its slice of ticks is used up and an interrupt returns to it with the
 * preemption count at zero (CONFIG_PREEMPT).
 */
#ifndef KOBOLD_SCHED_H
#define KOBOLD_SCHED_H

#include <kobold/atomic.h>
#include <kobold/list.h>
#include <kobold/lockdep.h>
#include <kobold/preempt.h>
#include <kobold/smp.h>
#include <kobold/thread_info.h>
#include <kobold/types.h>

#define TASK_RUNNING 0
#define TASK_INTERRUPTIBLE 1   /* asleep; Ctrl-C (a signal) wakes it too */
#define TASK_UNINTERRUPTIBLE 2 /* asleep until its wake-up */
#define TASK_DEAD 64	       /* exited; its stack goes at the next switch */

#define TASK_COMM_LEN 16
#define DEF_TIMESLICE 10 /* ticks a thread runs before another gets a turn */
#define MAX_SCHEDULE_TIMEOUT LONG_MAX

#define PF_KTHREAD 0x1 /* a kernel thread: `ps` shows it in brackets */

struct mm_struct;
struct files_struct;
struct fs_struct;
struct sighand_struct;
struct completion;
struct group_info;

/*
 * What a process has beyond a kernel thread (kernel/fork.c, exit.c,
 * signal.c): its address space, open files, cwd, signals, family and
 * identity, as Linux's task_struct holds them.
 */
struct user_task {
	struct mm_struct *mm;
	struct files_struct *files;
	struct fs_struct *fs;
	struct sighand_struct *sighand;
	u64 blocked, pending; /* signal bit (sig - 1) */
	u64 saved_blocked;    /* sigsuspend's: back after the handler */
	bool restore_blocked;
	int orig_eax;	      /* the system call being returned from, else -1 (Linux's regs->orig_eax) */
	bool stopped;	      /* by a stop signal, until SIGCONT (Linux's TASK_STOPPED) */
	int stop_signal;      /* what stopped it, for wait4's WUNTRACED; 0 once told */
	bool continued;	      /* SIGCONT resumed it: wait4's WCONTINUED not told yet */
	u64 restart_deadline; /* restart_syscall's: an interrupted sleep's end (2.6's restart_block) */
	void *restart_rmtp;   /* ... and where it writes the time left again (a user pointer), or NULL */
	bool restart_rmtp64;  /* a timespec64 there (clock_nanosleep_time64), else a timespec32 */
	int tgid, pgrp, session;
	unsigned int uid, euid, gid, egid;
	struct group_info *group_info; /* supplementary groups (setgroups), or NULL */
	unsigned long nproc_limit;     /* RLIMIT_NPROC */
	struct task_struct *parent;    /* real parent: gets SIGCHLD, waits */
	struct list_head children;     /* its children, living and zombie */
	struct list_head sibling;      /* in its parent's children */
	int exit_state;		       /* EXIT_ZOMBIE once exited, until reaped */
	int exit_status;	       /* wait4's status word */
	u32 clear_child_tid;	       /* CLONE_CHILD_CLEARTID / set_tid_address */
	struct completion *vfork_done; /* the vfork parent, woken at exec or exit */
	u64 tls_array[3];	       /* GDT slots 6-8 while it runs */
	void *fpu;		       /* 512 bytes of fxsave state, 16-aligned */
	void *fpu_alloc;
	unsigned long start_time; /* jiffies at fork */
	bool orphan;		  /* its parent died: PID 1 adopted it */
};

/* What switch_to() keeps of a thread that is not running: its stack pointer. */
struct thread_struct {
	unsigned long esp;
};

struct tty_struct;

struct task_struct {
	volatile long state;
	int pid;
	unsigned int flags;
	char comm[TASK_COMM_LEN];
	atomic_t usage;			 /* references: the task itself, kthread_stop, ... */
	struct list_head run_list;	 /* on its run queue while runnable */
	struct list_head tasks;		 /* on the list of every task (ps) */
	int time_slice;			 /* ticks left of its turn */
	int lock_depth;			 /* lock_kernel()s it holds (kernel/kernel_lock.c) */
	unsigned int cpu;		 /* the CPU whose run queue it is on, or was last */
	unsigned long cpus_allowed;	 /* a bit per CPU it may run on (kthread_bind) */
	struct thread_info *thread_info; /* the bottom of its stack */
	unsigned long nvcsw, nivcsw;	 /* switches: voluntary (slept), involuntary (preempted) */
	unsigned long utime, stime;	 /* ticks it was running in ring 3, in the kernel */
	void *stack;			 /* THREAD_SIZE bytes; NULL for the boot thread */
	struct thread_struct thread;
	struct lockdep_task lockdep; /* the locks it holds (kernel/lockdep.c) */
	int (*threadfn)(void *data); /* what it runs: its result is its exit code */
	void *data;
	/* kthreads (kernel/kthread.c) */
	int (*kthread_fn)(void *data);
	void *kthread_data;
	bool should_stop;
	int exit_code;
	struct task_struct *stopper; /* kthread_stop's caller, woken at exit */
	/* Ctrl-C until Kobold has signals (kernel/console.c): a shell's thread and its console */
	struct tty_struct *tty;	    /* the console it answers (Linux: signal->tty) */
	bool sigint, sigint_echoed; /* Ctrl-C came for it; its ^C is on the screen */
	u64 signal_deadline;	    /* signal_set_deadline's, 0 for none */
	struct user_task user;	    /* a process's own: NULL mm for a kernel thread */
};

/* The running thread, on this CPU: from the thread_info its stack begins with. */
#define current (current_thread_info()->task)
#define CPU_MASK_ALL (~0UL)

/* The boot thread: kmain, then the console's shell, PID 1. */
extern struct task_struct init_task;

/* A CPU's run queue: its runnable threads in turn, and its idle thread. */
struct rq {
	struct list_head queue; /* runnable threads, next first */
	unsigned int nr_running;
	struct task_struct *curr;
	struct task_struct *idle;
	unsigned long nr_switches;
	unsigned int cpu;
	bool active;		  /* takes threads: online, and not going down */
	struct task_struct *prev; /* the thread switched away from, for finish_switch */
};

void rq_init(struct rq *rq, struct task_struct *idle);
/* Puts a runnable task at the tail (its turn comes after the others'). */
void enqueue_task(struct rq *rq, struct task_struct *p);
void dequeue_task(struct rq *rq, struct task_struct *p);
bool task_queued(const struct task_struct *p);
/*
 * The next thread to run after prev: the head of the queue (prev, if it is
 * still runnable, goes to the tail first), or the idle thread if none.
 */
struct task_struct *pick_next_task(struct rq *rq, struct task_struct *prev);
/* A tick of prev's turn; true when its slice is used up (it is refilled). */
bool task_tick(struct rq *rq, struct task_struct *p);
/*
 * Where a waking thread goes, among the nr run queues: its own CPU if it is
 * bound, else an idle CPU (the one it ran on first, then the waker's), else
 * the one with the fewest runnable threads. -1 if none of its CPUs is active.
 */
int select_task_rq(struct rq *rqs, unsigned int nr, const struct task_struct *p,
		   unsigned int this_cpu);
/* A thread on src that this CPU may take: queued, not running, allowed here; or NULL. */
struct task_struct *steal_candidate(struct rq *src, unsigned int cpu);
/* Moves a queued thread that is not running from its queue to dst's. */
void migrate_task(struct rq *src, struct rq *dst, struct task_struct *p);
/*
 * Load balancing (2.6's find_busiest_queue and pull_task): the active queue
 * with the most runnable threads, if it has two or more than this CPU's,
 * with *imbalance, half the difference, the threads to move; else NULL.
 */
struct rq *find_busiest_queue(struct rq *rqs, unsigned int nr, unsigned int this_cpu,
			      unsigned int *imbalance);
/* Moves up to max threads that may run on dst's CPU and are not running; how many moved. */
unsigned int pull_tasks(struct rq *src, struct rq *dst, unsigned int max);

/* Every task there is, for `ps` (kernel/runqueue.c). */
extern struct list_head task_list;
void task_list_add(struct task_struct *p);
void task_list_del(struct task_struct *p);

static inline void get_task_struct(struct task_struct *p) { atomic_inc(&p->usage); }
/* Drops a reference; the last one frees the task and its stack. */
void put_task_struct(struct task_struct *p);

#define set_current_state(s) (current->state = (s))
#define __set_current_state(s) (current->state = (s))

/* kernel/sched.c */
void sched_init(void);
void schedule(void);
/* Gives the CPU up if another thread's turn has come (a long loop's courtesy). */
void cond_resched(void);
void yield(void);
/* Makes a sleeping task runnable; false if it was running already. */
bool wake_up_process(struct task_struct *p);
/* Sleeps for up to timeout ticks (state set by the caller); returns the ticks left. */
long schedule_timeout(long timeout);
long schedule_timeout_interruptible(long timeout);
long schedule_timeout_uninterruptible(long timeout);
void msleep(unsigned int msecs);
/* Called by the timer interrupt each tick. */
void scheduler_tick(void);
/* On the way out of an interrupt: switches if preemption is due. */
void preempt_schedule_irq(void);
/* A new thread that will call fn(data) (and exit with its result), not yet runnable. */
struct task_struct *create_thread(int (*fn)(void *data), void *data, const char *name);
__noreturn void do_exit(int code);
/* The lowest and highest address of the running thread's stack (backtraces). */
void current_stack_bounds(const char **bottom, const char **top);
/*
 * With interrupts off: sleeps until the next tick or a wake-up (the idle
 * thread halts meanwhile), or halts if the scheduler is not running yet;
 * returns with interrupts on.
 */
void idle_sleep(void);
unsigned long nr_context_switches(void);
extern struct rq runqueues[NR_CPUS];
#define this_rq() (&runqueues[smp_processor_id()])
#define cpu_rq(cpu) (&runqueues[cpu])
static inline unsigned int task_cpu(const struct task_struct *p) { return p->cpu; }
/* Pins a thread that has not run yet to one CPU (2.6's kthread_bind). */
void kthread_bind(struct task_struct *p, unsigned int cpu);
/*
 * The CPUs p may run on (2.6's set_cpus_allowed): if it is on another, it
 * moves now, through that CPU's [migration/N] if it is running there; may
 * sleep. -EINVAL if no CPU of the mask is online (nothing changes).
 */
int set_cpus_allowed(struct task_struct *p, unsigned long new_mask);
/* With the interrupt lock held, p not running: onto dest's queue, or to wake there if it sleeps. */
void move_task_to(struct task_struct *p, unsigned int dest);
/* kernel/migration.c: [migration/N] for each online CPU (after smp_init). */
void migration_init(void);
/* CPU hotplug: cpu takes no more threads, and every thread on it moves (2.6's migrate_live_tasks). */
void sched_cpu_deactivate(unsigned int cpu);
void sched_cpu_activate(unsigned int cpu);
/* The idle thread of an AP, made before the AP starts and run by it from its first instruction. */
struct task_struct *idle_task_for(unsigned int cpu);
/* On an AP, as its idle thread: joins the scheduler and idles for ever. */
__noreturn void cpu_idle(void);

#endif
