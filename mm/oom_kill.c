/*
 * oom_kill.c: when a page fault finds no free page, the process with the
 * most pages mapped is killed (Linux 2.6's mm/oom_kill.c chose by a
 * badness score that starts from the same size), and the fault is tried
 * again once it is gone. The kernel itself never panics for it.
 */
#include <kobold/mm_types.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/syscalls.h>

static struct task_struct *select_bad_process(void)
{
	struct task_struct *p, *chosen = NULL;
	unsigned long most = 0;

	list_for_each_entry(p, &task_list, tasks) {
		if (!p->user.mm || is_global_init(p) || p->user.exit_state)
			continue;
		if (p->user.pending & sigmask(SIGKILL))
			return p; /* already dying: wait for it */
		if (p->user.mm->rss >= most) {
			most = p->user.mm->rss;
			chosen = p;
		}
	}
	return chosen;
}

void out_of_memory(void)
{
	struct task_struct *p = select_bad_process();

	if (!p || (p->user.pending & sigmask(SIGKILL)))
		return;
	printk(KERN_ERR "Out of memory: Killed process %d (%s).\n", p->pid, p->comm);
	force_sig(SIGKILL, p);
	if (p->state == TASK_INTERRUPTIBLE)
		wake_up_process(p);
}
