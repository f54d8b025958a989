/*
 * open.c: opening and closing files, stat and truncate. An open file holds
 * its path (so its mount cannot go) and pins the module of its
 * file_operations, as Linux's fops_get() does.
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "internal.h"

static int create_last(const struct path *cwd, const char *name, umode_t mode, struct path *out)
{
	char last[NAME_MAX + 1];
	struct path dir;
	struct inode *d;
	int err = lookup_parent(cwd, name, &dir, last);

	if (err)
		return err;
	d = dir.inode;
	if (!*last || !strcmp(last, ".") || !strcmp(last, ".."))
		err = -EISDIR;
	else if (!d->i_op->create)
		err = -EACCES;
	else
		err = d->i_op->create(d, last, S_IFREG | (mode & 07777), &out->inode);
	if (!err) {
		out->mnt = dir.mnt;
		out->mnt->mnt_count++;
	}
	path_put(&dir);
	return err;
}

static int __vfs_open(const struct path *cwd, const char *name, unsigned int flags, umode_t mode,
		      struct file **out)
{
	struct path p;
	int err = vfs_path_lookup(cwd, name, LOOKUP_FOLLOW, &p);

	*out = NULL;
	if (err == -ENOENT && (flags & O_CREAT))
		err = create_last(cwd, name, mode, &p);
	else if (!err && (flags & O_CREAT) && (flags & O_EXCL)) {
		path_put(&p);
		err = -EEXIST;
	}
	if (err)
		return err;
	err = vfs_open_path(&p, flags, out);
	path_put(&p);
	return err;
}

int vfs_open(const struct path *cwd, const char *name, unsigned int flags, umode_t mode,
	     struct file **out)
{
	int ret;

	vfs_lock();
	ret = __vfs_open(cwd, name, flags, mode, out);
	vfs_unlock();
	return ret;
}

static int truncate_inode(struct inode *inode, loff_t size)
{
	if (!S_ISREG(inode->i_mode))
		return S_ISDIR(inode->i_mode) ? -EISDIR : 0;
	if (!inode->i_op || !inode->i_op->truncate)
		return 0; /* sysfs attributes: as Linux, O_TRUNC does nothing there */
	return inode->i_op->truncate(inode, size);
}

static int check_open(struct inode *inode, unsigned int flags)
{
	if (S_ISLNK(inode->i_mode))
		return -ELOOP;
	if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		return -ENOTDIR;
	if (S_ISDIR(inode->i_mode) && ((flags & O_ACCMODE) != O_RDONLY || (flags & O_CREAT)))
		return -EISDIR;
	if (!inode->i_fop)
		return -ENXIO;
	if ((flags & O_DIRECT) && !S_ISBLK(inode->i_mode))
		return -EINVAL; /* only block devices bypass a cache (fs/direct-io.c) */
	return 0;
}

