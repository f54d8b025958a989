/*
 * kmod.c: loading a module for a device by its MODALIAS. The aliases are
 * made at boot from each module's MODULE_DEVICE_TABLE, in the patterns
 * Linux's file2alias writes to modules.alias; request_module() loads every
 * module whose pattern matches. udevd calls it for each add event that
 * carries a MODALIAS (the built-in 80-drivers.rules, RUN{builtin}="kmod load").
 */
#include <kobold/errno.h>
#include <kobold/glob.h>
#include <kobold/module.h>
#include <kobold/pci.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/virtio.h>

#define MAX_ALIASES 32
#define ALIAS_LEN 96

extern const struct mod_device_table __start_mod_device_tables[], __stop_mod_device_tables[];

static struct mod_alias {
	const char *module;
	char pattern[ALIAS_LEN];
} aliases[MAX_ALIASES];
static int nr_aliases;

/* "%08X", or "*" for a field that matches anything. */
static void field(char *buf, size_t size, const char *key, u32 v, bool any, int width)
{
	size_t n = strlen(buf);

	if (any)
		scnprintf(buf + n, size - n, "%s*", key);
	else
		scnprintf(buf + n, size - n, "%s%0*X", key, width, v);
}

static void add_alias(const char *module, const char *pattern)
{
	if (WARN(nr_aliases == MAX_ALIASES, "kmod: too many aliases"))
		return;
	aliases[nr_aliases].module = module;
	strscpy(aliases[nr_aliases].pattern, pattern, ALIAS_LEN);
	nr_aliases++;
}

/* virtio:dDEVICEvVENDOR, as file2alias's do_virtio_entry. */
static void virtio_aliases(const char *module, const struct virtio_device_id *id)
{
	char buf[ALIAS_LEN];

	for (; id->device; id++) {
		strscpy(buf, "virtio:", sizeof(buf));
		field(buf, sizeof(buf), "d", id->device, false, 8);
		field(buf, sizeof(buf), "v", id->vendor, id->vendor == VIRTIO_DEV_ANY_ID, 8);
		add_alias(module, buf);
	}
}

/* pci:vVENDORdDEVICEsvSUBVsdSUBDbcBASEscSUBiIF, as file2alias's do_pci_entry. */
static void pci_aliases(const char *module, const struct pci_device_id *id)
{
	char buf[ALIAS_LEN];

	for (; id->vendor || id->class_mask; id++) {
		strscpy(buf, "pci:", sizeof(buf));
		field(buf, sizeof(buf), "v", id->vendor, id->vendor == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "d", id->device, id->device == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "sv", id->subvendor, id->subvendor == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "sd", id->subdevice, id->subdevice == PCI_ANY_ID, 8);
		field(buf, sizeof(buf), "bc", id->class >> 16, !(id->class_mask & 0xff0000), 2);
		field(buf, sizeof(buf), "sc", (id->class >> 8) & 0xff, !(id->class_mask & 0xff00), 2);
		field(buf, sizeof(buf), "i", id->class & 0xff, !(id->class_mask & 0xff), 2);
		add_alias(module, buf);
	}
}

/* modules.alias: every module's device table as patterns. */
static void build_aliases(void)
{
	for (const struct mod_device_table *t = __start_mod_device_tables;
	     t < __stop_mod_device_tables; t++) {
		if (strcmp(t->type, "virtio") == 0)
			virtio_aliases(t->module, t->table);
		else if (strcmp(t->type, "pci") == 0)
			pci_aliases(t->module, t->table);
		else
			pr_warn("kmod: %s: device table of unknown type %s\n", t->module, t->type);
	}
}

int request_module(const char *modalias)
{
	int err = -ENOENT;

	for (int i = 0; i < nr_aliases; i++) {
		if (!glob_match(aliases[i].pattern, modalias))
			continue;
		if (module_is_loaded(aliases[i].module)) {
			err = 0;
			continue;
		}
		err = module_load(aliases[i].module, 0, NULL);
		if (err)
			pr_err("kmod: %s for %s: %s\n", aliases[i].module, modalias, kstrerror(err));
		else
			pr_info("kmod: loaded %s for %s\n", aliases[i].module, modalias);
	}
	return err;
}

bool module_alias_exists(const char *modalias)
{
	for (int i = 0; i < nr_aliases; i++)
		if (glob_match(aliases[i].pattern, modalias))
			return true;
	return false;
}

void kmod_init(void)
{
	build_aliases();
}

void kmod_for_each_alias(void (*fn)(const char *pattern, const char *module, void *data), void *data)
{
	for (int i = 0; i < nr_aliases; i++)
		fn(aliases[i].pattern, aliases[i].module, data);
}
