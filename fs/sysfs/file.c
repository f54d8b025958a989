/*
 * file.c: attribute files. Reads call the kobject type's show() with a fresh
 * zeroed page; writes call store() with a NUL-terminated copy. An open file
 * holds its kobject, so the object outlives its unregistration until close.
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "sysfs.h"

struct sysfs_open_file {
	struct sysfs_dirent *sd;
	struct kobject *kobj;
	const struct attribute *attr;
};

static int sysfs_add_file(struct sysfs_dirent *dir, struct kobject *kobj,
			  const struct attribute *attr)
{
	struct sysfs_dirent *sd;
	int err;

	if (!dir)
		return -ENOENT;
	if (!attr->name || !*attr->name || strchr(attr->name, '/'))
		return -EINVAL;
	sd = sysfs_new_dirent(attr->name, SYSFS_KOBJ_ATTR, attr->mode & S_IRWXUGO);
	if (!sd)
		return -ENOMEM;
	sd->attr.kobj = kobj;
	sd->attr.attr = attr;
	err = sysfs_add_dirent(dir, sd);
	if (err)
		sysfs_put(sd);
	return err;
}

int sysfs_create_file(struct kobject *kobj, const struct attribute *attr)
{
	return sysfs_add_file(sysfs_kobj_dir(kobj), kobj, attr);
}

void sysfs_remove_file(struct kobject *kobj, const struct attribute *attr)
{
	sysfs_remove_child(sysfs_kobj_dir(kobj), attr->name, SYSFS_KOBJ_ATTR);
}

static struct sysfs_dirent *group_dir(struct kobject *kobj,
				      const struct attribute_group *grp)
{
	struct sysfs_dirent *dir = sysfs_kobj_dir(kobj);

	if (dir && grp->name)
		dir = sysfs_find_dirent(dir, grp->name);
	return dir;
}

static void remove_group_files(struct kobject *kobj, const struct attribute_group *grp)
{
	struct sysfs_dirent *dir = group_dir(kobj, grp);
	struct attribute **a;

	for (a = grp->attrs; dir && *a; a++)
		sysfs_remove_child(dir, (*a)->name, SYSFS_KOBJ_ATTR);
}

static int make_group_dir(struct kobject *kobj, const char *name)
{
	struct sysfs_dirent *sd;
	int err;

	if (!kobj->sd)
		return -ENOENT;
	sd = sysfs_new_dirent(name, SYSFS_DIR, S_IRWXUGO & ~S_IWUGO);
	if (!sd)
		return -ENOMEM;
	sd->dir.kobj = kobj;
	err = sysfs_add_dirent(kobj->sd, sd);
	if (err)
		sysfs_put(sd);
	return err;
}

int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp)
{
	struct attribute **a;
	int err;

	if (grp->name) {
		err = make_group_dir(kobj, grp->name);
		if (err)
			return err;
	}
	for (a = grp->attrs; *a; a++) {
		err = sysfs_add_file(group_dir(kobj, grp), kobj, *a);
		if (err)
			goto out_remove;
	}
	return 0;

out_remove:
	sysfs_remove_group(kobj, grp);
	return err;
}

void sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp)
{
	if (grp->name)
		sysfs_remove_child(sysfs_kobj_dir(kobj), grp->name, SYSFS_DIR);
	else
		remove_group_files(kobj, grp);
}

int sysfs_open(struct sysfs_dirent *sd, int flags __unused, struct sysfs_open_file **out)
{
	struct sysfs_open_file *of;

	*out = NULL;
	if (sysfs_is_dir(sd))
		return -EISDIR;
	if (sd->type != SYSFS_KOBJ_ATTR)
		return -EINVAL;
	if (sd->flags & SYSFS_FLAG_REMOVED)
		return -ENODEV;
	of = kzalloc(sizeof(*of));
	if (!of)
		return -ENOMEM;
	of->sd = sysfs_get(sd);
	of->kobj = kobject_get(sd->attr.kobj);
	of->attr = sd->attr.attr;
	*out = of;
	return 0;
}

static const struct sysfs_ops *open_file_ops(struct sysfs_open_file *of)
{
	struct kobj_type *t = get_ktype(of->kobj);

	return t ? t->sysfs_ops : NULL;
}

ssize_t sysfs_read(struct sysfs_open_file *of, char *buf, size_t size)
{
	const struct sysfs_ops *ops = open_file_ops(of);
	char *page;
	ssize_t n;

	if (of->sd->flags & SYSFS_FLAG_REMOVED)
		return -ENODEV;
	if (!(of->sd->mode & S_IRUGO) || !ops || !ops->show)
		return -EACCES;
	page = kzalloc(SYSFS_PAGE_SIZE);
	if (!page)
		return -ENOMEM;
	n = ops->show(of->kobj, (struct attribute *)of->attr, page);
	if (n > SYSFS_PAGE_SIZE) {
		pr_warn("sysfs: %s: show returned %ld, more than a page\n",
			of->attr->name, (long)n);
		n = SYSFS_PAGE_SIZE;
	}
	if (n > 0) {
		n = min((size_t)n, size);
		memcpy(buf, page, (size_t)n);
	}
	kfree(page);
	return n;
}

ssize_t sysfs_write(struct sysfs_open_file *of, const char *buf, size_t len)
{
	const struct sysfs_ops *ops = open_file_ops(of);
	char *page;
	ssize_t n;

	if (of->sd->flags & SYSFS_FLAG_REMOVED)
		return -ENODEV;
	if (!(of->sd->mode & S_IWUGO) || !ops || !ops->store)
		return -EACCES;
	if (len > SYSFS_PAGE_SIZE - 1)
		return -EINVAL;
	page = kzalloc(SYSFS_PAGE_SIZE);
	if (!page)
		return -ENOMEM;
	memcpy(page, buf, len);
	n = ops->store(of->kobj, (struct attribute *)of->attr, page, len);
	kfree(page);
	return n;
}

void sysfs_close(struct sysfs_open_file *of)
{
	if (!of)
		return;
	kobject_put(of->kobj);
	sysfs_put(of->sd);
	kfree(of);
}

struct sysfs_dirent *sysfs_open_file_dirent(struct sysfs_open_file *of)
{
	return of->sd;
}
