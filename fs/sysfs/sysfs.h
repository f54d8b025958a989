/* sysfs.h (internal): the sysfs_dirent node and the helpers fs/sysfs shares. */
#ifndef FS_SYSFS_SYSFS_H
#define FS_SYSFS_SYSFS_H

#include <kobold/atomic.h>
#include <kobold/mutex.h>
#include <kobold/rbtree.h>
#include <kobold/sysfs.h>

/*
 * The tree: every node's links, children and flags (2.6.23's sysfs_mutex;
 * 2.6.10-2.6.22 locked each directory's inode, i_sem then i_mutex). Held
 * by each call that walks or changes the tree, never while an attribute's
 * show() or store() runs, so those may add and remove files.
 */
extern struct mutex sysfs_mutex;

#define SYSFS_FLAG_REMOVED 0x1 /* unlinked: lookups no longer find it */

/*
 * One node of the tree. Its count holds one reference for being linked into
 * its parent, one per holder (shell cwd, open file, symlink pointing here,
 * the kobject whose directory it is) and one per child, since a child keeps
 * its parent pointer until freed;
 * so a removed node's path can still be printed.
 */
struct sysfs_dirent {
	atomic_t count; /* 2.6.22's s_count */
	int type;	/* SYSFS_ROOT, SYSFS_DIR, SYSFS_KOBJ_ATTR or SYSFS_KOBJ_LINK */
	unsigned int flags;
	umode_t mode;
	unsigned int uid, gid; /* root's, until a chown (2.6.22's s_iattr kept them too) */
	const char *name;
	struct sysfs_dirent *parent;
	struct rb_node node; /* in parent->dir.children, by name */
	union {
		struct {
			struct rb_root children;
			struct kobject *kobj; /* NULL for "/" */
		} dir;
		struct {
			struct kobject *kobj;
			const struct attribute *attr;
		} attr;
		struct {
			struct sysfs_dirent *target; /* counted */
		} link;
	};
};

extern struct sysfs_dirent sysfs_root_sd; /* "/" */
extern struct sysfs_dirent *sysfs_sys_sd; /* "/sys" */

static inline bool sysfs_is_dir(const struct sysfs_dirent *sd)
{
	return sd->type & (SYSFS_ROOT | SYSFS_DIR);
}

struct sysfs_dirent *sysfs_new_dirent(const char *name, int type, umode_t mode);
int sysfs_add_dirent(struct sysfs_dirent *parent, struct sysfs_dirent *sd);
struct sysfs_dirent *sysfs_find_dirent(struct sysfs_dirent *dir, const char *name);
void sysfs_remove_dirent(struct sysfs_dirent *sd);
/* The directory a kobject's files go in (its own). */
struct sysfs_dirent *sysfs_kobj_dir(struct kobject *kobj);
/* Remove the child NAME of dir if it has one of the given types. */
void sysfs_remove_child(struct sysfs_dirent *dir, const char *name, int types);

#endif
