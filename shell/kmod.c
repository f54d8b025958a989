/*
 * kmod.c: lsmod, modprobe and rmmod, the commands of kmod's tool suite, on
 * the module table (kernel/module.c) and its aliases (kernel/kmod.c).
 */
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/shell.h>
#include <kobold/string.h>

static void print_module(const struct module *mod, u32 size, void *data)
{
	sh_printf("%-19s %8u  %d\n", mod->name, size, mod->refcnt);
}

static int cmd_lsmod(int argc, char **argv)
{
	sh_printf("Module                  Size  Used by\n");
	module_for_each_loaded(print_module, NULL);
	return 0;
}
SHELL_COMMAND("lsmod", "", "list the loaded modules", cmd_lsmod);

static void print_alias(const char *pattern, const char *module, void *data)
{
	sh_printf("alias %s %s\n", pattern, module);
}

static int cmd_modprobe(int argc, char **argv)
{
	int err;

	if (argc < 2) {
		sh_err("modprobe: ERROR: missing module name.\n");
		return 1;
	}
	if (argc == 2 && strcmp(argv[1], "-c") == 0) {
		kmod_for_each_alias(print_alias, NULL);
		return 0;
	}
	if (!module_exists(argv[1]) && module_alias_exists(argv[1]))
		err = request_module(argv[1]); /* kmod takes an alias for a name */
	else
		err = module_load(argv[1], argc - 2, argv + 2);
	if (err == -ENOENT && !module_exists(argv[1])) {
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
