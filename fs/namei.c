/*
 * namei.c: the path walk (Linux's fs/namei.c): one component at a time,
 * across mounts, "." and ".." (nothing above "/"), symlinks followed by
 * walking their text from the link's directory; and the calls that make
 * or remove names: mkdir, rmdir, unlink, symlink, mknod, rename. Each
 * name operation runs under the VFS's lock (fs/vfs_lock.c): the tree of
 * names, the inodes' counts and the mounts are Kobold's, written for one
 * flow, with no per-directory lock as 2.6's i_sem.
 * Reads and writes of an open file do not take it (a sysfs store may
 * register devices, which make /dev nodes by these very calls).
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "internal.h"

struct nameidata {
	struct path path;
	int links; /* followed so far, at most SYSFS_MAXSYMLINKS (40, as Linux) */
	int depth; /* links inside a link's text */
};

static int link_path_walk(struct nameidata *nd, const char *name, unsigned int flags);

static bool is_dot(const char *p, size_t n)
{
	return n == 1 && p[0] == '.';
}
static bool is_dotdot(const char *p, size_t n)
{
	return n == 2 && p[0] == '.' && p[1] == '.';
}

static void follow_dotdot(struct nameidata *nd)
{
	struct path *p = &nd->path;
	struct inode *parent;

	while (same_inode(p->inode, p->mnt->mnt_root))
		if (!follow_up(p))
			return; /* ".." at "/" stays at "/" */
	parent = p->inode->i_sb->s_op->get_parent(p->inode);
	if (!parent)
		return;
	iput(p->inode);
	p->inode = parent;
	follow_mount(p);
}

static int follow_link(struct nameidata *nd, struct path *link)
{
	struct inode *inode = link->inode;
	char *buf;
	int err;

	if (++nd->links > SYSFS_MAXSYMLINKS || nd->depth >= MAX_NESTED_LINKS)
		return -ELOOP;
	if (!inode->i_op || !inode->i_op->readlink)
		return -EINVAL;
	buf = kmalloc(PATH_MAX);
	if (!buf)
		return -ENOMEM;
	err = inode->i_op->readlink(inode, buf, PATH_MAX);
	if (err >= 0) {
		nd->depth++;
		err = link_path_walk(nd, buf, LOOKUP_FOLLOW);
		nd->depth--;
	}
	kfree(buf);
	return err;
}

static int walk_component(struct nameidata *nd, const char *p, size_t n, bool follow)
{
	struct inode *dir = nd->path.inode;
	char name[NAME_MAX + 1];
	struct path next;
	int err;

	if (!S_ISDIR(dir->i_mode) || !dir->i_op || !dir->i_op->lookup)
		return -ENOTDIR;
	if (is_dot(p, n))
		return 0;
	if (is_dotdot(p, n)) {
		follow_dotdot(nd);
		return 0;
	}
	memcpy(name, p, n);
	name[n] = '\0';
	err = dir->i_op->lookup(dir, name, &next.inode);
	if (err)
		return err;
	next.mnt = nd->path.mnt;
	next.mnt->mnt_count++;
	follow_mount(&next);
	if (follow && S_ISLNK(next.inode->i_mode)) {
		err = follow_link(nd, &next);
		path_put(&next);
		return err;
	}
	path_put(&nd->path);
	nd->path = next;
	return 0;
}

static int link_path_walk(struct nameidata *nd, const char *name, unsigned int flags)
{
	size_t len = strnlen(name, PATH_MAX);
	bool trailing_slash;
	int err;

	if (len == 0)
		return -ENOENT;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	if (*name == '/') {
		path_put(&nd->path);
		err = vfs_root(&nd->path);
		if (err)
			return err;
	}
	trailing_slash = name[len - 1] == '/';
	for (;;) {
		const char *end, *rest;

		while (*name == '/')
			name++;
		if (!*name)
			break;
		end = strchr(name, '/');
		if (!end)
			end = name + strlen(name);
		if (end - name > NAME_MAX)
			return -ENAMETOOLONG;
		for (rest = end; *rest == '/'; rest++)
			;
		err = walk_component(nd, name, (size_t)(end - name),
				     *rest || (flags & LOOKUP_FOLLOW) || trailing_slash);
		if (err)
			return err;
		name = end;
	}
	if (trailing_slash && !S_ISDIR(nd->path.inode->i_mode))
		return -ENOTDIR;
	return 0;
}

static int start_walk(struct nameidata *nd, const struct path *cwd)
{
	memset(nd, 0, sizeof(*nd));
	if (!cwd)
		return vfs_root(&nd->path);
	nd->path = *cwd;
	path_get(&nd->path);
	return 0;
}

static int __vfs_path_lookup(const struct path *cwd, const char *name, unsigned int flags,
			     struct path *out)
{
	struct nameidata nd;
	int err = start_walk(&nd, cwd);

