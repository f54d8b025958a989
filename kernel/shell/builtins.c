/* builtins.c: the shell's own commands: help, echo, dmesg, meminfo, poweroff, reboot. */
#include <kobold/kallsyms.h>
#include <kobold/mm.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/shell.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static int cmd_help(int argc, char **argv)
{
	for (const struct shell_command *c = __start_shell_cmds; c < __stop_shell_cmds; c++) {
		char head[48];

		scnprintf(head, sizeof(head), "%s %s", c->name, c->usage);
		sh_printf("  %-34s %s\n", head, c->help);
	}
	return 0;
}
SHELL_COMMAND("help", "", "list the commands, one line each", cmd_help);

static int cmd_echo(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		sh_printf("%s%s", i > 1 ? " " : "", argv[i]);
	sh_write("\n", 1);
	return 0;
}
SHELL_COMMAND("echo", "[TEXT...]", "print TEXT (with > FILE: write it to an attribute)", cmd_echo);

static void print_record(u64 ts_ns, int level, const char *text, void *arg)
{
	char stamp[24];

	format_log_time(ts_ns, stamp, sizeof(stamp));
	sh_printf("%s %s\n", stamp, text);
}

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
	unsigned long other;	/* objects from sites beyond the table */
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
	static struct site_table t;
	const char *name;
	u32 off, size;

	t.n = 0;
	t.other = 0;
	kmem_for_each_live(count_site, &t);
	for (unsigned int i = 1; i < t.n; i++)	/* insertion sort: the table is small */
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
	printk(KERN_NOTICE "reboot: Power down\n");
	machine_power_off();
}
SHELL_COMMAND("poweroff", "", "switch the machine off (QEMU exits with 0)", cmd_poweroff);

static int cmd_reboot(int argc, char **argv)
{
	printk(KERN_NOTICE "reboot: Restarting system\n");
	machine_restart();
}
SHELL_COMMAND("reboot", "", "restart the machine", cmd_reboot);
