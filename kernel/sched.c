/*
 * sched.c: the scheduler. schedule() takes the running thread off the CPU
 * (off its run queue too, if it is going to sleep), picks the next one in
 * turn and switches stacks; the timer tick uses up the running thread's
 * slice and asks for a switch, which happens on the way out of the
 * interrupt if the thread's preemption count is zero (CONFIG_PREEMPT),
 * else at its preempt_enable(). The idle thread halts the CPU when nothing
 * is runnable.
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/idle.h>
#include <kobold/irqflags.h>
#include <kobold/kthread.h>
#include <kobold/panic.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/timer.h>

struct rq runqueues[NR_CPUS];
static struct task_struct *switched_from; /* the thread that ran before, for finish_switch */
static int next_pid = 2;
static int thread_stack_pages = THREAD_SIZE / PAGE_SIZE;

extern char boot_stack_bottom[], boot_stack_top[];
void switch_to(unsigned long *prev_esp, unsigned long next_esp);

void put_task_struct(struct task_struct *p)
{
	if (!atomic_dec_and_test(&p->usage))
		return;
	free_pages(p->stack, (unsigned int)thread_stack_pages);
	kfree(p);
}

/* After a switch, on the new thread's stack: the old one, if it has exited, goes. */
static void finish_switch(void)
{
	struct task_struct *prev = switched_from;

	switched_from = NULL;
	if (prev && prev->state == TASK_DEAD) {
		task_list_del(prev);
		put_task_struct(prev); /* its own reference: the stack is no longer in use */
	}
}

static void schedule_bug(void)
{
	printk(KERN_ERR "BUG: scheduling while atomic: %s/0x%08x/%d\n", current->comm,
	       preempt_count(), current->pid);
	dump_stack();
}

void schedule(void)
{
	struct rq *rq = this_rq();
	struct task_struct *prev = current, *next;
	unsigned long flags;

	if (unlikely(in_atomic()))
		schedule_bug();
	flags = local_irq_save();
	__need_resched = false;
	if (prev->state != TASK_RUNNING && !(preempt_count() & PREEMPT_ACTIVE)) {
		dequeue_task(rq, prev);
		prev->nvcsw++;
	} else if (prev != rq->idle) {
		prev->nivcsw++;
	}
	next = pick_next_task(rq, prev);
	if (prev->stack && *(unsigned long *)prev->stack != STACK_END_MAGIC)
		panic("%s/%d: kernel stack overflow", prev->comm, prev->pid);
	if (next != prev) {
		rq->nr_switches++;
		rq->curr = next;
		prev->saved_preempt_count = __preempt_count;
		__preempt_count = next->saved_preempt_count;
		switched_from = prev;
		current_task = next;
		switch_user_state(prev, next); /* cr3, TSS esp0, TLS, FPU (kernel/process.c) */
		switch_to(&prev->thread.esp, next->thread.esp);
		finish_switch(); /* now on prev's stack again: someone switched back to it */
	}
	local_irq_restore(flags);
}

void preempt_schedule(void)
{
	if (preempt_count() || irqs_disabled() || !scheduler_running)
		return;
	do {
		__preempt_count += PREEMPT_ACTIVE;
		schedule();
		__preempt_count -= PREEMPT_ACTIVE;
	} while (need_resched());
}

/* Interrupts are off (we are in the interrupt's exit path); the thread's own state is kept. */
void preempt_schedule_irq(void)
{
	if (!scheduler_running)
		return;
	while (need_resched() && preempt_count() == 0) {
		__preempt_count += PREEMPT_ACTIVE;
		schedule();
		__preempt_count -= PREEMPT_ACTIVE;
	}
}

void cond_resched(void)
{
	if (need_resched() && !in_atomic() && !irqs_disabled())
		preempt_schedule();
}

void yield(void)
{
	set_need_resched();
	schedule();
}

bool wake_up_process(struct task_struct *p)
{
	unsigned long flags = local_irq_save();
	struct rq *rq = this_rq();
	bool woke = p->state != TASK_RUNNING && p->state != TASK_DEAD;

	if (woke) {
		p->state = TASK_RUNNING;
		enqueue_task(rq, p);
		if (rq->curr == rq->idle)
			set_need_resched();
	}
	local_irq_restore(flags);
	return woke;
}

void scheduler_tick(void)
{
	struct rq *rq = this_rq();

	run_timers(jiffies);
	if (scheduler_running && task_tick(rq, current))
		set_need_resched();
}