	out->mnt = NULL;
	out->inode = NULL;
	if (err)
		return err;
	err = link_path_walk(&nd, name ? name : "", flags);
	if (err) {
		path_put(&nd.path);
		return err;
	}
	*out = nd.path;
	return 0;
}

int vfs_path_lookup(const struct path *cwd, const char *name, unsigned int flags,
		    struct path *out)
{
	int ret;

	vfs_lock();
	ret = __vfs_path_lookup(cwd, name, flags, out);
	vfs_unlock();
	return ret;
}

int lookup_parent(const struct path *cwd, const char *name, struct path *dir, char *last)
{
	size_t len = name ? strnlen(name, PATH_MAX) : 0, end = len, start;
	char *head;
	int err;

	dir->mnt = NULL;
	if (len == 0)
		return -ENOENT;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	while (end > 1 && name[end - 1] == '/')
		end--;
	for (start = end; start > 0 && name[start - 1] != '/'; start--)
		;
	if (end - start > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(last, name + start, end - start);
	last[end - start] = '\0';
	head = kmalloc(start + 2);
	if (!head)
		return -ENOMEM;
	memcpy(head, name, start);
	strscpy(head + start, ".", 2); /* "dir/." or "." */
	err = vfs_path_lookup(cwd, head, LOOKUP_FOLLOW, dir);
	kfree(head);
	if (!err && !S_ISDIR(dir->inode->i_mode)) {
		path_put(dir);
		err = -ENOTDIR;
	}
	return err;
}

/* last is "", "." or "..": the root, or a name no call may make or remove. */
static bool is_special(const char *last)
{
	return !*last || !strcmp(last, ".") || !strcmp(last, "..");
}

/* The child last of dir, not following a link (counted path), with busy: a mountpoint. */
static int lookup_child(struct path *dir, const char *last, struct path *child, bool *busy)
{
	struct inode *d = dir->inode;
	int err = d->i_op && d->i_op->lookup ? d->i_op->lookup(d, last, &child->inode) : -ENOENT;

	if (err)
		return err;
	child->mnt = dir->mnt;
	child->mnt->mnt_count++;
	*busy = path_is_mountpoint(child);
	return 0;
}

typedef int (*make_fn)(struct inode *dir, const char *last, const void *arg);

/* Shared by the calls that make a name: the parent, the checks, then fn. */
static int make_name(const struct path *cwd, const char *name, make_fn fn, const void *arg)
{
	char last[NAME_MAX + 1];
	struct path dir;
	int err;

	vfs_lock();
	err = lookup_parent(cwd, name, &dir, last);
	if (!err) {
		err = is_special(last) ? -EEXIST : fn(dir.inode, last, arg);
		path_put(&dir);
	}
	vfs_unlock();
	return err;
}

static int do_mkdir(struct inode *dir, const char *last, const void *arg)
{
	if (!dir->i_op->mkdir)
		return -EPERM;
	return dir->i_op->mkdir(dir, last, *(const umode_t *)arg);
}

int vfs_mkdir(const struct path *cwd, const char *name, umode_t mode)
{
	return make_name(cwd, name, do_mkdir, &mode);
}

static int do_symlink(struct inode *dir, const char *last, const void *arg)
{
	if (!dir->i_op->symlink)
		return -EPERM;
	return dir->i_op->symlink(dir, last, arg);
}

int vfs_symlink(const struct path *cwd, const char *target, const char *name)
{
	size_t len = strnlen(target, PATH_MAX);

	if (!len)
		return -ENOENT;
	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	return make_name(cwd, name, do_symlink, target);
}

struct mknod_args {
	umode_t mode;
	dev_t dev;
};

static int do_mknod(struct inode *dir, const char *last, const void *arg)
{
	const struct mknod_args *a = arg;

	if (!dir->i_op->mknod)
		return -EPERM;
	return dir->i_op->mknod(dir, last, a->mode, a->dev);
}

int vfs_mknod(const struct path *cwd, const char *name, umode_t mode, dev_t dev)
{
	struct mknod_args a = { mode, dev };

	return make_name(cwd, name, do_mknod, &a);
}

/* rmdir (dir true) or unlink: the checks both share, then the filesystem's call. */
static int __remove_name(const struct path *cwd, const char *name, bool rmdir)
{
	char last[NAME_MAX + 1];
	struct path dir, child;
	bool busy;
	int err = lookup_parent(cwd, name, &dir, last);

	if (err)
		return err;
	if (is_special(last))
		err = !rmdir ? -EISDIR : !*last	      ? -EBUSY
				 : !strcmp(last, ".") ? -EINVAL
						      : -ENOTEMPTY;
	else
		err = lookup_child(&dir, last, &child, &busy);
	if (err)
		goto out;
	if (busy)
		err = -EBUSY;
	else if (rmdir != S_ISDIR(child.inode->i_mode))
		err = rmdir ? -ENOTDIR : -EISDIR;
	else if (!(rmdir ? dir.inode->i_op->rmdir : dir.inode->i_op->unlink))
		err = -EPERM;
	else
		err = rmdir ? dir.inode->i_op->rmdir(dir.inode, last) : dir.inode->i_op->unlink(dir.inode, last);
	path_put(&child);
out:
	path_put(&dir);
	return err;
}

static int remove_name(const struct path *cwd, const char *name, bool rmdir)
{
	int err;

	vfs_lock();
	err = __remove_name(cwd, name, rmdir);
	vfs_unlock();
	return err;
}

int vfs_rmdir(const struct path *cwd, const char *name)
{
	return remove_name(cwd, name, true);
}

int vfs_unlink(const struct path *cwd, const char *name)
{
	return remove_name(cwd, name, false);
}

static int check_rename(struct path *odir, const char *olast, struct path *ndir,
			const char *nlast)
{
	struct path child;
	bool busy;
	int err;

	if (is_special(olast) || is_special(nlast))
		return -EBUSY;
	if (odir->mnt != ndir->mnt)
		return -EXDEV;
	err = lookup_child(odir, olast, &child, &busy);
	if (err)
		return err;
	path_put(&child);
	if (busy)
		return -EBUSY;
	if (!lookup_child(ndir, nlast, &child, &busy)) {
		path_put(&child);
		if (busy)
			return -EBUSY;
	}
	return odir->inode->i_op->rename ? 0 : -EPERM;
}

static int __vfs_rename(const struct path *cwd, const char *oldname, const char *newname)
{
	char *olast = kmalloc(2 * (NAME_MAX + 1)), *nlast = olast + NAME_MAX + 1;
	struct path odir, ndir = { NULL, NULL };
	int err;

	if (!olast)
		return -ENOMEM;
	err = lookup_parent(cwd, oldname, &odir, olast);
	if (err)
		goto out;
	err = lookup_parent(cwd, newname, &ndir, nlast) ?: check_rename(&odir, olast, &ndir, nlast);
	if (!err)
		err = odir.inode->i_op->rename(odir.inode, olast, ndir.inode, nlast);
	path_put(&ndir);
	path_put(&odir);
out:
	kfree(olast);
	return err;
}

int vfs_rename(const struct path *cwd, const char *oldname, const char *newname)
{
	int ret;

	vfs_lock();
	ret = __vfs_rename(cwd, oldname, newname);
	vfs_unlock();
	return ret;
}

static int __vfs_readlink(const struct path *cwd, const char *name, char *buf, size_t size)
{
	struct path p;
	int err = vfs_path_lookup(cwd, name, 0, &p);

	if (err)
		return err;
	if (!S_ISLNK(p.inode->i_mode) || !p.inode->i_op->readlink)
		err = -EINVAL;
	else
		err = p.inode->i_op->readlink(p.inode, buf, size);
	path_put(&p);
	return err;
}

int vfs_readlink(const struct path *cwd, const char *name, char *buf, size_t size)
{
	int ret;

	vfs_lock();
	ret = __vfs_readlink(cwd, name, buf, size);
	vfs_unlock();
	return ret;
}

/* Absolute path: names up to "/", climbing from each mount's root to its mountpoint. */
static int __vfs_path_name(const struct path *p, char *buf, size_t size)
{
	struct path cur = *p;
	size_t pos = size;

	if (size < 2)
		return -ENAMETOOLONG;
	buf[--pos] = '\0';
	path_get(&cur);
	for (;;) {
		const struct super_operations *op;
		struct inode *parent;
		size_t n;

		while (same_inode(cur.inode, cur.mnt->mnt_root))
			if (!follow_up(&cur))
				goto done;
		op = cur.inode->i_sb->s_op;
		n = strlen(op->name(cur.inode));
		if (n + 1 > pos) {
			path_put(&cur);
			return -ENAMETOOLONG;
		}
		pos -= n;
		memcpy(buf + pos, op->name(cur.inode), n);
		buf[--pos] = '/';
		parent = op->get_parent(cur.inode);
		if (!parent)
			break;
		iput(cur.inode);
		cur.inode = parent;
	}
done:
	path_put(&cur);
	if (pos == size - 1)
		buf[--pos] = '/';
	memmove(buf, buf + pos, size - pos);
	return (int)(size - pos - 1);
}

int vfs_path_name(const struct path *p, char *buf, size_t size)
{
	int ret;

	vfs_lock();
	ret = __vfs_path_name(p, buf, size);
	vfs_unlock();
	return ret;
}
