/* preempt_inject.c: `preempt_inject` prints, per point, the passes and the switches forced (kernel/preempt_inject.c). */
#include <kobold/preempt_inject.h>
#include <kobold/shell.h>

static int cmd_preempt_inject(int argc, char **argv)
{
	const struct preempt_point_stat *st = preempt_inject_stats();

	if (argc != 1) {
		sh_err("usage: preempt_inject\n");
		return 1;
	}
	sh_printf("%-14s %10s %10s\n", "point", "passes", "switches");
	for (int p = 0; p < PI_NR_POINTS; p++)
		sh_printf("%-14s %10lu %10lu\n", st[p].name, st[p].hits, st[p].switches);
	return 0;
}
SHELL_COMMAND("preempt_inject", "",
	      "injected preemption (boot option preempt_inject=): passes and switches per point",
	      cmd_preempt_inject);