static void process_timeout(unsigned long data) { wake_up_process((struct task_struct *)data); }

long schedule_timeout(long timeout)
{
	struct timer_list timer;
	unsigned long expire;

	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		WARN(1, "schedule_timeout: wrong timeout value %lx", (unsigned long)timeout);
		current->state = TASK_RUNNING;
		return 0;
	}
	expire = jiffies + (unsigned long)timeout;
	setup_timer(&timer, process_timeout, (unsigned long)current);
	mod_timer(&timer, expire);
	schedule();
	del_timer_sync(&timer);
	timeout = (long)(expire - jiffies);
	return timeout < 0 ? 0 : timeout;
}

long schedule_timeout_interruptible(long timeout)
{
	set_current_state(TASK_INTERRUPTIBLE);
	return schedule_timeout(timeout);
}

long schedule_timeout_uninterruptible(long timeout)
{
	set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

void msleep(unsigned int msecs)
{
	long timeout = (long)((msecs * HZ + 999) / 1000) + 1;

	might_sleep();
	if (!scheduler_running) {
		mdelay(msecs);
		return;
	}
	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}

/* Every new thread starts here, from switch_to's ret, with interrupts off. */
static __noreturn void thread_start(void)
{
	struct task_struct *me = current;

	finish_switch();
	local_irq_enable();
	do_exit(me->threadfn(me->data));
}

struct task_struct *create_thread(int (*fn)(void *data), void *data, const char *name)
{
	struct task_struct *p = kzalloc(sizeof(*p));
	unsigned long *sp;
	unsigned long flags;

	if (!p)
		return NULL;
	p->stack = alloc_pages((unsigned int)thread_stack_pages);
	if (!p->stack) {
		kfree(p);
		return NULL;
	}
	*(unsigned long *)p->stack = STACK_END_MAGIC;
	p->state = TASK_UNINTERRUPTIBLE; /* until its first wake_up_process */
	p->flags = PF_KTHREAD;
	strscpy(p->comm, name, sizeof(p->comm));
	atomic_set(&p->usage, 1);
	INIT_LIST_HEAD(&p->run_list);
	p->time_slice = DEF_TIMESLICE;
	p->threadfn = fn;
	p->data = data;
	sp = (unsigned long *)((char *)p->stack + THREAD_SIZE);
	*--sp = 0;			     /* thread_start's return address: none */
	*--sp = (unsigned long)thread_start; /* switch_to's ret goes here */
	*--sp = 0;			     /* ebp: the end of the frame chain */
	*--sp = 0;			     /* ebx */
	*--sp = 0;			     /* esi */
	*--sp = 0;			     /* edi */
	p->thread.esp = (unsigned long)sp;
	flags = local_irq_save();
	p->pid = next_pid++;
	task_list_add(p);
	local_irq_restore(flags);
	return p;
}

__noreturn void do_exit(int code)
{
	local_irq_disable();
	current->exit_code = code;
	current->state = TASK_DEAD;
	if (current->stopper)
		wake_up_process(current->stopper);
	__preempt_count = 0;
	schedule();
	panic("do_exit: a dead thread ran again");
}

void current_stack_bounds(const char **bottom, const char **top)
{
	if (!current->stack) {
		*bottom = boot_stack_bottom;
		*top = boot_stack_top;
		return;
	}
	*bottom = current->stack;
	*top = (const char *)current->stack + THREAD_SIZE;
}

void idle_sleep(void)
{
	if (!scheduler_running) {
		default_idle();
		return;
	}
	schedule_timeout_interruptible(1);
	local_irq_enable();
}

unsigned long nr_context_switches(void) { return this_rq()->nr_switches; }

/* The idle thread: halts until an interrupt, and lets any runnable thread have the CPU. */
static int idle_thread(void *unused)
{
	for (;;) {
		local_irq_disable();
		if (!need_resched())
			default_idle(); /* sti; hlt: the interrupt that wakes a thread ends it */
		local_irq_enable();
		schedule();
	}
	return 0;
}

void sched_init(void)
{
	struct task_struct *idle = create_thread(idle_thread, NULL, "swapper");

	if (!idle)
		panic("sched_init: no memory for the idle thread");
	task_list_del(idle); /* PID 0: ps does not list it, as Linux's does not */
	idle->pid = 0;
	idle->state = TASK_RUNNING;
	next_pid = 2;
	rq_init(this_rq(), idle);
	task_list_add(&init_task);
	enqueue_task(this_rq(), &init_task);
	scheduler_running = true;
	kthreadd_init();
}
