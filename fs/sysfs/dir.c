/*
 * dir.c: sysfs nodes and directories. Each directory keeps its children in a
 * red-black tree by name, so lookup and insertion stay O(log n) in the
 * 100,000-entry directories the benchmark makes.
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/preempt_inject.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "sysfs.h"

static unsigned long name_compares;

unsigned long sysfs_name_compares(void)
{
	return name_compares;
}

static int compare_name(const char *name, const struct sysfs_dirent *sd)
{
	name_compares++;
	return strcmp(name, sd->name);
}

DEFINE_MUTEX(sysfs_mutex);

struct sysfs_dirent *sysfs_get(struct sysfs_dirent *sd)
{
	/* "/" is static: it is not counted */
	if (sd && sd->type != SYSFS_ROOT) {
		WARN_ON(atomic_read(&sd->count) <= 0);
		atomic_inc(&sd->count);
	}
	return sd;
}

static void sysfs_free(struct sysfs_dirent *sd)
{
	if (sd->type == SYSFS_KOBJ_LINK)
		sysfs_put(sd->link.target);
	kfree(sd->name);
	kfree(sd);
}

/* Freeing a node drops its reference on the parent: walk up, not recurse. */
void sysfs_put(struct sysfs_dirent *sd)
{
	while (sd && sd->type != SYSFS_ROOT) {
		struct sysfs_dirent *parent = sd->parent;

		if (WARN(atomic_read(&sd->count) <= 0, "sysfs: put on freed node '%s'", sd->name))
			return;
		if (!atomic_dec_and_test(&sd->count))
			return; /* a linked node keeps the tree's count: only unlinked ones are freed */
		sysfs_free(sd);
		sd = parent;
	}
}

struct sysfs_dirent *sysfs_new_dirent(const char *name, int type, umode_t mode)
{
	struct sysfs_dirent *sd = kzalloc(sizeof(*sd));

	if (!sd)
		return NULL;
	sd->name = kstrdup(name);
	if (!sd->name) {
		kfree(sd);
		return NULL;
	}
	atomic_set(&sd->count, 1); /* the tree's reference, taken over by sysfs_add_dirent */
	sd->type = type;
	sd->mode = mode;
	return sd;
}

/* Link sd under parent in name order; -EEXIST if the name is taken. */
int sysfs_add_dirent(struct sysfs_dirent *parent, struct sysfs_dirent *sd)
{
	struct rb_node **link = &parent->dir.children.rb_node, *up = NULL;

	if (parent->flags & SYSFS_FLAG_REMOVED)
		return -ENOENT;
	while (*link) {
		int c = compare_name(sd->name, rb_entry(*link, struct sysfs_dirent, node));

		up = *link;
		if (c == 0)
			return -EEXIST;
		link = c < 0 ? &(*link)->left : &(*link)->right;
	}
	rb_link_node(&sd->node, up, link);
	rb_insert_color(&sd->node, &parent->dir.children);
	sd->parent = sysfs_get(parent);
	return 0;
}

/* The live child called name, not counted; NULL if none. */
struct sysfs_dirent *sysfs_find_dirent(struct sysfs_dirent *dir, const char *name)
{
	struct rb_node *n = dir->dir.children.rb_node;

	while (n) {
		struct sysfs_dirent *sd = rb_entry(n, struct sysfs_dirent, node);
		int c = compare_name(name, sd);

		if (c == 0)
			return sd;
		n = c < 0 ? n->left : n->right;
		preempt_point(PI_SYSFS_LOOKUP); /* n is only safe while nothing removes it */
	}
	return NULL;
}

/* Unlink sd and everything below it; holders keep the nodes until they put. */
void sysfs_remove_dirent(struct sysfs_dirent *sd)
{
	struct rb_node *child;

	if (sd->flags & SYSFS_FLAG_REMOVED)
		return;
	if (sd->type == SYSFS_DIR) {
		while ((child = rb_first(&sd->dir.children)))
			sysfs_remove_dirent(rb_entry(child, struct sysfs_dirent, node));
		sd->dir.kobj = NULL;
	}
	rb_erase(&sd->node, &sd->parent->dir.children);
	sd->flags |= SYSFS_FLAG_REMOVED;
	sysfs_put(sd);
}

