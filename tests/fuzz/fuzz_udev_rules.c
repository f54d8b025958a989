/*
 * fuzz_udev_rules.c: libFuzzer target for udev's rules (udev/): any
 * bytes parsed as a rules file and applied to an event on a small fake
 * device; nothing crashes, the counts stay bounded, and every byte is freed.
 */
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/udev.h>

#include <stdint.h>
#include <stdlib.h>

#include "udev_fuzz.h"

static int fz_parent(void *ctx, const char *devpath, char *buf, size_t size)
{
	if (strcmp(devpath, "/class/block/vda1") != 0)
		return -ENOENT;
	strscpy(buf, "/class/block/vda", size);
	return 0;
}

static int fz_property(void *ctx, const char *devpath, enum udev_property what, char *buf,
		       size_t size)
{
	strscpy(buf, what == UDEV_PROP_SUBSYSTEM ? "block" : "", size);
	return 0;
}

static int fz_attr_read(void *ctx, const char *devpath, const char *attr, char *buf, size_t size)
{
	if (strcmp(attr, "serial") != 0)
		return -ENOENT;
	strscpy(buf, "fuzz-serial \n", size);
	return 0;
}

static int fz_attr_write(void *ctx, const char *devpath, const char *attr, const char *value)
{
	if (strlen(value) >= UDEV_VALUE_MAX)
		abort();
	return 0;
}

static int fz_builtin(void *ctx, struct udev_event *ev, const char *name)
{
	return udev_event_setenv(ev, "ID_PATH", name);
}

static const struct udev_device_ops fz_ops = {
	.parent = fz_parent,
	.property = fz_property,
	.attr_read = fz_attr_read,
	.attr_write = fz_attr_write,
	.import_builtin = fz_builtin,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *envp[] = { "ACTION=add", "DEVPATH=/class/block/vda1", "SUBSYSTEM=block",
				"MAJOR=253", "MINOR=1", NULL };
	struct kmem_stats before;
	struct udev_rules rules;
	struct udev_event ev;

	kmem_get_stats(&before);
	fz_parse_rules(&rules, (const char *)data, size);
	if (udev_event_init(&ev, &fz_ops, NULL, envp) || udev_rules_apply(&rules, &ev))
		abort();
	fz_check_and_free(&rules, &ev, &before);
	return 0;
}
