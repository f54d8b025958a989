/*
 * fuzz_udev_events.c: libFuzzer target for udev's rule engine (udev/): random
 * rules against random events. The input's first line describes the event
 * (words: action, kernel name, subsystem, DEVTYPE, then attribute values),
 * the rest is the rules file. Each event must be handled within a bounded
 * time, with the results bounded and every byte freed.
 */
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/udev.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "udev_fuzz.h"

#define EVENT_SECONDS_MAX 1.0 /* one event through at most UDEV_RULES_MAX rules */
#define WORDS 8

struct fz_event {
	char *word[WORDS]; /* action, kernel, subsystem, devtype, attr values... */
	int nr;
	char devpath[96], parent[96];
};

static int fz_parent(void *ctx, const char *devpath, char *buf, size_t size)
{
	struct fz_event *e = ctx;

	if (strcmp(devpath, e->devpath) != 0)
		return -ENOENT; /* the parent is the top */
	strscpy(buf, e->parent, size);
	return 0;
}

static int fz_property(void *ctx, const char *devpath, enum udev_property what, char *buf,
		       size_t size)
{
	struct fz_event *e = ctx;

	if (what == UDEV_PROP_DRIVER)
		strscpy(buf, strcmp(devpath, e->parent) == 0 ? "virtio-pci" : "", size);
	else
		strscpy(buf, strcmp(devpath, e->parent) == 0 ? "pci" : e->word[2], size);
	return 0;
}

/* Attribute "aN" is the event's word 4+N; others do not exist. */
static int fz_attr_read(void *ctx, const char *devpath, const char *attr, char *buf, size_t size)
{
	struct fz_event *e = ctx;
	int n = attr[0] == 'a' && attr[1] >= '0' && attr[1] <= '3' && !attr[2] ? attr[1] - '0' : -1;

	if (n < 0 || 4 + n >= e->nr)
		return -ENOENT;
	strscpy(buf, e->word[4 + n], size);
	return 0;
}

static int fz_attr_write(void *ctx, const char *devpath, const char *attr, const char *value)
{
	if (strlen(value) >= UDEV_VALUE_MAX)
		abort();
	return strcmp(attr, "ro") == 0 ? -EACCES : 0; /* a read-only attribute */
}

static int fz_builtin(void *ctx, struct udev_event *ev, const char *name)
{
	return udev_event_setenv(ev, "ID_PATH", name);
}

static void fz_trace(void *ctx, const char *line)
{
	if (strlen(line) > UDEV_VALUE_MAX * 2 + 128)
		abort();
}

static const struct udev_device_ops fz_ops = {
	.parent = fz_parent,
	.property = fz_property,
	.attr_read = fz_attr_read,
	.attr_write = fz_attr_write,
	.import_builtin = fz_builtin,
	.trace = fz_trace,
};

/* The first line's words, cut in place; defaults for the missing ones. */
static size_t parse_event(char *text, size_t size, struct fz_event *e)
{
	static char *defaults[] = { "add", "vda", "block", "disk" };
	size_t end = 0;
	char *p = text;

	while (end < size && text[end] != '\n')
		end++;
	text[end < size ? end : size - 1] = '\0';
	for (e->nr = 0; e->nr < WORDS; e->nr++) {
		while (*p == ' ')
			p++;
		if (!*p)
			break;
		e->word[e->nr] = p;
		while (*p && *p != ' ')
			p++;
		if (*p)
			*p++ = '\0';
	}
	for (int i = e->nr; i < 4; i++)
		e->word[i] = defaults[i];
	if (e->nr < 4)
		e->nr = 4;
	snprintf(e->parent, sizeof(e->parent), "/devices/pci0000:00/0000:00:04.0");
	snprintf(e->devpath, sizeof(e->devpath), "/class/%.20s/%.40s", e->word[2], e->word[1]);
	return end < size ? end + 1 : size;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *copy = malloc(size + 1), action[64], devpath[128], subsys[64], devtype[64];
	char *envp[] = { action, devpath, subsys, devtype, "MAJOR=253", "MINOR=1", NULL };
	struct kmem_stats before;
	struct udev_rules rules;
	struct udev_event ev;
	struct fz_event e;
	size_t off;
	double t0;

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = '\0';
	off = parse_event(copy, size + 1, &e);
	snprintf(action, sizeof(action), "ACTION=%.40s", e.word[0]);
	snprintf(devpath, sizeof(devpath), "DEVPATH=%s", e.devpath);
	snprintf(subsys, sizeof(subsys), "SUBSYSTEM=%.40s", e.word[2]);
	snprintf(devtype, sizeof(devtype), "DEVTYPE=%.40s", e.word[3]);
	kmem_get_stats(&before);
	fz_parse_rules(&rules, (const char *)data + off, off < size ? size - off : 0);
	t0 = now();
	if (udev_event_init(&ev, &fz_ops, &e, envp) || udev_rules_apply(&rules, &ev))
		abort();
	if (now() - t0 > EVENT_SECONDS_MAX)
		abort(); /* an event that takes this long hangs udevd */
	fz_check_and_free(&rules, &ev, &before);
	free(copy);
	return 0;
}
