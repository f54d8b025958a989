/*
 * param.h: options declared next to the code that uses them, set from the
 * kernel command line ("loglevel=4", "sbd.nr=2") or by modprobe ("nr=2").
 */
#ifndef KOBOLD_PARAM_H
#define KOBOLD_PARAM_H

#include <kobold/types.h>

struct kernel_param;

struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buf, size_t size, const struct kernel_param *kp);
};

struct kernel_param {
	const char *module; /* NULL for the kernel's own (core) options */
	const char *name;
	const struct kernel_param_ops *ops;
	void *arg;
	const char *help;
};

extern const struct kernel_param_ops param_ops_int, param_ops_uint, param_ops_bool,
	param_ops_charp;
/* module_param(x, bool, ...): stdbool's bool has become _Bool by the time it is pasted. */
#define param_ops__Bool param_ops_bool

#define __param(mod, pname, var, type, desc)                                    \
	static const struct kernel_param __param_##pname                        \
		__attribute__((used, section("kernel_params"), aligned(4))) = { \
			mod, #pname, &param_ops_##type, &(var), desc            \
		}

/* A kernel option without a module prefix ("loglevel="). */
#define core_param(pname, var, type, desc) __param(NULL, pname, var, type, desc)
/* A module option: "MODULE.pname=" on the command line, "pname=" to modprobe. */
#define module_param_named(pname, var, type, desc) \
	__param(KBUILD_MODNAME, pname, var, type, desc)
#define module_param(var, type, desc) module_param_named(var, var, type, desc)

extern const struct kernel_param __start_kernel_params[], __stop_kernel_params[];

/* Copies the boot command line and applies the options in it. */
void parse_boot_cmdline(const char *cmdline);
const char *saved_command_line(void);
/*
 * Reset a module's options to their defaults, then apply "MODULE.x=" from
 * the boot command line and the "x=val" arguments given (modprobe's).
 */
int module_params_apply(const char *module, int argc, char **argv);
const struct kernel_param *param_find(const char *module, const char *name);

#endif
