/*
 * module.c: the module table. Modules are linked into the kernel, but their
 * init and exit run at modprobe and rmmod time, with parameters, as loadable
 * modules' do. The commands themselves are the shell's (shell/kmod.c).
 */
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/printk.h>
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

bool module_exists(const char *name)
{
	build_table();
	return find_module(name) != NULL;
}

void module_for_each_loaded(void (*fn)(const struct module *mod, u32 size, void *data), void *data)
{
	for (int i = 0; i < nr_modules; i++)
		if (modules[i]->live)
			fn(modules[i], module_size(modules[i]->name), data);
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
