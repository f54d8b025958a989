/*
 * symlink.c: links between kobject directories. A link holds its target node,
 * and readlink computes the relative path at each call, as Linux 2.6 does
 * ("../../../devices/pci0000:00/0000:00:04.0").
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/string.h>

#include "sysfs.h"

int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name)
{
	struct sysfs_dirent *dir = sysfs_kobj_dir(kobj), *sd;
	int err;

	if (!dir || !target || !target->sd)
		return -ENOENT;
	if (!name || !*name || strchr(name, '/'))
		return -EINVAL;
	sd = sysfs_new_dirent(name, SYSFS_KOBJ_LINK, S_IRWXUGO);
	if (!sd)
		return -ENOMEM;
	sd->link.target = sysfs_get(target->sd);
	mutex_lock(&sysfs_mutex);
	err = sysfs_add_dirent(dir, sd);
	mutex_unlock(&sysfs_mutex);
	if (err)
		sysfs_put(sd);
	return err;
}

void sysfs_remove_link(struct kobject *kobj, const char *name)
{
	mutex_lock(&sysfs_mutex);
	sysfs_remove_child(sysfs_kobj_dir(kobj), name, SYSFS_KOBJ_LINK);
	mutex_unlock(&sysfs_mutex);
}

static int depth(const struct sysfs_dirent *sd)
{
	int d = 0;

	for (; sd->parent; sd = sd->parent)
		d++;
	return d;
}

/* Write the path from ancestor "from" down to sd at buf; returns length or -ENAMETOOLONG. */
static int path_below(struct sysfs_dirent *from, struct sysfs_dirent *sd,
		      char *buf, size_t size)
{
	size_t len = 0, n;
	struct sysfs_dirent *p;

	for (p = sd; p != from; p = p->parent)
		len += strlen(p->name) + 1;
	if (len >= size)
		return -ENAMETOOLONG;
	buf[len] = '\0';
	for (p = sd, n = len; p != from; p = p->parent) {
		size_t l = strlen(p->name);

		n -= l;
		memcpy(buf + n, p->name, l);
		buf[--n] = '/';
	}
	return (int)len;
}

int sysfs_readlink(struct sysfs_dirent *sd, char *buf, size_t size)
{
	struct sysfs_dirent *from, *to, *common;
	int df, dt, ups, len;
	size_t pos = 0;

	if (sd->type != SYSFS_KOBJ_LINK)
		return -EINVAL;
	from = sd->parent;
	to = sd->link.target;
	df = depth(from);
	dt = depth(to);
	common = from;
	for (; df > dt; df--)
		common = common->parent;
	for (; dt > df; dt--)
		to = to->parent;
	while (common != to) {
		common = common->parent;
		to = to->parent;
	}
	/* a link to an ancestor names it from one level higher: "../../b" */
	if (common == sd->link.target && common->parent)
		common = common->parent;
	for (ups = depth(from) - depth(common); ups > 0; ups--) {
		if (pos + 3 >= size)
			return -ENAMETOOLONG;
		memcpy(buf + pos, "../", 3);
		pos += 3;
	}
	len = path_below(common, sd->link.target, buf + pos, size - pos);
	if (len < 0)
		return len;
	/* path_below starts with "/": drop it after the "../"s */
	memmove(buf + pos, buf + pos + 1, (size_t)len);
	return (int)pos + len - 1;
}

int sysfs_path(struct sysfs_dirent *sd, char *buf, size_t size)
{
	if (sd->type == SYSFS_ROOT) {
		if (size < 2)
			return -ENAMETOOLONG;
		strscpy(buf, "/", size);
		return 1;
	}
	return path_below(&sysfs_root_sd, sd, buf, size);
}
