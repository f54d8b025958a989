/*
 * params.c: the kernel command line. QEMU's -append and GRUB both put the
 * kernel's file name first; words of the form name=value or module.name=value
 * set the options that the code declares with core_param/module_param.
 */
#include <kobold/errno.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define CMDLINE_SIZE 1024
#define PARAM_VALUE 128

static char cmdline_buf[CMDLINE_SIZE];
static char defaults[64][PARAM_VALUE]; /* each option's value before any setting */

static int set_int(const char *val, const struct kernel_param *kp)
{
	return kstrtoint(val, 0, kp->arg);
}

static int get_int(char *buf, size_t size, const struct kernel_param *kp)
{
	return scnprintf(buf, size, "%d", *(int *)kp->arg);
}

static int set_uint(const char *val, const struct kernel_param *kp)
{
	return kstrtouint(val, 0, kp->arg);
}

static int get_uint(char *buf, size_t size, const struct kernel_param *kp)
{
	return scnprintf(buf, size, "%u", *(unsigned int *)kp->arg);
}

static int set_bool(const char *val, const struct kernel_param *kp)
{
	return kstrtobool(val ? val : "1", kp->arg);
}

static int get_bool(char *buf, size_t size, const struct kernel_param *kp)
{
	return scnprintf(buf, size, "%c", *(bool *)kp->arg ? 'Y' : 'N');
}

/* Each charp option owns one slot, found by its place in the table: never freed. */
static char charp_store[ARRAY_SIZE(defaults)][PARAM_VALUE];

static int set_charp(const char *val, const struct kernel_param *kp)
{
	size_t i = (size_t)(kp - __start_kernel_params);

	if (i >= ARRAY_SIZE(charp_store))
		return -ENOSPC;
	if (strscpy(charp_store[i], val, PARAM_VALUE) < 0)
		return -ENOSPC;
	*(const char **)kp->arg = charp_store[i];
	return 0;
}

static int get_charp(char *buf, size_t size, const struct kernel_param *kp)
{
	const char *s = *(const char **)kp->arg;

	return scnprintf(buf, size, "%s", s ? s : "");
}

const struct kernel_param_ops param_ops_int = { set_int, get_int };
const struct kernel_param_ops param_ops_uint = { set_uint, get_uint };
const struct kernel_param_ops param_ops_bool = { set_bool, get_bool };
const struct kernel_param_ops param_ops_charp = { set_charp, get_charp };

static bool same_module(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

const struct kernel_param *param_find(const char *module, const char *name)
{
	for (const struct kernel_param *kp = __start_kernel_params; kp < __stop_kernel_params; kp++)
		if (same_module(kp->module, module) && strcmp(kp->name, name) == 0)
			return kp;
	return NULL;
}

/* Splits "mod.name=value" in place; returns the param or NULL. */
static const struct kernel_param *parse_word(char *word, char **value)
{
	char *eq = strchr(word, '='), *dot;

	*value = eq ? eq + 1 : NULL;
	if (eq)
		*eq = '\0';
	dot = strchr(word, '.');
	if (dot) {
		const struct kernel_param *kp;

		*dot = '\0';
		kp = param_find(word, dot + 1);
		*dot = '.';
		return kp;
	}
	return param_find(NULL, word);
}

static int set_param(const struct kernel_param *kp, const char *value)
{
	if (!value && kp->ops != &param_ops_bool)
		return -EINVAL;
	return kp->ops->set(value, kp);
}

/* Calls fn for each blank-separated word of s, honouring double quotes. */
static void for_each_word(const char *s, void (*fn)(char *word, void *arg), void *arg)
{
	char word[PARAM_VALUE * 2];

	while (*s) {
		size_t n = 0;
		bool quoted = false;

		while (*s == ' ')
			s++;
		for (; *s && (quoted || *s != ' '); s++) {
			if (*s == '"')
				quoted = !quoted;
			else if (n + 1 < sizeof(word))
				word[n++] = *s;
		}
		word[n] = '\0';
		if (n)
			fn(word, arg);
	}
}

static void boot_word(char *word, void *arg)
{
	int *index = arg;
	const struct kernel_param *kp;
	char *value;
	int err;

	if ((*index)++ == 0 && !strchr(word, '='))
		return; /* the kernel's own file name */
	kp = parse_word(word, &value);
	if (!kp) {
		pr_notice("Unknown kernel command line parameter \"%s%s%s\", ignored\n", word,
			  value ? "=" : "", value ? value : "");
		return;
	}
	err = set_param(kp, value);
	if (err)
		pr_warn("%s: bad value \"%s\": %s\n", word, value ? value : "", kstrerror(err));
}

void parse_boot_cmdline(const char *cmdline)
{
	int index = 0, i = 0;

	for (const struct kernel_param *kp = __start_kernel_params;
	     kp < __stop_kernel_params && i < (int)ARRAY_SIZE(defaults); kp++)
		kp->ops->get(defaults[i++], PARAM_VALUE, kp);
	strscpy(cmdline_buf, cmdline ? cmdline : "", sizeof(cmdline_buf));
	for_each_word(cmdline_buf, boot_word, &index);
}

const char *saved_command_line(void) { return cmdline_buf; }

struct boot_module_arg {
	const char *module;
	int err;
};

static void module_boot_word(char *word, void *arg)
{
	struct boot_module_arg *a = arg;
	size_t n = strlen(a->module);
	const struct kernel_param *kp;
	char *value;

	if (strncmp(word, a->module, n) != 0 || word[n] != '.')
		return;
	kp = parse_word(word, &value);
	if (kp && set_param(kp, value) == 0)
		return;
}

int module_params_apply(const char *module, int argc, char **argv)
{
	struct boot_module_arg a = { module, 0 };
	int i = 0;

	for (const struct kernel_param *kp = __start_kernel_params;
	     kp < __stop_kernel_params && i < (int)ARRAY_SIZE(defaults); kp++, i++)
		if (same_module(kp->module, module))
			kp->ops->set(defaults[i], kp);
	for_each_word(cmdline_buf, module_boot_word, &a);
	for (i = 0; i < argc; i++) {
		char word[PARAM_VALUE * 2], *value;
		const struct kernel_param *kp;
		int err;

		strscpy(word, argv[i], sizeof(word));
		value = strchr(word, '=');
		if (value)
			*value++ = '\0';
		kp = param_find(module, word);
		if (!kp) {
			pr_warn("%s: unknown parameter '%s' ignored\n", module, word);
			continue;
		}
		err = set_param(kp, value);
		if (err) {
			pr_err("%s: '%s' invalid for parameter '%s'\n", module,
			       value ? value : "", word);
			return err;
		}
	}
	return 0;
}
