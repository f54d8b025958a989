/*
 * ps.c: every thread, in busybox ps's columns (PID, USER, TIME, COMMAND),
 * kernel threads in brackets as Linux shows them ([kthreadd], [events/0]);
 * then the work queue's pending work and what it has run, named by kallsyms.
 */
#include <kobold/irqflags.h>
#include <kobold/kallsyms.h>
#include <kobold/sched.h>
#include <kobold/shell.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/workqueue.h>

#define PS_MAX 64

struct ps_row {
	int pid;
	unsigned long ticks;
	bool kthread;
	char comm[TASK_COMM_LEN];
};

/* A copy of the task list, taken with interrupts off: the tasks may exit while we print. */
static int snapshot_tasks(struct ps_row *rows, int max)
{
	unsigned long flags = local_irq_save();
	struct task_struct *p;
	int n = 0;

	list_for_each_entry(p, &task_list, tasks) {
		if (n == max)
			break;
		rows[n] = (struct ps_row){ p->pid, p->utime, p->flags & PF_KTHREAD, "" };
		memcpy(rows[n].comm, p->comm, TASK_COMM_LEN);
		n++;
	}
	local_irq_restore(flags);
	return n;
}

static void print_tasks(void)
{
	struct ps_row rows[PS_MAX]; /* on the stack: each console's ps its own */
	int n = snapshot_tasks(rows, PS_MAX);

	sh_printf("PID   USER     TIME  COMMAND\n");
	for (int i = 0; i < n; i++) {
		unsigned long secs = rows[i].ticks / HZ;
		char time[16], cmd[TASK_COMM_LEN + 2];

		scnprintf(time, sizeof(time), "%lu:%02lu", secs / 60, secs % 60);
		scnprintf(cmd, sizeof(cmd), rows[i].kthread ? "[%s]" : "%s", rows[i].comm);
		sh_printf("%5d %-8s %5s %s\n", rows[i].pid, "root", time, cmd);
	}
}

static const char *work_name(work_func_t func)
{
	const char *name;
	u32 offset, size;

	if (ksym_lookup((u32)(uintptr_t)func, &name, &offset, &size))
		return name;
	return "?";
}

static void count_one(const struct work_struct *work, void *arg)
{
	(*(int *)arg)++;
}

static void print_pending(const struct work_struct *work, void *arg)
{
	sh_printf("  %s\n", work_name(work->func));
}

static int cmd_ps(int argc, char **argv)
{
	const struct work_stat *st;
	unsigned long total;
	int pending = 0;

	if (argc != 1) {
		sh_err("usage: ps\n");
		return 1;
	}
	workqueue_for_each_pending(count_one, &pending);
	print_tasks();
	sh_printf("\n[events/0]: %d work item%s pending\n", pending, pending == 1 ? "" : "s");
	workqueue_for_each_pending(print_pending, NULL);
	st = workqueue_stats(&total);
	sh_printf("[events/0]: %lu work item%s run since boot\n", total, total == 1 ? "" : "s");
	for (int i = 0; i < WORK_STATS_MAX && st[i].func; i++)
		sh_printf("%8lu %s%s\n", st[i].runs, work_name(st[i].func),
			  i == WORK_STATS_MAX - 1 ? " (and others)" : "");
	return 0;
}
SHELL_COMMAND("ps", "", "every thread, busybox's columns; the work queue: pending work, work run", cmd_ps);
