/*
 * file.c: attribute files, as 2.6's sysfs served them. The first read of an
 * open file calls the kobject type's show() once, into a zeroed page, and
 * reads are served from that snapshot by offset; a write calls store() with
 * a NUL-terminated copy (at most a page minus one byte) and makes the next
 * read call show() again. An open file pins the attribute's module and
 * holds its kobject, so the object outlives its unregistration until close.
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/module.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "sysfs.h"

/* 2.6's struct sysfs_buffer, with the file's position. */
struct sysfs_open_file {
	struct sysfs_dirent *sd;
	struct kobject *kobj;
	const struct attribute *attr;
	struct module *owner; /* pinned from open to close */
	char *page;	      /* show()'s snapshot, or the last write */
	size_t count;	      /* bytes of snapshot */
	size_t pos;
	bool needs_read_fill;
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
	int err;

	mutex_lock(&sysfs_mutex);
	err = sysfs_add_file(sysfs_kobj_dir(kobj), kobj, attr);
	mutex_unlock(&sysfs_mutex);
	return err;
}

void sysfs_remove_file(struct kobject *kobj, const struct attribute *attr)
{
	mutex_lock(&sysfs_mutex);
	sysfs_remove_child(sysfs_kobj_dir(kobj), attr->name, SYSFS_KOBJ_ATTR);
	mutex_unlock(&sysfs_mutex);
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

static void __sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp)
{
	if (grp->name)
		sysfs_remove_child(sysfs_kobj_dir(kobj), grp->name, SYSFS_DIR);
	else
		remove_group_files(kobj, grp);
}

static int __sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp)
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
	__sysfs_remove_group(kobj, grp);
	return err;
}

int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp)
{
	int err;

	mutex_lock(&sysfs_mutex);
	err = __sysfs_create_group(kobj, grp);
	mutex_unlock(&sysfs_mutex);
	return err;
}

void sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp)
{
	mutex_lock(&sysfs_mutex);
	__sysfs_remove_group(kobj, grp);
	mutex_unlock(&sysfs_mutex);
}

/* Under sysfs_mutex: a node not removed still has its kobject, which we hold. */
static int open_pin(struct sysfs_dirent *sd, struct sysfs_open_file *of)
{
	if (sd->flags & SYSFS_FLAG_REMOVED)
		return -ENODEV;
	of->owner = sd->attr.attr->owner;
	if (!try_module_get(of->owner)) /* its module is going away */
		return -ENODEV;
	of->sd = sysfs_get(sd);
	of->kobj = kobject_get(sd->attr.kobj);
	of->attr = sd->attr.attr;
	return 0;
}

static const struct sysfs_ops *open_file_ops(struct sysfs_open_file *of)
{
	struct kobj_type *t = get_ktype(of->kobj);

	return t ? t->sysfs_ops : NULL;
}

int sysfs_check_perm(struct sysfs_open_file *of, int flags)
{
	const struct sysfs_ops *ops = open_file_ops(of);

	if ((flags & SYSFS_OPEN_WRITE) && (!(of->sd->mode & S_IWUGO) || !ops || !ops->store))
		return -EACCES;
	if ((flags & SYSFS_OPEN_READ) && (!(of->sd->mode & S_IRUGO) || !ops || !ops->show))
		return -EACCES;
	return 0;
}

int sysfs_open(struct sysfs_dirent *sd, int flags, struct sysfs_open_file **out)
{
	struct sysfs_open_file *of;
	int err;

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
	mutex_lock(&sysfs_mutex);
	err = open_pin(sd, of);
	mutex_unlock(&sysfs_mutex);
	if (err) {
		kfree(of);
		return err;
	}
	of->needs_read_fill = true;
	err = sysfs_check_perm(of, flags);
	if (err) {
		sysfs_close(of);
		return err;
	}
	*out = of;
	return 0;
}

static int get_page(struct sysfs_open_file *of)
{
	if (!of->page)
		of->page = kmalloc(SYSFS_PAGE_SIZE);
	return of->page ? 0 : -ENOMEM;
}

