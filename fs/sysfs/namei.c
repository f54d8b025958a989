/* namei.c: path lookup in the sysfs tree, for the shell (as Linux's path walk). */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/string.h>

#include "sysfs.h"

struct walk {
	struct sysfs_dirent *cur;
	int links; /* symlinks followed so far, limited as Linux's MAXSYMLINKS */
};

/* Step from w->cur into the component name[0..n). */
static int walk_one(struct walk *w, const char *p, size_t n, bool follow)
{
	char name[SYSFS_NAME_MAX + 1];
	struct sysfs_dirent *next;

	if (!sysfs_is_dir(w->cur))
		return -ENOTDIR;
	if (n == 1 && p[0] == '.')
		return 0;
	if (n == 2 && p[0] == '.' && p[1] == '.') {
		if (w->cur->parent) /* ".." at "/" stays at "/" */
			w->cur = w->cur->parent;
		return 0;
	}
	memcpy(name, p, n);
	name[n] = '\0';
	next = sysfs_find_dirent(w->cur, name);
	if (!next)
		return -ENOENT;
	if (next->type == SYSFS_KOBJ_LINK && follow) {
		if (++w->links > SYSFS_MAXSYMLINKS)
			return -ELOOP;
		next = next->link.target;
		if (next->flags & SYSFS_FLAG_REMOVED)
			return -ENOENT;
	}
	w->cur = next;
	return 0;
}

static int __sysfs_lookup(struct sysfs_dirent *cwd, const char *path, bool follow_last,
			  struct sysfs_dirent **out);

int sysfs_lookup(struct sysfs_dirent *cwd, const char *path, bool follow_last,
		 struct sysfs_dirent **out)
{
	int err;

	mutex_lock(&sysfs_mutex);
	err = __sysfs_lookup(cwd, path, follow_last, out);
	mutex_unlock(&sysfs_mutex);
	return err;
}

static int __sysfs_lookup(struct sysfs_dirent *cwd, const char *path, bool follow_last,
			  struct sysfs_dirent **out)
{
	struct walk w = { .cur = cwd ? cwd : &sysfs_root_sd };
	size_t len = path ? strnlen(path, SYSFS_PATH_MAX) : 0;
	const char *p = path;
	bool trailing_slash;
	int err;

	*out = NULL;
	if (len == 0)
		return -ENOENT;
	if (len >= SYSFS_PATH_MAX)
		return -ENAMETOOLONG;
	if (*p == '/')
		w.cur = &sysfs_root_sd;
	trailing_slash = path[len - 1] == '/';
	for (;;) {
		const char *end, *rest;
		bool last;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		end = strchr(p, '/');
		if (!end)
			end = p + strlen(p);
		if (end - p > SYSFS_NAME_MAX)
			return -ENAMETOOLONG;
		for (rest = end; *rest == '/'; rest++)
			;
		last = !*rest;
		err = walk_one(&w, p, (size_t)(end - p),
			       !last || follow_last || trailing_slash);
		if (err)
			return err;
		p = end;
	}
	if (trailing_slash && !sysfs_is_dir(w.cur))
		return -ENOTDIR;
	*out = sysfs_get(w.cur);
	return 0;
}
