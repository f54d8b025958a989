/*
 * sched.c: the scheduler. Each CPU has a run queue; schedule() takes the
 * running thread off the CPU (off its queue too, if it is going to sleep),
 * picks the next one in turn and switches stacks; a CPU with nothing to run
 * takes a waiting thread from another's queue. Each CPU's timer tick uses
 * up its running thread's slice and asks for a switch, which happens on
 * the way out of the interrupt if the thread's preemption count is zero
 * (CONFIG_PREEMPT), else at its preempt_enable(). wake_up_process puts a
 * thread on an idle CPU if there is one, and sends that CPU the reschedule
 * interrupt; each tick, now and then, a CPU pulls threads from the busiest
 * queue (load balancing). Each CPU's idle thread halts it when nothing is
 * runnable. The queues are kept under the interrupt lock (kernel/irq_lock.c).
 */
#include <asm/io.h>
#include <asm/irq_regs.h>
#include <kobold/clock.h>
#include <kobold/idle.h>
#include <kobold/irqflags.h>
#include <kobold/kernel_stat.h>
#include <kobold/kthread.h>
#include <kobold/panic.h>
#include <kobold/mm.h>
#include <kobold/pid.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/softlockup.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>
#include <kobold/timer.h>

struct rq runqueues[NR_CPUS];
static int thread_stack_pages = THREAD_SIZE / PAGE_SIZE;
static struct task_struct *idle_tasks[NR_CPUS];

extern char boot_stack_bottom[], boot_stack_top[];
void switch_to(unsigned long *prev_esp, unsigned long next_esp);

void put_task_struct(struct task_struct *p)
{
	if (!atomic_dec_and_test(&p->usage))
		return;
	free_pid(p->pid); /* not before: a zombie keeps its PID until it is reaped */
	free_pages(p->stack, (unsigned int)thread_stack_pages);
	kfree(p);
}

/* After a switch, on the new thread's stack: the old one, if it has exited, goes. */
static void finish_switch(void)
{
	struct rq *rq = this_rq();
	struct task_struct *prev = rq->prev;

	rq->prev = NULL;
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

static void set_task_cpu(struct task_struct *p, unsigned int cpu)
{
	p->cpu = cpu;
	p->thread_info->cpu = cpu;
}

/* Nothing to run here: a thread waiting on another CPU's queue, if one may come. */
static struct task_struct *idle_balance(struct rq *rq)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++) {
		struct task_struct *p;

		if (cpu == rq->cpu || !cpu_rq(cpu)->idle ||
		    !(p = steal_candidate(cpu_rq(cpu), rq->cpu)))
			continue;
		migrate_task(cpu_rq(cpu), rq, p);
		set_task_cpu(p, rq->cpu);
		return p;
	}
	return rq->idle;
}

static void check_stack(struct task_struct *p)
{
	if (p->thread_info->stack_end != STACK_END_MAGIC)
		panic("%s/%d: kernel stack overflow", p->comm, p->pid);
}

