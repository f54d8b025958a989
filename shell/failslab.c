/*
 * failslab.c: fault injection in the manner of Linux's failslab and fail-nth:
 * make the Nth kmalloc from now fail, from the command line (failslab.nth=N)
 * or the shell (failslab N [COMMAND...]), to test every error path.
 */
#include <kobold/errno.h>
#include <kobold/param.h>
#include <kobold/sched.h>
#include <kobold/shell.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static unsigned int nth; /* only the parameter's storage: the countdown is kmalloc's */

static int set_nth(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int err = kstrtouint(val, 0, &n);

	if (err)
		return err;
	kmalloc_fail_task(current); /* the boot thread's allocations: the threads beside it vary */
	kmalloc_fail_nth(n);
	return 0;
}

static int get_nth(char *buf, size_t size, const struct kernel_param *kp)
{
	return scnprintf(buf, size, "%lu", kmalloc_fail_pending());
}

static const struct kernel_param_ops param_ops_failnth = { set_nth, get_nth };
module_param(nth, failnth, "make the Nth allocation from boot fail (1: the next one)");

static const struct shell_command *find_command(const char *name)
{
	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static int show_state(void)
{
	unsigned long left = kmalloc_fail_pending();

	if (left)
		sh_printf("armed: allocation %lu from now fails\n", left);
	else
		sh_printf("off\n");
	sh_printf("injected: %lu\n", kmalloc_fail_injected());
	return 0;
}

/*
 * Runs argv[0], and the line's "> FILE" (the store it calls), with its nth
 * allocation failing; the fault never outlives it.
 */
static int run_with_fault(unsigned int n, int argc, char **argv)
{
	const struct shell_command *c = find_command(argv[0]);
	int status;

	if (!c || c->fn == NULL) {
		sh_err("failslab: %s: command not found\n", argv[0]);
		return 127;
	}
	kmalloc_fail_skip(NULL);
	kmalloc_fail_task(current); /* the command's own allocations, not events/N's beside it */
	kmalloc_fail_nth(n);
	status = shell_redirect_finish(argv[0], c->fn(argc, argv));
	kmalloc_fail_task(NULL);
	if (kmalloc_fail_pending()) {
		kmalloc_fail_nth(0);
		if (!signal_pending()) /* after Ctrl-C it only means the run was cut short */
			sh_err("failslab: %s made fewer than %u allocations: nothing failed\n",
			       argv[0], n);
	}
	return status;
}

static int cmd_failslab(int argc, char **argv)
{
	unsigned int n;

	if (argc == 1)
		return show_state();
	if (argc == 2 && strcmp(argv[1], "off") == 0) {
		kmalloc_fail_nth(0);
		return 0;
	}
	if (kstrtouint(argv[1], 10, &n) || n == 0) {
		sh_err("failslab: invalid count '%s' (want N >= 1, or off)\n", argv[1]);
		return 1;
	}
	if (argc == 2) {
		/* Work beside the shell (events/N's, a hot-add's): not this shell's next commands. */
		kmalloc_fail_task(NULL);
		kmalloc_fail_skip(current);
		kmalloc_fail_nth(n);
		return 0;
	}
	return run_with_fault(n, argc - 2, argv + 2);
}
SHELL_COMMAND("failslab", "[N [CMD...]|off]",
	      "make the Nth allocation fail (in CMD, or from now)", cmd_failslab);
