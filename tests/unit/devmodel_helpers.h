/* devmodel_helpers.h: small sysfs helpers shared by the device-model tests. */
#ifndef TESTS_UNIT_DEVMODEL_HELPERS_H
#define TESTS_UNIT_DEVMODEL_HELPERS_H

#include <kobold/errno.h>
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

static inline ssize_t t_echo(const char *path, const char *text)
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
	n = sysfs_write(of, text, strlen(text));
	sysfs_close(of);
	return n;
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

#endif
