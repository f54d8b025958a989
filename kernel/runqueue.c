/*
 * runqueue.c: a CPU's queue of runnable threads, round robin; where a waking
 * thread goes among the CPUs' queues, which one an idle CPU may take, and
 * which queue a CPU balancing its load pulls from; and the list of every task.
 */
#include <kobold/sched.h>
#include <kobold/string.h>

struct task_struct init_task = {
	.state = TASK_RUNNING,
	.pid = 1,
	.comm = "sh",
	.usage = ATOMIC_INIT(2), /* never freed */
	.run_list = LIST_HEAD_INIT(init_task.run_list),
	.tasks = LIST_HEAD_INIT(init_task.tasks),
	.time_slice = DEF_TIMESLICE,
	.cpus_allowed = CPU_MASK_ALL,
};
LIST_HEAD(task_list);

void rq_init(struct rq *rq, struct task_struct *idle)
{
	INIT_LIST_HEAD(&rq->queue);
	rq->nr_running = 0;
	rq->idle = idle;
	rq->curr = current;
	rq->nr_switches = 0;
	rq->active = false;
	rq->prev = NULL;
}

void enqueue_task(struct rq *rq, struct task_struct *p)
{
	if (p == rq->idle || task_queued(p))
		return;
	list_add_tail(&p->run_list, &rq->queue);
	rq->nr_running++;
}

void dequeue_task(struct rq *rq, struct task_struct *p)
{
	if (!task_queued(p))
		return;
	list_del_init(&p->run_list);
	rq->nr_running--;
}

bool task_queued(const struct task_struct *p) { return !list_empty(&p->run_list); }

struct task_struct *pick_next_task(struct rq *rq, struct task_struct *prev)
{
	if (prev != rq->idle && task_queued(prev) && prev->state == TASK_RUNNING)
		list_move_tail(&prev->run_list, &rq->queue);
	if (list_empty(&rq->queue))
		return rq->idle;
	return list_first_entry(&rq->queue, struct task_struct, run_list);
}

bool task_tick(struct rq *rq, struct task_struct *p)
{
	if (p == rq->idle)
		return rq->nr_running > 0;
	if (--p->time_slice > 0)
		return false;
	p->time_slice = DEF_TIMESLICE;
	return true;
}

static bool may_run_on(const struct rq *rqs, const struct task_struct *p, unsigned int cpu)
{
	return rqs[cpu].active && (p->cpus_allowed & (1UL << cpu));
}

static bool rq_is_idle(const struct rq *rq) { return rq->curr == rq->idle && rq->nr_running == 0; }

int select_task_rq(struct rq *rqs, unsigned int nr, const struct task_struct *p,
		   unsigned int this_cpu)
{
	int best = -1;

	if (p->cpu < nr && may_run_on(rqs, p, p->cpu) && rq_is_idle(&rqs[p->cpu]))
		return (int)p->cpu;
	if (this_cpu < nr && may_run_on(rqs, p, this_cpu) && rq_is_idle(&rqs[this_cpu]))
		return (int)this_cpu;
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		if (may_run_on(rqs, p, cpu) && rq_is_idle(&rqs[cpu]))
			return (int)cpu;
	if (p->cpu < nr && may_run_on(rqs, p, p->cpu))
		best = (int)p->cpu;
	for (unsigned int cpu = 0; cpu < nr; cpu++)
		if (may_run_on(rqs, p, cpu) &&
		    (best < 0 || rqs[cpu].nr_running < rqs[best].nr_running))
			best = (int)cpu;
	return best;
}

struct task_struct *steal_candidate(struct rq *src, unsigned int cpu)
{
	struct task_struct *p;

	list_for_each_entry(p, &src->queue, run_list)
		if (p != src->curr && (p->cpus_allowed & (1UL << cpu)))
			return p;
	return NULL;
}

void migrate_task(struct rq *src, struct rq *dst, struct task_struct *p)
{
	dequeue_task(src, p);
	p->cpu = dst->cpu;
	if (p->thread_info)
		p->thread_info->cpu = dst->cpu;
	enqueue_task(dst, p);
}

struct rq *find_busiest_queue(struct rq *rqs, unsigned int nr, unsigned int this_cpu,
			      unsigned int *imbalance)
{
	unsigned int load = rqs[this_cpu].nr_running;
	struct rq *busiest = NULL;

	for (unsigned int cpu = 0; cpu < nr; cpu++)
		if (cpu != this_cpu && rqs[cpu].active &&
		    (!busiest || rqs[cpu].nr_running > busiest->nr_running))
			busiest = &rqs[cpu];
	if (!busiest || busiest->nr_running < load + 2)
		return NULL; /* half the difference would be nothing */
	*imbalance = (busiest->nr_running - load) / 2;
	return busiest;
}

unsigned int pull_tasks(struct rq *src, struct rq *dst, unsigned int max)
{
	unsigned int moved = 0;
	struct task_struct *p;

	while (moved < max && (p = steal_candidate(src, dst->cpu))) {
		migrate_task(src, dst, p);
		moved++;
	}
	return moved;
}

void task_list_add(struct task_struct *p) { list_add_tail(&p->tasks, &task_list); }

void task_list_del(struct task_struct *p) { list_del_init(&p->tasks); }
