/* runqueue.c: a CPU's queue of runnable threads, round robin, and the list of every task. */
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
};
struct task_struct *current_task = &init_task;
LIST_HEAD(task_list);

void rq_init(struct rq *rq, struct task_struct *idle)
{
	INIT_LIST_HEAD(&rq->queue);
	rq->nr_running = 0;
	rq->idle = idle;
	rq->curr = current;
	rq->nr_switches = 0;
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
	p->utime++;
	if (p == rq->idle)
		return rq->nr_running > 0;
	if (--p->time_slice > 0)
		return false;
	p->time_slice = DEF_TIMESLICE;
	return true;
}

void task_list_add(struct task_struct *p) { list_add_tail(&p->tasks, &task_list); }

void task_list_del(struct task_struct *p) { list_del_init(&p->tasks); }