static int __vfs_open_path(const struct path *p, unsigned int flags, struct file **out)
{
	struct inode *inode = p->inode;
	struct file *f;
	int err = check_open(inode, flags);

	*out = NULL;
	if (err)
		return err;
	f = kzalloc(sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->f_path = *p;
	f->f_flags = flags;
	f->f_op = inode->i_fop;
	err = -ENODEV;
	if (!try_module_get(f->f_op->owner))
		goto out_free;
	err = f->f_op->open ? f->f_op->open(inode, f) : 0; /* may set another f_op */
	if (err)
		goto out_put;
	if ((flags & O_TRUNC) && (flags & O_ACCMODE) != O_RDONLY)
		truncate_inode(inode, 0);
	path_get(&f->f_path);
	*out = f;
	return 0;

out_put:
	module_put(f->f_op->owner);
out_free:
	kfree(f);
	return err;
}

int vfs_open_path(const struct path *p, unsigned int flags, struct file **out)
{
	int ret;

	vfs_lock();
	ret = __vfs_open_path(p, flags, out);
	vfs_unlock();
	return ret;
}

static void __vfs_close(struct file *f)
{
	if (!f)
		return;
	if (f->f_op->release)
		f->f_op->release(f->f_path.inode, f);
	module_put(f->f_op->owner);
	path_put(&f->f_path);
	kfree(f->f_dirpos);
	kfree(f);
}

void vfs_close(struct file *f)
{
	vfs_lock();
	__vfs_close(f);
	vfs_unlock();
}

/* truncate(2)'s and ftruncate(2)'s refusals, as 2.6's do_sys_truncate: EISDIR, else EINVAL. */
static int truncate_checked(struct inode *inode, loff_t size)
{
	if (size < 0)
		return -EINVAL;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	return truncate_inode(inode, size);
}

static int __vfs_truncate(const struct path *cwd, const char *name, loff_t size)
{
	struct path p;
	int err = vfs_path_lookup(cwd, name, LOOKUP_FOLLOW, &p);

	if (err)
		return err;
	err = truncate_checked(p.inode, size);
	path_put(&p);
	return err;
}

int vfs_truncate(const struct path *cwd, const char *name, loff_t size)
{
	int ret;

	vfs_lock();
	ret = __vfs_truncate(cwd, name, size);
	vfs_unlock();
	return ret;
}

/*
 * The file open at a descriptor, as 2.6's do_sys_ftruncate: a regular file
 * opened for writing, else EINVAL (a pipe and a socket have no name to look up).
 */
int vfs_ftruncate(struct file *f, loff_t size)
{
	int ret = -EINVAL;

	vfs_lock();
	if ((f->f_flags & O_ACCMODE) == O_WRONLY || (f->f_flags & O_ACCMODE) == O_RDWR)
		ret = S_ISREG(f->f_path.inode->i_mode) ? truncate_checked(f->f_path.inode, size)
						       : -EINVAL;
	vfs_unlock();
	return ret;
}

void fill_kstat(struct inode *inode, struct kstat *st)
{
	memset(st, 0, sizeof(*st));
	st->ino = inode->i_ino;
	st->mode = inode->i_mode;
	st->nlink = inode->i_nlink;
	st->rdev = inode->i_rdev;
	st->size = inode->i_size;
	st->blocks = inode->i_blocks;
	st->dev = MKDEV(0, inode->i_sb->s_dev_minor);
	st->uid = inode->i_uid;
	st->gid = inode->i_gid;
}

static int __vfs_stat(const struct path *cwd, const char *name, unsigned int flags, struct kstat *st)
{
	struct path p;
	int err = vfs_path_lookup(cwd, name, flags, &p);

	if (err)
		return err;
	fill_kstat(p.inode, st);
	path_put(&p);
	return 0;
}

int vfs_stat(const struct path *cwd, const char *name, unsigned int flags, struct kstat *st)
{
	int ret;

	vfs_lock();
	ret = __vfs_stat(cwd, name, flags, st);
	vfs_unlock();
	return ret;
}

int vfs_fstat(struct file *f, struct kstat *st)
{
	fill_kstat(f->f_path.inode, st);
	return 0;
}

static int __vfs_setattr(const struct path *cwd, const char *name, unsigned int flags,
			 struct iattr *attr)
{
	struct path p;
	int err = vfs_path_lookup(cwd, name, flags, &p);

	if (err)
		return err;
	err = notify_change(p.inode, attr);
	path_put(&p);
	return err;
}

int vfs_setattr(const struct path *cwd, const char *name, unsigned int flags, struct iattr *attr)
{
	int ret;

	vfs_lock();
	ret = __vfs_setattr(cwd, name, flags, attr);
	vfs_unlock();
	return ret;
}

int vfs_fsetattr(struct file *f, struct iattr *attr)
{
	int ret;

	vfs_lock();
	ret = notify_change(f->f_path.inode, attr);
	vfs_unlock();
	return ret;
}
