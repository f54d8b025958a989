/*
 * ps.c: the flows of control Kobold has, as `ps` would list them: the shell
 * (running this command) and the work queue's worker, [events/0] as in
 * Linux 2.6, with its pending work and what it has run, named by kallsyms.
 */
#include <kobold/kallsyms.h>
#include <kobold/shell.h>
#include <kobold/workqueue.h>

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
	sh_printf("  PID STAT COMMAND\n");
	sh_printf("    1 R    sh\n");
	sh_printf("    2 %c    [events/0]\n", pending ? 'R' : 'S');
	sh_printf("\n[events/0]: %d work item%s pending\n", pending, pending == 1 ? "" : "s");
	workqueue_for_each_pending(print_pending, NULL);
	st = workqueue_stats(&total);
	sh_printf("[events/0]: %lu work item%s run since boot\n", total, total == 1 ? "" : "s");
	for (int i = 0; i < WORK_STATS_MAX && st[i].func; i++)
		sh_printf("%8lu %s%s\n", st[i].runs, work_name(st[i].func),
			  i == WORK_STATS_MAX - 1 ? " (and others)" : "");
	return 0;
}
SHELL_COMMAND("ps", "", "the shell and the work queue: pending work, work run", cmd_ps);