void schedule(void)
{
	struct task_struct *prev = current, *next;
	unsigned long flags;
	struct rq *rq;

	if (unlikely(in_atomic()))
		schedule_bug();
	flags = local_irq_save();
	rq = this_rq();
	prev->thread_info->flags &= ~TIF_NEED_RESCHED;
	if (prev->state != TASK_RUNNING && !(preempt_count() & PREEMPT_ACTIVE)) {
		dequeue_task(rq, prev);
		prev->nvcsw++;
	} else if (prev != rq->idle) {
		prev->nivcsw++;
	}
	next = rq->active ? pick_next_task(rq, prev) : rq->idle; /* going down: only idle */
	if (next == rq->idle && rq->active)
		next = idle_balance(rq);
	check_stack(prev);
	if (next != prev) {
		rq->nr_switches++;
		rq->curr = next;
		rq->prev = prev;
		next->thread_info->cpu = rq->cpu;
		switch_user_state(prev, next); /* cr3, TSS esp0, TLS, FPU (kernel/process.c) */
		switch_to(&prev->thread.esp, next->thread.esp);
		finish_switch(); /* now on prev's stack again, maybe on another CPU */
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

/* On a CPU's queue; an idle CPU is told to look (the reschedule interrupt, if not this one). */
static void place_task(struct task_struct *p, int cpu)
{
	struct rq *rq = cpu_rq(cpu);

	set_task_cpu(p, (unsigned int)cpu);
	enqueue_task(rq, p);
	if (rq->curr != rq->idle)
		return;
	rq->idle->thread_info->flags |= TIF_NEED_RESCHED;
	if ((unsigned int)cpu != smp_processor_id())
		smp_send_reschedule((unsigned int)cpu);
}

void move_task_to(struct task_struct *p, unsigned int dest)
{
	if (task_queued(p)) {
		dequeue_task(cpu_rq(p->cpu), p);
		place_task(p, (int)dest);
	} else {
		set_task_cpu(p, dest);
	}
}

static int select_cpu(struct task_struct *p)
{
	int cpu = select_task_rq(runqueues, NR_CPUS, p, smp_processor_id());

	return cpu < 0 ? 0 : cpu; /* its CPUs are all down: the boot CPU never is */
}

bool wake_up_process(struct task_struct *p)
{
	unsigned long flags = local_irq_save();
	bool woke = p->state != TASK_RUNNING && p->state != TASK_DEAD;

	if (woke) {
		p->state = TASK_RUNNING;
		if (!task_queued(p)) /* else it has not switched away yet: it runs on */
			place_task(p, select_cpu(p));
	}
	local_irq_restore(flags);
	return woke;
}

void kthread_bind(struct task_struct *p, unsigned int cpu)
{
	unsigned long flags = local_irq_save();

	p->cpus_allowed = 1UL << cpu;
	set_task_cpu(p, cpu);
	local_irq_restore(flags);
}

#define IDLE_REBALANCE_TICK (HZ / 1000 ?: 1) /* 2.6.0's intervals: 1 ms idle, 200 ms busy */
#define BUSY_REBALANCE_TICK (HZ / 5 ?: 1)
static unsigned long rebalance_ticks[NR_CPUS];

/*
 * 2.6's rebalance_tick and load_balance: now and then each CPU pulls
 * threads that may run on it from the busiest queue, half the difference
 * (kernel/runqueue.c); an idle one looks every tick and runs what it took.
 */
static void rebalance_tick(struct rq *rq)
{
	bool idle = rq->curr == rq->idle;
	unsigned long interval = idle ? IDLE_REBALANCE_TICK : BUSY_REBALANCE_TICK;
	unsigned int imbalance;
	struct rq *busiest;

	if (!rq->active || ++rebalance_ticks[rq->cpu] % interval)
		return;
	busiest = find_busiest_queue(runqueues, NR_CPUS, rq->cpu, &imbalance);
	if (busiest && pull_tasks(busiest, rq, imbalance) && idle)
		set_need_resched();
}

void scheduler_tick(void)
{
	struct pt_regs *regs = get_irq_regs(); /* NULL: called from no interrupt */
	struct rq *rq = this_rq();

	account_process_tick(current, regs && user_mode(regs));
	if (scheduler_running && task_tick(rq, current))
		set_need_resched();
	if (scheduler_running)
		rebalance_tick(rq);
	softlockup_tick();
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
	p->stack = alloc_pages_aligned((unsigned int)thread_stack_pages);
	p->pid = alloc_pid();
	if (!p->stack || p->pid < 0) {
		if (p->stack)
			free_pages(p->stack, (unsigned int)thread_stack_pages);
		free_pid(p->pid);
		kfree(p);
		return NULL;
	}
	p->thread_info = p->stack;
	*p->thread_info = (struct thread_info){ .task = p, .cpu = smp_processor_id(), .stack_end = STACK_END_MAGIC };
	p->state = TASK_UNINTERRUPTIBLE; /* until its first wake_up_process */
	p->flags = PF_KTHREAD;
	strscpy(p->comm, name, sizeof(p->comm));
	atomic_set(&p->usage, 1);
	INIT_LIST_HEAD(&p->run_list);
	p->time_slice = DEF_TIMESLICE;
	p->cpu = smp_processor_id();
	p->cpus_allowed = CPU_MASK_ALL;
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
	task_list_add(p);
	total_forks++;
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

unsigned long nr_context_switches(void)
{
	unsigned long n = 0;

	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		n += cpu_rq(cpu)->nr_switches;
	return n;
}

/* The idle thread: halts until an interrupt, and lets any runnable thread have the CPU. */
static __noreturn void idle_loop(void)
{
	for (;;) {
		local_irq_disable();
		if (!need_resched())
			default_idle(); /* sti; hlt: the interrupt that wakes a thread ends it */
		local_irq_enable();
		schedule();
	}
}

static int idle_thread(void *unused)
{
	idle_loop();
}

/* A thread for a CPU's idle: PID 0, swapper, not listed, bound to its CPU. */
static struct task_struct *make_idle(unsigned int cpu)
{
	struct task_struct *idle = create_thread(idle_thread, NULL, "swapper");

	if (!idle)
		return NULL;
	task_list_del(idle); /* PID 0: ps does not list it, as Linux's does not */
	free_pid(idle->pid); /* it took none a thread could see */
	last_pid = idle->pid - 1;
	idle->pid = 0;
	idle->state = TASK_RUNNING;
	idle->cpus_allowed = 1UL << cpu;
	set_task_cpu(idle, cpu);
	return idle;
}

struct task_struct *idle_task_for(unsigned int cpu)
{
	struct task_struct *idle = idle_tasks[cpu];

	if (!idle) {
		idle = make_idle(cpu);
		if (!idle)
			return NULL;
		idle_tasks[cpu] = idle;
	}
	idle->thread_info->preempt_count = 0; /* it may have died in play_dead's interrupt */
	idle->thread_info->flags = 0;
	rq_init(cpu_rq(cpu), idle);
	cpu_rq(cpu)->cpu = cpu;
	cpu_rq(cpu)->curr = idle;
	return idle;
}

/* One store, without the interrupt lock: the boot CPU holds it while an AP comes up at boot. */
void sched_cpu_activate(unsigned int cpu)
{
	cpu_rq(cpu)->active = true;
	mb();
}

__noreturn void cpu_idle(void)
{
	local_irq_enable();
	idle_loop();
}

/*
 * Every queued thread but the running one goes to another CPU; one bound
 * to this CPU alone is let run anywhere, as 2.6's move_task_off_dead_cpu.
 * True once the CPU runs its idle thread with nothing queued.
 */
static bool push_tasks_away(struct rq *rq)
{
	struct task_struct *p, *n;

	list_for_each_entry(p, &task_list, tasks) { /* the sleepers: they wake elsewhere */
		if (p->cpu != rq->cpu || task_queued(p))
			continue;
		if (select_task_rq(runqueues, NR_CPUS, p, smp_processor_id()) < 0)
			p->cpus_allowed = CPU_MASK_ALL;
		set_task_cpu(p, (unsigned int)select_cpu(p));
	}
	list_for_each_entry_safe(p, n, &rq->queue, run_list) {
		if (p == rq->curr)
			continue;
		dequeue_task(rq, p);
		if (select_task_rq(runqueues, NR_CPUS, p, smp_processor_id()) < 0)
			p->cpus_allowed = CPU_MASK_ALL;
		place_task(p, select_cpu(p));
	}
	if (rq->curr == rq->idle && rq->nr_running == 0)
		return true;
	rq->curr->thread_info->flags |= TIF_NEED_RESCHED;
	smp_send_reschedule(rq->cpu);
	return false;
}

void sched_cpu_deactivate(unsigned int cpu)
{
	struct rq *rq = cpu_rq(cpu);
	unsigned long flags = local_irq_save();
	bool done;

	rq->active = false;
	local_irq_restore(flags);
	do {
		flags = local_irq_save();
		done = push_tasks_away(rq);
		local_irq_restore(flags);
		if (!done)
			schedule_timeout_uninterruptible(1); /* and if it is this thread, it moves */
	} while (!done);
}

void sched_init(void)
{
	struct task_struct *idle;

	init_task.thread_info = (struct thread_info *)boot_stack_bottom;
	init_task.thread_info->stack_end = STACK_END_MAGIC;
	init_task.cpus_allowed = CPU_MASK_ALL;
	idle = idle_task_for(0);
	if (!idle)
		panic("sched_init: no memory for the idle thread");
	this_rq()->curr = &init_task;
	this_rq()->active = true;
	task_list_add(&init_task);
	enqueue_task(this_rq(), &init_task);
	scheduler_running = true;
	kthreadd_init();
}
