/*
 * namespace.c: the mount table. "/" is the RAM filesystem; every other mount
 * sits on a directory (its mountpoint) of the mount above it. A path is a
 * (mount, inode) pair, so ".." at a mount's root climbs to the mountpoint.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/proc_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "internal.h"

static LIST_HEAD(mounts);
static void __vfs_for_each_mount(void (*fn)(struct vfsmount *mnt, void *arg), void *arg);
static struct vfsmount *root_mnt;

/* The counts change under the VFS's lock, as every name operation (fs/vfs_lock.c). */
void path_get(struct path *p)
{
	vfs_lock();
	p->mnt->mnt_count++;
	igrab(p->inode);
	vfs_unlock();
}

void path_put(struct path *p)
{
	if (!p->mnt)
		return;
	vfs_lock();
	iput(p->inode);
	p->mnt->mnt_count--;
	vfs_unlock();
	p->mnt = NULL;
	p->inode = NULL;
}

static int __vfs_root(struct path *out)
{
	if (!root_mnt)
		return -ENOENT;
	out->mnt = root_mnt;
	out->inode = root_mnt->mnt_root;
	path_get(out);
	return 0;
}

int vfs_root(struct path *out)
{
	int ret;

	vfs_lock();
	ret = __vfs_root(out);
	vfs_unlock();
	return ret;
}

/* The mount on (mnt, inode), the last one made there; NULL if none. */
static struct vfsmount *lookup_mnt(struct vfsmount *mnt, struct inode *inode)
{
	struct vfsmount *m;

	list_for_each_entry_reverse(m, &mounts, mnt_list)
		if (m->mnt_parent == mnt && same_inode(m->mnt_mountpoint, inode))
			return m;
	return NULL;
}

bool path_is_mountpoint(const struct path *p)
{
	return lookup_mnt(p->mnt, p->inode) != NULL;
}

/* From a mountpoint down to the root of what is mounted on it. */
void follow_mount(struct path *p)
{
	struct vfsmount *m;

	while ((m = lookup_mnt(p->mnt, p->inode))) {
		struct path next = { m, m->mnt_root };

		path_get(&next);
		path_put(p);
		*p = next;
	}
}

/* From a mount's root up to its mountpoint; false at "/". */
bool follow_up(struct path *p)
{
	struct path up;

	if (!p->mnt->mnt_parent)
		return false;
	up.mnt = p->mnt->mnt_parent;
	up.inode = p->mnt->mnt_mountpoint;
	path_get(&up);
	path_put(p);
	*p = up;
	return true;
}

static struct vfsmount *alloc_mnt(struct super_block *sb, const char *dev_name)
{
	struct vfsmount *mnt = kzalloc(sizeof(*mnt));

	if (!mnt)
		return NULL;
	mnt->mnt_devname = kstrdup(dev_name);
	if (!mnt->mnt_devname) {
		kfree(mnt);
		return NULL;
	}
	mnt->mnt_sb = sb;
	mnt->mnt_root = igrab(sb->s_root);
	return mnt;
}

static void put_super(struct super_block *sb)
{
	if (--sb->s_active == 0 && sb->s_type->kill_sb)
		sb->s_type->kill_sb(sb);
}

/* Mounts type on the directory at dir (taken over: its references become the mount's). */
static int attach_new_mount(struct path *dir, const char *dev_name, struct file_system_type *type)
{
	struct super_block *sb;
	struct vfsmount *mnt;
	int err = type->get_sb(type, dev_name, &sb);

	if (err)
		return err;
	mnt = alloc_mnt(sb, dev_name);
	if (!mnt) {
		put_super(sb);
		return -ENOMEM;
	}
	mnt->mnt_parent = dir->mnt; /* the mount holds the path it sits on */
	mnt->mnt_mountpoint = dir->inode;
	dir->mnt = NULL;
	dir->inode = NULL;
	list_add_tail(&mnt->mnt_list, &mounts);
	return 0;
}

static int __do_mount(const struct path *cwd, const char *dev_name, const char *dir, const char *type)
{
	struct file_system_type *fs = get_fs_type(type);
	struct path p;
	int err;

	if (!fs)
		return -ENODEV;
	err = vfs_path_lookup(cwd, dir, LOOKUP_FOLLOW, &p);
	if (err)
		return err;
	err = S_ISDIR(p.inode->i_mode) ? attach_new_mount(&p, dev_name, fs) : -ENOTDIR;
	path_put(&p);
	return err;
}

