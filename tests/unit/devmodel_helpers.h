/* devmodel_helpers.h: small sysfs helpers shared by the device-model tests. */
#ifndef TESTS_UNIT_DEVMODEL_HELPERS_H
#define TESTS_UNIT_DEVMODEL_HELPERS_H

#include <kobold/errno.h>
#include <kobold/kobject_uevent.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

/* Read a whole attribute by absolute path into buf (NUL-terminated). */
static inline ssize_t t_cat(const char *path, char *buf, size_t size)
{
	struct sysfs_dirent *sd;
	struct sysfs_open_file *of;
	ssize_t n;
	int err = sysfs_lookup(NULL, path, true, &sd);

	buf[0] = '\0';
	if (err)
		return err;
	err = sysfs_open(sd, 0, &of);
	sysfs_put(sd);
	if (err)
		return err;
	n = sysfs_read(of, buf, size - 1);
	sysfs_close(of);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

/* The keys behind a uevent file (a class device's is write-only), as udev reads them. */
static inline int t_uevent(const char *path, char *buf, size_t size)
{
	struct sysfs_dirent *sd;
	int err = sysfs_lookup(NULL, path, true, &sd);

	buf[0] = '\0';
	if (err)
		return err;
	err = sysfs_read_uevent(sd, buf, size);
	sysfs_put(sd);
	return err;
}

static inline ssize_t t_write_bytes(const char *path, const char *data, size_t len)
{
	struct sysfs_dirent *sd;
	struct sysfs_open_file *of;
	ssize_t n;
	int err = sysfs_lookup(NULL, path, true, &sd);

	if (err)
		return err;
	err = sysfs_open(sd, 0, &of);
	sysfs_put(sd);
	if (err)
		return err;
	n = sysfs_write(of, data, len);
	sysfs_close(of);
	return n;
}

static inline ssize_t t_echo(const char *path, const char *text)
{
	return t_write_bytes(path, text, strlen(text));
}

/* 0 if path names something (not following a final link), else the error. */
static inline int t_lookup(const char *path)
{
	struct sysfs_dirent *sd;
	int err = sysfs_lookup(NULL, path, false, &sd);

	if (!err)
		sysfs_put(sd);
	return err;
}

static inline int t_readlink(const char *path, char *buf, size_t size)
{
	struct sysfs_dirent *sd;
	int err = sysfs_lookup(NULL, path, false, &sd);

	buf[0] = '\0';
	if (err)
		return err;
	err = sysfs_readlink(sd, buf, size);
	sysfs_put(sd);
	return err;
}

/* Records events as "KEY=VALUE|KEY=VALUE|..." strings, through a listener. */
#define T_EVENTS_MAX 16
struct t_events {
	struct hotplug_listener l;
	int n;
	char ev[T_EVENTS_MAX][320];
};

static inline void t_events_fn(struct hotplug_listener *l, const char *action,
			       char **envp)
{
	struct t_events *e = container_of(l, struct t_events, l);
	size_t len = 0;
	int i;

	(void)action;
	if (e->n >= T_EVENTS_MAX)
		return;
	e->ev[e->n][0] = '\0';
	for (i = 0; envp[i]; i++)
		len += (size_t)scnprintf(e->ev[e->n] + len, sizeof(e->ev[0]) - len, "%s|",
					 envp[i]);
	e->n++;
}

static inline void t_events_start(struct t_events *e)
{
	e->n = 0;
	e->l.name = "ktest";
	e->l.event = t_events_fn;
	hotplug_listener_register(&e->l);
}

static inline void t_events_stop(struct t_events *e)
{
	hotplug_listener_unregister(&e->l);
}

/* Does event i contain every |-separated piece of want? */
static inline bool t_event_has(struct t_events *e, int i, const char *want)
{
	return i < e->n && strstr(e->ev[i], want) != NULL;
}

#endif
