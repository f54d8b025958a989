/*
 * builtins.c: the shell's own commands: help, exit, clear, echo, dmesg,
 * meminfo, sleep, poweroff, reboot.
 */
#include <kobold/clock.h>
#include <kobold/kallsyms.h>
#include <kobold/mm.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/reboot.h>
#include <kobold/sched.h>
#include <kobold/shell.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>

#define MAX_COMMANDS 128

/* The command table, sorted by name (the linker leaves it in link order). */
static unsigned int sorted_commands(const struct shell_command **out)
{
	unsigned int n = 0;

	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++) {
		unsigned int j = n++;

		if (n > MAX_COMMANDS)
			return MAX_COMMANDS;
		for (; j > 0 && strcmp(out[j - 1]->name, c->name) > 0; j--)
			out[j] = out[j - 1];
		out[j] = c;
	}
	return n;
}

static const struct shell_command *lookup_command(const char *name)
{
	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

/* help CMD: the usage line as bash's help prints it, then what the command does. */
static int help_one(const char *name)
{
	const struct shell_command *c = lookup_command(name);
	const char *text;

	if (!c) {
		sh_err("help: no help topics match `%s'\n", name);
		return 1;
	}
	sh_printf("%s: %s%s%s\n    %s\n", c->name, c->name, *c->usage ? " " : "", c->usage,
		  c->help);
	text = shell_help_text(c->name);
	for (const char *p = text; p && *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);

		sh_printf("    %.*s\n", len, p);
		p += len + (nl != NULL);
	}
	return 0;
}

static int cmd_help(int argc, char **argv)
{
	static const struct shell_command *cmds[MAX_COMMANDS];
	unsigned int n = sorted_commands(cmds);
	int width = 0;

	if (argc > 2) {
		sh_err("usage: help [CMD]\n");
		return 1;
	}
	if (argc == 2)
		return help_one(argv[1]);
	for (unsigned int i = 0; i < n; i++)
		width = max(width, (int)strlen(cmds[i]->name));
	for (unsigned int i = 0; i < n; i++)
		sh_printf("  %-*s  %s\n", width, cmds[i]->name, cmds[i]->help);
	return 0;
}
SHELL_COMMAND("help", "[CMD]", "list the commands, or one command's usage and what it does",
	      cmd_help);

/* There is no login shell to return to; say how to leave instead. */
static int cmd_exit(int argc, char **argv)
{
	sh_printf("%s: this shell is the kernel's: type poweroff to switch off "
		  "(in QEMU, Ctrl-A X quits)\n",
		  argv[0]);
	return 0;
}
SHELL_COMMAND("exit", "", "say how to leave (poweroff, or Ctrl-A X in QEMU)", cmd_exit);

static int cmd_quit(int argc, char **argv) { return cmd_exit(argc, argv); }
SHELL_COMMAND("quit", "", "the same as exit", cmd_quit);

static int cmd_logout(int argc, char **argv) { return cmd_exit(argc, argv); }
SHELL_COMMAND("logout", "", "the same as exit", cmd_logout);

static int cmd_clear(int argc, char **argv)
{
	sh_write("\x1b[H\x1b[2J", 7); /* cursor home, erase the screen: what clear(1) sends */
	return 0;
}
SHELL_COMMAND("clear", "", "clear the screen", cmd_clear);

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		sh_printf("%s%s", i > 1 ? " " : "", argv[i]);
	sh_write("\n", 1);
	return 0;
}
SHELL_COMMAND("echo", "[TEXT...]", "print TEXT (> FILE writes it to a file, >> FILE appends)", cmd_echo);

static void print_record(u64 ts_ns, int level, const char *text, void *arg)
{
	char stamp[24];

	format_log_time(ts_ns, stamp, sizeof(stamp));
	sh_printf("%s %s\n", stamp, text);
}

/*
 * sleep N: busybox's, whole seconds. It lets the big kernel lock go while
 * it sleeps, so the other consoles' commands run meanwhile.
 */
static int cmd_sleep(int argc, char **argv)
{
	unsigned int secs;
	int depth;
	u64 end;

	if (argc != 2) {
		sh_err("usage: sleep N\n");
		return 1;
	}
	if (kstrtouint(argv[1], 10, &secs) || secs > 1000000) {
		sh_err("sleep: invalid number '%s'\n", argv[1]);
		return 1;
	}
	end = ktime_get_ns() + (u64)secs * 1000000000ull;
	depth = release_kernel_lock();
	while (ktime_get_ns() < end && !signal_pending())
		schedule_timeout_interruptible(10);
	reacquire_kernel_lock(depth);
	return 0;
}
SHELL_COMMAND("sleep", "N", "wait N seconds (Ctrl-C stops it)", cmd_sleep);

