/*
 * module.h: built-in modules that load and unload at run time. A driver file
 * says module_init(fn) and module_exit(fn) as in Linux; the build names the
 * module after the file (KBUILD_MODNAME) and compiles it with -DMODULE, so
 * that THIS_MODULE is its own struct module (NULL in built-in code, as Linux).
 */
#ifndef KOBOLD_MODULE_H
#define KOBOLD_MODULE_H

#include <kobold/types.h>

struct module {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
	bool live;   /* loaded and not being unloaded: try_module_get may pin it */
	bool coming; /* its init runs (2.6's MODULE_STATE_COMING): rmmod refuses */
	bool going;  /* its exit runs (MODULE_STATE_GOING): modprobe refuses */
	int refcnt;  /* pins (open attribute files); rmmod refuses while nonzero */
};

#ifdef MODULE
static struct module __this_module __attribute__((unused)) = { .name = KBUILD_MODNAME };
#define THIS_MODULE (&__this_module)
#else
#define THIS_MODULE ((struct module *)0) /* built in: never unloaded */
#endif

struct module_call {
	struct module *mod; /* THIS_MODULE of the file that says module_init */
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

#define module_init(fn)                                                   \
	static const struct module_call __module_init_##fn                \
		__attribute__((used, section("modules"), aligned(4))) = { \
			THIS_MODULE, KBUILD_MODNAME, fn, NULL             \
		}
#define module_exit(fn)                                                   \
	static const struct module_call __module_exit_##fn                \
		__attribute__((used, section("modules"), aligned(4))) = { \
			THIS_MODULE, KBUILD_MODNAME, NULL, fn             \
		}
/*
 * The IDs of the devices a module drives, by bus type ("pci", "virtio"),
 * as in Linux. Linux's build turns each table into alias patterns in
 * modules.alias (scripts/mod/file2alias.c); here the link collects the
 * tables and kmod.c makes the same patterns at boot.
 */
struct mod_device_table {
	const char *module;
	const char *type;
	const void *table;
};
#ifdef MODULE
#define MODULE_DEVICE_TABLE(type, name)                                             \
	static const struct mod_device_table __mod_##type##_device_table            \
		__attribute__((used, section("mod_device_tables"), aligned(4))) = { \
			KBUILD_MODNAME, #type, &(name)                              \
		}
#else
#define MODULE_DEVICE_TABLE(type, name) /* built in: nothing to load */
#endif

#define MODULE_DESCRIPTION(text)
#define MODULE_VERSION(text)

/*
 * Pins mod, as 2.6's sysfs did for an attribute's owner at open: false if
 * the module is being unloaded or gone. NULL (built-in code) always succeeds.
 */
static inline bool try_module_get(struct module *mod)
{
	if (!mod)
		return true;
	/* count first, then look: an rmmod that clears live then reads the count sees us */
	__atomic_add_fetch(&mod->refcnt, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&mod->live, __ATOMIC_SEQ_CST))
		return true;
	__atomic_sub_fetch(&mod->refcnt, 1, __ATOMIC_SEQ_CST);
	return false;
}

/* One locked instruction (2.6 kept a per-CPU count and stopped the machine to read it). */
static inline void module_put(struct module *mod)
{
	if (mod)
		__atomic_sub_fetch(&mod->refcnt, 1, __ATOMIC_SEQ_CST);
}

/* Loads every built-in module, in link order, as the kernel finishes booting. */
void load_builtin_modules(void);
/* modprobe: 0, or -ENOENT (no such module) or the init function's error. */
int module_load(const char *name, int argc, char **argv);
/* rmmod: 0, -ENOENT (not loaded) or -EBUSY (pinned, or no exit function). */
int module_unload(const char *name);
bool module_exists(const char *name); /* in the table, loaded or not */
/* lsmod: fn for each loaded module, in table order, with its size in bytes. */
void module_for_each_loaded(void (*fn)(const struct module *mod, u32 size, void *data), void *data);
bool module_is_loaded(const char *name);
/* How many pins a loaded module has (lsmod's "Used by"), or -ENOENT. */
int module_refcount(const char *name);

/*
 * Loads every module whose alias pattern matches modalias (a device's
 * MODALIAS, as "virtio:d00000002v00001AF4"): 0 if one did or was loaded
 * already, -ENOENT if no pattern matches, or a module's init error.
 */
int request_module(const char *modalias);
bool module_alias_exists(const char *modalias);
/* Makes the aliases (modules.alias); udevd's 80-drivers.rules then load modules for new devices. */
void kmod_init(void);
/* `modprobe -c`: fn for each alias pattern and the module it loads. */
void kmod_for_each_alias(void (*fn)(const char *pattern, const char *module, void *data), void *data);

#endif
