/*
 * module.h: built-in modules that load and unload at run time. A driver file
 * says module_init(fn) and module_exit(fn) as in Linux; the build names the
 * module after the file (KBUILD_MODNAME).
 */
#ifndef KOBOLD_MODULE_H
#define KOBOLD_MODULE_H

#include <kobold/types.h>

struct module_call {
	const char *name;
	int (*init)(void);
	void (*exit)(void);
};

#define module_init(fn)                                                   \
	static const struct module_call __module_init_##fn                \
		__attribute__((used, section("modules"), aligned(4))) = { \
			KBUILD_MODNAME, fn, NULL }
#define module_exit(fn)                                                   \
	static const struct module_call __module_exit_##fn                \
		__attribute__((used, section("modules"), aligned(4))) = { \
			KBUILD_MODNAME, NULL, fn }
#define MODULE_DESCRIPTION(text)
#define MODULE_VERSION(text)

/* Loads every built-in module, in link order, as the kernel finishes booting. */
void load_builtin_modules(void);
/* modprobe: 0, or -ENOENT (no such module) or the init function's error. */
int module_load(const char *name, int argc, char **argv);
/* rmmod: 0, -ENOENT (not loaded) or -EBUSY (no exit function). */
int module_unload(const char *name);
bool module_is_loaded(const char *name);

#endif
