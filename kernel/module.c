/*
 * module.c: the module table. Modules are linked into the kernel, but their
 * init and exit run at modprobe and rmmod time, with parameters, as loadable
 * modules' do. The commands themselves are the shell's (shell/kmod.c).
 * module_mutex guards the table and each module's state, as 2.6.17's
 * (a semaphore, DECLARE_MUTEX, before 2.6.17); like 2.6's
 * sys_init_module and sys_delete_module it is let go while a module's
 * init or exit runs, so they may load other modules (request_module).
 */
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/mutex.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/string.h>

#define MAX_MODULES 32 /* every module the tree and its labs build, with room to spare */

extern const struct module_call __start_modules[], __stop_modules[];
extern const u32 module_sizes[] __attribute__((weak)); /* pairs: name, bytes */
static struct module *modules[MAX_MODULES];
static struct module spare[MAX_MODULES]; /* for a module_init built without -DMODULE */
static int nr_modules, nr_spare;
static DEFINE_MUTEX(module_mutex);

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
	bool found;

	mutex_lock(&module_mutex);
	build_table();
	found = find_module(name) != NULL;
	mutex_unlock(&module_mutex);
	return found;
}

/* fn runs with module_mutex held (2.6's /proc/modules read the list under it). */
void module_for_each_loaded(void (*fn)(const struct module *mod, u32 size, void *data), void *data)
{
	mutex_lock(&module_mutex);
	for (int i = 0; i < nr_modules; i++)
		if (modules[i]->live)
			fn(modules[i], module_size(modules[i]->name), data);
	mutex_unlock(&module_mutex);
}

bool module_is_loaded(const char *name)
{
	struct module *m;
	bool live;

	mutex_lock(&module_mutex);
	m = find_module(name);
	live = m && m->live;
	mutex_unlock(&module_mutex);
	return live;
}

int module_refcount(const char *name)
{
	struct module *m;
	int n;

	mutex_lock(&module_mutex);
	m = find_module(name);
	n = m && m->live ? __atomic_load_n(&m->refcnt, __ATOMIC_SEQ_CST) : -ENOENT;
	mutex_unlock(&module_mutex);
	return n;
}

/* Under module_mutex: the module made live and COMING, or why not (1: already loaded). */
static int prepare_load(struct module *m, const char *name, int argc, char **argv)
{
	int err;

	if (m->live)
		return 1; /* as modprobe: loading a loaded module is no error */
	if (m->going)
		return -EBUSY; /* 2.6's load_module: still unloading */
	err = module_params_apply(name, argc, argv);
	if (err)
		return err;
	m->live = true; /* its files may be opened (pinned) from here on */
	m->coming = true;
	return 0;
}

int module_load(const char *name, int argc, char **argv)
{
	struct module *m;
	int err;

	mutex_lock(&module_mutex);
	build_table(); /* a self-test may load one before load_builtin_modules */
	m = find_module(name);
	err = m ? prepare_load(m, name, argc, argv) : -ENOENT;
	mutex_unlock(&module_mutex);
	if (err)
		return err > 0 ? 0 : err;
	err = m->init ? m->init() : 0; /* without the mutex, as 2.6's sys_init_module */
	mutex_lock(&module_mutex);
	m->coming = false;
	if (err)
		m->live = false;
	mutex_unlock(&module_mutex);
	return err;
}

/* Under module_mutex: the module made GOING, or why not. */
static int prepare_unload(struct module *m)
{
	if (!m || !m->live)
		return -ENOENT;
	if (!m->exit || m->coming)
		return -EBUSY;				     /* as Linux's delete_module */
	__atomic_store_n(&m->live, false, __ATOMIC_SEQ_CST); /* try_module_get fails from here */
	if (__atomic_load_n(&m->refcnt, __ATOMIC_SEQ_CST)) {
		m->live = true; /* pinned: it stays */
		return -EBUSY;
	}
	m->going = true;
	return 0;
}

int module_unload(const char *name)
{
	struct module *m;
	int err;

	mutex_lock(&module_mutex);
	m = find_module(name);
	err = prepare_unload(m);
	mutex_unlock(&module_mutex);
	if (err)
		return err;
	m->exit(); /* without the mutex, as 2.6's sys_delete_module */
	mutex_lock(&module_mutex);
	m->going = false;
	mutex_unlock(&module_mutex);
	return 0;
}

void load_builtin_modules(void)
{
	int err;

	mutex_lock(&module_mutex);
	build_table();
	mutex_unlock(&module_mutex);
	for (int i = 0; i < nr_modules; i++) {
		err = module_load(modules[i]->name, 0, NULL);
		if (err)
			pr_err("%s: init failed: %s\n", modules[i]->name, kstrerror(err));
	}
}