/* Calls show() once into the page; the file's reads come from it. */
static int fill_read_buffer(struct sysfs_open_file *of, const struct sysfs_ops *ops)
{
	ssize_t n;

	if (get_page(of))
		return -ENOMEM;
	memset(of->page, 0, SYSFS_PAGE_SIZE);
	n = ops->show(of->kobj, (struct attribute *)of->attr, of->page);
	if (n < 0)
		return (int)n;
	if (n > SYSFS_PAGE_SIZE) {
		pr_warn("sysfs: %s: show returned %ld, more than a page\n",
			of->attr->name, (long)n);
		n = SYSFS_PAGE_SIZE;
	}
	of->count = (size_t)n;
	of->needs_read_fill = false;
	return 0;
}

ssize_t sysfs_read(struct sysfs_open_file *of, char *buf, size_t size)
{
	const struct sysfs_ops *ops = open_file_ops(of);
	size_t n;
	int err;

	if (of->sd->flags & SYSFS_FLAG_REMOVED)
		return -ENODEV;
	if (!(of->sd->mode & S_IRUGO) || !ops || !ops->show)
		return -EACCES;
	if (of->needs_read_fill && (err = fill_read_buffer(of, ops)))
		return err;
	n = of->pos < of->count ? min(size, of->count - of->pos) : 0;
	memcpy(buf, of->page + of->pos, n);
	of->pos += n;
	return (ssize_t)n;
}

ssize_t sysfs_write(struct sysfs_open_file *of, const char *buf, size_t len)
{
	const struct sysfs_ops *ops = open_file_ops(of);
	ssize_t n;

	if (of->sd->flags & SYSFS_FLAG_REMOVED)
		return -ENODEV;
	if (!(of->sd->mode & S_IWUGO) || !ops || !ops->store)
		return -EACCES;
	if (get_page(of))
		return -ENOMEM;
	len = min(len, (size_t)SYSFS_PAGE_SIZE - 1); /* 2.6: the rest is the caller's to retry */
	memcpy(of->page, buf, len);
	of->page[len] = '\0';
	of->needs_read_fill = true;
	n = ops->store(of->kobj, (struct attribute *)of->attr, of->page, len);
	if (n > (ssize_t)len) {
		pr_warn("sysfs: %s: store returned %ld for %zu bytes\n", of->attr->name,
			(long)n, len);
		n = (ssize_t)len;
	}
	if (n > 0)
		of->pos += (size_t)n;
	return n;
}

void sysfs_close(struct sysfs_open_file *of)
{
	if (!of)
		return;
	kobject_put(of->kobj); /* may run a release in the owner: put the module after */
	module_put(of->owner);
	sysfs_put(of->sd);
	kfree(of->page);
	kfree(of);
}

struct sysfs_dirent *sysfs_open_file_dirent(struct sysfs_open_file *of)
{
	return of->sd;
}

int sysfs_emit(char *buf, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, SYSFS_PAGE_SIZE, fmt, ap);
	va_end(ap);
	return n;
}

/* Linux warns on an at outside the page; Kobold too, and writes nothing. */
int sysfs_emit_at(char *buf, int at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (WARN(at < 0 || at >= SYSFS_PAGE_SIZE, "sysfs_emit_at: invalid offset %d", at))
		return 0;
	va_start(ap, fmt);
	n = vscnprintf(buf + at, (size_t)(SYSFS_PAGE_SIZE - at), fmt, ap);
	va_end(ap);
	return n;
}

int sysfs_read_uevent(struct sysfs_dirent *sd, char *buf, size_t size)
{
	struct kobject *kobj;
	char *page;
	ssize_t n;

	if (sd->type != SYSFS_KOBJ_ATTR || (sd->flags & SYSFS_FLAG_REMOVED) || !size)
		return -ENODEV;
	page = kzalloc(SYSFS_PAGE_SIZE);
	if (!page)
		return -ENOMEM;
	kobj = kobject_get(sd->attr.kobj);
	n = kobject_uevent_show(kobj, page);
	kobject_put(kobj);
	if (n >= 0)
		strscpy(buf, page, size);
	kfree(page);
	return n < 0 ? (int)n : 0;
}
