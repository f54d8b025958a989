/*
 * module.c: the module table and the lsmod, modprobe and rmmod commands.
 * Modules are linked into the kernel, but their init and exit run at
 * modprobe and rmmod time, with parameters, as loadable modules' do.
 */
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/shell.h>
#include <kobold/string.h>

#define MAX_MODULES 32 /* every module the tree and its labs build, with room to spare */

extern const struct module_call __start_modules[], __stop_modules[];
extern const u32 module_sizes[] __attribute__((weak)); /* pairs: name, bytes */
static struct module *modules[MAX_MODULES];
static struct module spare[MAX_MODULES]; /* for a module_init built without -DMODULE */
static int nr_modules, nr_spare;

static struct module *find_module(const char *name)
{
	for (int i = 0; i < nr_modules; i++)
		if (strcmp(modules[i]->name, name) == 0)
			return modules[i];
	return NULL;
}

static struct module *table_entry(const struct module_call *c)
{
	struct module *m = find_module(c->name);

	if (m)
		return m;
	if (WARN(nr_modules == MAX_MODULES, "too many modules"))
		return NULL;
	m = c->mod ? c->mod : &spare[nr_spare++];
	m->name = c->name;
	modules[nr_modules++] = m;
	return m;
}

/* Joins each file's module_init and module_exit records into its struct module (once). */
static void build_table(void)
{
	static bool built;

	if (built)
		return;
	built = true;
	for (const struct module_call *c = __start_modules; c < __stop_modules; c++) {
		struct module *m = table_entry(c);

		if (!m)
			return;
		if (c->init)
			m->init = c->init;
		if (c->exit)
			m->exit = c->exit;
	}
}

static u32 module_size(const char *name)
{
	if (!&module_sizes)
		return 0;
	for (const u32 *p = module_sizes; p[0]; p += 2)
		if (strcmp((const char *)p[0], name) == 0)
			return p[1];
	return 0;
}

bool module_is_loaded(const char *name)
{
	struct module *m = find_module(name);

	return m && m->live;
}

int module_refcount(const char *name)
{
	struct module *m = find_module(name);

	return m && m->live ? m->refcnt : -ENOENT;
}

int module_load(const char *name, int argc, char **argv)
{
	struct module *m;
	int err;

	build_table(); /* a self-test may load one before load_builtin_modules */
	m = find_module(name);
	if (!m)
		return -ENOENT;
	if (m->live)
		return 0; /* as modprobe: loading a loaded module is no error */
	err = module_params_apply(name, argc, argv);
	if (err)
		return err;
	m->live = true; /* its files may be opened (pinned) from here on */
	err = m->init ? m->init() : 0;
	if (err)
		m->live = false;
	return err;
}

int module_unload(const char *name)
{
	struct module *m = find_module(name);

	if (!m || !m->live)
		return -ENOENT;
	if (!m->exit || m->refcnt)
		return -EBUSY; /* as Linux's delete_module */
	m->live = false;       /* try_module_get fails while exit runs, as for 2.6's GOING */
	m->exit();
	return 0;
}

void load_builtin_modules(void)
{
	int err;

	build_table();
	for (int i = 0; i < nr_modules; i++) {
		err = module_load(modules[i]->name, 0, NULL);
		if (err)
			pr_err("%s: init failed: %s\n", modules[i]->name, kstrerror(err));
	}
}

static int cmd_lsmod(int argc, char **argv)
{
	sh_printf("Module                  Size  Used by\n");
	for (int i = 0; i < nr_modules; i++)
		if (modules[i]->live)
			sh_printf("%-19s %8u  %d\n", modules[i]->name,
				  module_size(modules[i]->name), modules[i]->refcnt);
	return 0;
}
SHELL_COMMAND("lsmod", "", "list the loaded modules", cmd_lsmod);

static int cmd_modprobe(int argc, char **argv)
{
	int err;

	if (argc < 2) {
		sh_err("modprobe: ERROR: missing module name.\n");
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "-c") == 0) {
		kmod_show_aliases();
		return 0;
	}
	if (!find_module(argv[1]) && module_alias_exists(argv[1]))
		err = request_module(argv[1]); /* kmod takes an alias for a name */
	else
		err = module_load(argv[1], argc - 2, argv + 2);
	if (err == -ENOENT && !find_module(argv[1])) {
		sh_err("modprobe: FATAL: Module %s not found.\n", argv[1]);
		return 1;
	}
	if (err) {
		sh_err("modprobe: ERROR: could not insert '%s': %s\n", argv[1], kstrerror(err));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("modprobe", "NAME|ALIAS [PARAM=VAL...] | -c",
	      "load a module (with parameters), or the modules for a device's alias", cmd_modprobe);

static int cmd_rmmod(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		sh_err("rmmod: ERROR: usage: rmmod NAME\n");
		return 1;
	}
	if (module_refcount(argv[1]) > 0) { /* kmod checks refcnt before delete_module */
		sh_err("rmmod: ERROR: Module %s is in use\n", argv[1]);
		return 1;
	}
	err = module_unload(argv[1]);
	if (err == -ENOENT) {
		sh_err("rmmod: ERROR: Module %s is not currently loaded\n", argv[1]);
		return 1;
	}
	if (err) {
		sh_err("rmmod: ERROR: could not remove module %s: %s\n", argv[1], kstrerror(err));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("rmmod", "NAME", "unload a module", cmd_rmmod);