int do_mount(const struct path *cwd, const char *dev_name, const char *dir, const char *type)
{
	int ret;

	vfs_lock();
	ret = __do_mount(cwd, dev_name, dir, type);
	vfs_unlock();
	return ret;
}

static int __do_umount(const struct path *cwd, const char *dir)
{
	struct vfsmount *mnt;
	struct path p;
	int err = vfs_path_lookup(cwd, dir, LOOKUP_FOLLOW, &p);

	if (err)
		return err;
	mnt = p.mnt;
	err = same_inode(p.inode, mnt->mnt_root) ? 0 : -EINVAL; /* not mounted */
	path_put(&p);
	if (err)
		return err;
	if (mnt == root_mnt || mnt->mnt_count > 0) /* a cwd, an open file, a mount below */
		return -EBUSY;
	list_del(&mnt->mnt_list);
	iput(mnt->mnt_root);
	iput(mnt->mnt_mountpoint);
	mnt->mnt_parent->mnt_count--;
	put_super(mnt->mnt_sb);
	kfree(mnt->mnt_devname);
	kfree(mnt);
	return 0;
}

int do_umount(const struct path *cwd, const char *dir)
{
	int ret;

	vfs_lock();
	ret = __do_umount(cwd, dir);
	vfs_unlock();
	return ret;
}

void vfs_for_each_mount(void (*fn)(struct vfsmount *mnt, void *arg), void *arg)
{
	vfs_lock();
	__vfs_for_each_mount(fn, arg);
	vfs_unlock();
}

static void __vfs_for_each_mount(void (*fn)(struct vfsmount *mnt, void *arg), void *arg)
{
	struct vfsmount *m;

	list_for_each_entry(m, &mounts, mnt_list)
		fn(m, arg);
}

struct mounts_text {
	char *buf, *dir;
	size_t size, len;
};

static void show_mount(struct vfsmount *mnt, void *arg)
{
	struct mounts_text *t = arg;
	struct path p = { mnt, mnt->mnt_root };

	if (vfs_path_name(&p, t->dir, PATH_MAX) < 0)
		return;
	t->len += scnprintf(t->buf + t->len, t->size - t->len, "%s %s %s rw 0 0\n",
			    mnt->mnt_devname, t->dir, mnt->mnt_sb->s_type->name);
}

/* /proc/mounts: "SOURCE DIR TYPE OPTIONS 0 0" a mount, in mount order, as 2.6's. */
size_t proc_show_mounts(char *buf, size_t size)
{
	struct mounts_text t = { buf, kmalloc(PATH_MAX), size, 0 };

	if (!t.dir)
		return 0;
	vfs_for_each_mount(show_mount, &t);
	kfree(t.dir);
	return t.len;
}

int vfs_statfs(struct vfsmount *mnt, struct kstatfs *buf)
{
	memset(buf, 0, sizeof(*buf));
	buf->f_bsize = 4096;
	if (!mnt->mnt_sb->s_op->statfs)
		return 0;
	return mnt->mnt_sb->s_op->statfs(mnt->mnt_sb, buf);
}

static int mount_root(void)
{
	struct super_block *sb;
	int err = ramfs_get_sb(&ramfs_fs_type, "rootfs", &sb);

	if (err)
		return err;
	root_mnt = alloc_mnt(sb, "rootfs");
	if (!root_mnt) {
		put_super(sb);
		return -ENOMEM;
	}
	list_add_tail(&root_mnt->mnt_list, &mounts);
	return 0;
}

int devtmpfs_init(void);
extern struct file_system_type devtmpfs_fs_type;

int vfs_init(void)
{
	static const char *const dirs[] = { "/dev", "/etc", "/mnt", "/sys", "/tmp" };
	int err;

	if (root_mnt)
		return 0;
	err = register_filesystem(&ramfs_fs_type) ?: register_filesystem(&tmpfs_fs_type) ?
					     : register_filesystem(&sysfs_fs_type)	 ?
					     : devtmpfs_init()				 ?
											 : mount_root();
	for (size_t i = 0; !err && i < ARRAY_SIZE(dirs); i++)
		err = vfs_mkdir(NULL, dirs[i], strcmp(dirs[i], "/tmp") ? 0755 : 01777);
	if (!err)
		err = do_mount(NULL, "sysfs", "/sys", "sysfs");
	if (!err)
		err = do_mount(NULL, "devtmpfs", "/dev", "devtmpfs");
	return err;
}

#ifdef KOBOLD_HOST
/* The host test binary has no kmain: mount "/", /sys and /dev before main(), as boot does. */
static void __attribute__((constructor)) host_vfs_init(void)
{
	if (!driver_init())
		vfs_init();
}
#endif
