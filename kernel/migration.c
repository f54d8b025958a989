/*
 * migration.c: [migration/N], one thread per CPU that moves threads off its
 * CPU on request, and set_cpus_allowed(), which asks it to when the thread
 * to move is running there (2.6's migration_thread and migration_req_t).
 * A thread that is not running is moved at once, under the interrupt lock
 * that keeps every run queue (kernel/irq_lock.c).
 */
#include <kobold/completion.h>
#include <kobold/cpu.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/kthread.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/smp.h>

/* A request to the migration thread of the CPU task runs on. */
struct migration_req {
	struct list_head list;
	struct task_struct *task;
	unsigned int dest_cpu;
	struct completion done;
};

static struct list_head migration_queue[NR_CPUS]; /* under the interrupt lock */
static struct task_struct *migration_task[NR_CPUS];

static bool task_running(const struct task_struct *p) { return cpu_rq(p->cpu)->curr == p; }

static unsigned int first_online(unsigned long mask)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) if (mask & (1UL << cpu)) return cpu;
	return NR_CPUS;
}

/* With the interrupt lock held, p not running: off src to dest, if it is still on src and may go. */
static void __migrate_task(struct task_struct *p, unsigned int src, unsigned int dest)
{
	if (p->cpu != src || !(p->cpus_allowed & (1UL << dest)) || !cpu_rq(dest)->active)
		return;
	move_task_to(p, dest);
}

static int migration_thread(void *data)
{
	unsigned int cpu = (unsigned int)(unsigned long)data;
	struct list_head *head = &migration_queue[cpu];

	while (!kthread_should_stop()) {
		struct migration_req *req;
		unsigned long flags = local_irq_save();

		set_current_state(TASK_INTERRUPTIBLE);
		if (list_empty(head)) {
			local_irq_restore(flags);
			if (!kthread_should_stop()) /* else kthread_stop's wake-up came before our sleep */
				schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		req = list_first_entry(head, struct migration_req, list);
		list_del_init(&req->list);
		__migrate_task(req->task, cpu, req->dest_cpu); /* it cannot be running: we are */
		local_irq_restore(flags);
		complete(&req->done);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

int set_cpus_allowed(struct task_struct *p, unsigned long new_mask)
{
	struct migration_req req = { .task = p };
	unsigned long flags = local_irq_save();
	unsigned int dest = first_online(new_mask), src = p->cpu;

	if (dest == NR_CPUS) {
		local_irq_restore(flags);
		return -EINVAL;
	}
	p->cpus_allowed = new_mask;
	if (new_mask & (1UL << src)) {
		local_irq_restore(flags);
		return 0; /* where it is, it may stay */
	}
	if (!task_running(p) || !migration_task[src]) {
		__migrate_task(p, src, dest); /* no migration thread yet: it moves at its next wake-up */
		local_irq_restore(flags);
		return 0;
	}
	req.dest_cpu = dest;
	init_completion(&req.done);
	list_add_tail(&req.list, &migration_queue[src]);
	wake_up_process(migration_task[src]);
	local_irq_restore(flags);
	wait_for_completion(&req.done);
	return 0;
}

/* Its CPU has gone: requests left (none, as its threads were pushed off) are answered. */
static void stop_migration(unsigned int cpu)
{
	struct task_struct *k = migration_task[cpu];

	if (!k)
		return;
	migration_task[cpu] = NULL;
	kthread_stop(k);
	while (!list_empty(&migration_queue[cpu])) {
		struct migration_req *req =
			list_first_entry(&migration_queue[cpu], struct migration_req, list);

		list_del_init(&req->list);
		complete(&req->done);
	}
}

static void start_migration(unsigned int cpu)
{
	struct task_struct *k = kthread_create_on_cpu(migration_thread, (void *)(unsigned long)cpu,
						      cpu, "migration/%u");

	if (IS_ERR(k)) {
		pr_err("migration: no migration/%u thread\n", cpu);
		return;
	}
	migration_task[cpu] = k;
	wake_up_process(k);
}

static int migration_cpu_callback(struct notifier_block *nb, unsigned long action, void *hcpu)
{
	unsigned int cpu = (unsigned int)(unsigned long)hcpu;

	if (action == CPU_ONLINE)
		start_migration(cpu);
	else if (action == CPU_DEAD)
		stop_migration(cpu);
	return NOTIFY_OK;
}

static struct notifier_block migration_cpu_notifier = {
	.notifier_call = migration_cpu_callback,
};

void migration_init(void)
{
	unsigned int cpu;

	for (cpu = 0; cpu < NR_CPUS; cpu++)
		INIT_LIST_HEAD(&migration_queue[cpu]);
	register_cpu_notifier(&migration_cpu_notifier);
	for_each_online_cpu(cpu)
		start_migration(cpu);
}