static int cmd_dmesg(int argc, char **argv)
{
	if (argc > 1) {
		sh_err("dmesg: takes no arguments\n");
		return 1;
	}
	log_for_each(print_record, NULL);
	return 0;
}
SHELL_COMMAND("dmesg", "", "print the kernel log", cmd_dmesg);

struct alloc_site {
	const void *caller;
	unsigned long objects;
	unsigned long bytes;
};

struct site_table {
	struct alloc_site site[128];
	unsigned int n;
	unsigned long other; /* objects from sites beyond the table */
};

static void count_site(const void *obj, size_t size, const void *caller, void *arg)
{
	struct site_table *t = arg;
	unsigned int i;

	for (i = 0; i < t->n && t->site[i].caller != caller; i++)
		;
	if (i == t->n) {
		if (t->n == ARRAY_SIZE(t->site)) {
			t->other++;
			return;
		}
		t->site[t->n++] = (struct alloc_site){ caller, 0, 0 };
	}
	t->site[i].objects++;
	t->site[i].bytes += size;
}

/* Live objects grouped by the code that allocated them, most bytes first. */
static void show_sites(void)
{
	struct site_table t; /* on the stack: each console's its own */
	const char *name;
	u32 off, size;

	t.n = 0;
	t.other = 0;
	kmem_for_each_live(count_site, &t);
	for (unsigned int i = 1; i < t.n; i++) /* insertion sort: the table is small */
		for (unsigned int j = i; j > 0 && t.site[j].bytes > t.site[j - 1].bytes; j--) {
			struct alloc_site tmp = t.site[j];

			t.site[j] = t.site[j - 1];
			t.site[j - 1] = tmp;
		}
	sh_printf("%10s %8s  %s\n", "bytes", "objects", "call site");
	for (unsigned int i = 0; i < t.n; i++) {
		if (ksym_lookup((u32)t.site[i].caller, &name, &off, &size))
			sh_printf("%10lu %8lu  %s+0x%x/0x%x\n", t.site[i].bytes,
				  t.site[i].objects, name, off, size);
		else
			sh_printf("%10lu %8lu  %p\n", t.site[i].bytes, t.site[i].objects,
				  t.site[i].caller);
	}
	if (t.other)
		sh_printf("(%lu more objects from other sites)\n", t.other);
}

/* meminfo -c: every object checked now (red zones, poison, links). */
static int check_all(void)
{
	unsigned int checked;
	int bad = kmem_check(&checked);

	sh_printf("kmem_check: %u objects checked, %d damaged\n", checked, bad);
	return bad ? 1 : 0;
}

static int cmd_meminfo(int argc, char **argv)
{
	struct kmem_stats k;
	struct page_stats p;
	bool verbose = argc > 1 && strcmp(argv[1], "-v") == 0;

	if (argc == 2 && strcmp(argv[1], "-c") == 0)
		return check_all();
	if (argc > 2 || (argc == 2 && !verbose)) {
		sh_err("usage: meminfo [-v] [-c]\n");
		return 1;
	}
	kmem_get_stats(&k);
	page_get_stats(&p);
	sh_printf("BytesInUse:    %10lu\n", (unsigned long)k.bytes_in_use);
	sh_printf("ObjectsInUse:  %10lu\n", (unsigned long)k.objects_in_use);
	sh_printf("PeakBytes:     %10lu\n", (unsigned long)k.peak_bytes);
	sh_printf("Allocations:   %10lu\n", (unsigned long)k.total_allocs);
	sh_printf("Frees:         %10lu\n", (unsigned long)k.total_frees);
	sh_printf("Failures:      %10lu\n", (unsigned long)k.failures);
	sh_printf("PagesTotal:    %10lu\n", p.total);
	sh_printf("PagesFree:     %10lu\n", p.free);
	if (verbose)
		show_sites();
	return 0;
}
SHELL_COMMAND("meminfo", "[-v|-c]", "allocator figures (-v: live objects by site, -c: check them)",
	      cmd_meminfo);

static int cmd_poweroff(int argc, char **argv)
{
	kernel_power_off(); /* drivers' shutdown, children first, then ACPI S5 */
}
SHELL_COMMAND("poweroff", "", "switch the machine off (QEMU exits with 0)", cmd_poweroff);

static int cmd_reboot(int argc, char **argv)
{
	kernel_restart();
}
SHELL_COMMAND("reboot", "", "restart the machine", cmd_reboot);