void sysfs_remove_child(struct sysfs_dirent *dir, const char *name, int types)
{
	struct sysfs_dirent *sd;

	if (!dir)
		return;
	sd = sysfs_find_dirent(dir, name);
	if (sd && (sd->type & types))
		sysfs_remove_dirent(sd);
}

struct sysfs_dirent *sysfs_kobj_dir(struct kobject *kobj)
{
	return kobj ? kobj->sd : NULL;
}

int sysfs_create_dir(struct kobject *kobj)
{
	struct sysfs_dirent *parent = sysfs_sys_sd, *sd;
	int err;

	if (kobj->parent)
		parent = kobj->parent->sd;
	if (!parent)
		return -ENOENT; /* parent not in sysfs */
	sd = sysfs_new_dirent(kobject_name(kobj), SYSFS_DIR, S_IRWXUGO & ~S_IWUGO);
	if (!sd)
		return -ENOMEM;
	sd->dir.kobj = kobj;
	mutex_lock(&sysfs_mutex);
	err = sysfs_add_dirent(parent, sd);
	mutex_unlock(&sysfs_mutex);
	if (err) {
		sysfs_put(sd);
		return err;
	}
	kobj->sd = sysfs_get(sd); /* ours until remove_dir, whatever the tree does */
	return 0;
}

/*
 * A directory removed with its parent's (the parent deleted first) is only
 * put here: kobj->sd stayed valid because the kobject held it.
 */
void sysfs_remove_dir(struct kobject *kobj)
{
	struct sysfs_dirent *sd = kobj->sd;

	if (!sd)
		return;
	mutex_lock(&sysfs_mutex);
	if (sd->flags & SYSFS_FLAG_REMOVED)
		pr_warn("sysfs: '%s' was removed with its parent's directory; delete children before their parent\n",
			sd->name);
	sysfs_remove_dirent(sd);
	mutex_unlock(&sysfs_mutex);
	kobj->sd = NULL;
	sysfs_put(sd);
}

struct sysfs_dirent *sysfs_dirent_first_child(struct sysfs_dirent *dir)
{
	struct rb_node *n = NULL;
	struct sysfs_dirent *sd;

	if (!dir || !sysfs_is_dir(dir))
		return NULL;
	mutex_lock(&sysfs_mutex);
	if (!(dir->flags & SYSFS_FLAG_REMOVED))
		n = rb_first(&dir->dir.children);
	sd = n ? sysfs_get(rb_entry(n, struct sysfs_dirent, node)) : NULL;
	mutex_unlock(&sysfs_mutex);
	return sd;
}

struct sysfs_dirent *sysfs_dirent_next(struct sysfs_dirent *sd)
{
	struct rb_node *n = NULL;
	struct sysfs_dirent *next;

	if (!sd)
		return NULL;
	mutex_lock(&sysfs_mutex);
	if (!(sd->flags & SYSFS_FLAG_REMOVED))
		n = rb_next(&sd->node);
	next = n ? sysfs_get(rb_entry(n, struct sysfs_dirent, node)) : NULL;
	mutex_unlock(&sysfs_mutex);
	sysfs_put(sd);
	return next;
}

int sysfs_dirent_type(const struct sysfs_dirent *sd)
{
	return sd->type;
}

umode_t sysfs_dirent_mode(const struct sysfs_dirent *sd)
{
	return sd->mode;
}

const char *sysfs_dirent_name(const struct sysfs_dirent *sd)
{
	return sd->name;
}

struct sysfs_dirent *sysfs_dirent_parent(const struct sysfs_dirent *sd)
{
	return sd->parent ? sd->parent : (struct sysfs_dirent *)sd;
}

bool sysfs_dirent_removed(const struct sysfs_dirent *sd)
{
	return sd->flags & SYSFS_FLAG_REMOVED;
}
