/*
 * initramfs.c: unpacks a newc cpio archive into the RAM filesystem at "/",
 * as Linux's init/initramfs.c does: directories, regular files, symlinks
 * and device nodes with their modes; a member replaces what an earlier one
 * put at its name (a directory is kept and merged into). A member the VFS
 * refuses is named and skipped; a corrupt archive stops where it is
 * corrupt, and what came before it stays. Members below a directory where
 * another filesystem is already mounted (/dev, /sys, /proc) are skipped:
 * in Linux the same members land in rootfs and devtmpfs, sysfs and proc
 * are mounted over them later, hiding them.
 */
#include <kobold/initramfs.h>

#include <kobold/cpio.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define MODE_BITS 07777

/* Each directory above path, from the top: "/etc/udev", then "/etc/udev/rules.d" (path is cut and mended in place). */
static int make_parents(char *path)
{
	int err;

	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		err = vfs_mkdir(NULL, path, 0755);
		*p = '/';
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

/* Clears the way for a new member at path: anything but a directory goes, an empty directory too. */
static int clear_name(const char *path, bool keep_dir)
{
	struct kstat st;
	int err = vfs_stat(NULL, path, 0, &st);

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	if (S_ISDIR(st.mode))
		return keep_dir ? 0 : vfs_rmdir(NULL, path);
	return vfs_unlink(NULL, path);
}

static int write_file(char *path, const void *data, size_t size, unsigned int mode)
{
	struct file *file;
	ssize_t n;
	int err = make_parents(path) ?: clear_name(path, false);

	if (!err)
		err = vfs_open(NULL, path, O_WRONLY | O_CREAT | O_TRUNC, mode & MODE_BITS, &file);
	if (err)
		return err;
	n = size ? vfs_write(file, data, size) : 0;
	vfs_close(file);
	if (n < 0)
		return (int)n;
	return n == (ssize_t)size ? 0 : -ENOSPC;
}

int initramfs_write_file(const char *path, const void *data, size_t size, unsigned int mode)
{
	char *copy = kstrdup(path);
	int err;

	if (!copy)
		return -ENOMEM;
	err = write_file(copy, data, size, mode);
	kfree(copy);
	return err;
}

static int write_symlink(char *path, const struct cpio_entry *e)
{
	char *target;
	int err;

	if (e->size == 0 || e->size >= PATH_MAX)
		return -ENAMETOOLONG;
	target = kmalloc(e->size + 1);
	if (!target)
		return -ENOMEM;
	memcpy(target, e->data, e->size);
	target[e->size] = '\0';
	err = make_parents(path) ?: clear_name(path, false) ?
							    : vfs_symlink(NULL, target, path);
	kfree(target);
	return err;
}

static int write_member(char *path, const struct cpio_entry *e)
{
	umode_t mode = (umode_t)e->mode;
	int err;

	if (S_ISDIR(mode)) {
		err = make_parents(path) ?: clear_name(path, true);
		if (!err)
			err = vfs_mkdir(NULL, path, mode & MODE_BITS);
		return err == -EEXIST ? 0 : err;
	}
	if (S_ISREG(mode))
		return write_file(path, e->data, e->size, mode);
	if (S_ISLNK(mode))
		return write_symlink(path, e);
	if (S_ISCHR(mode) || S_ISBLK(mode) || (mode & S_IFMT) == S_IFIFO)
		return make_parents(path) ?: clear_name(path, false) ?
								     : vfs_mknod(NULL, path, mode, MKDEV(e->rdevmajor, e->rdevminor));
	return -EINVAL;
}

/*
 * The member's owner and group, as 2.6's initramfs gave them (lchown for a
 * link), and as it did, whatever the chown answers: the rootfs's /proc is
 * procfs's mount point, which keeps no owners.
 */
static void set_owner(char *path, const struct cpio_entry *e)
{
	struct iattr attr = { .ia_valid = ATTR_UID | ATTR_GID, .ia_uid = e->uid, .ia_gid = e->gid };

	vfs_setattr(NULL, path, 0, &attr);
}

/* Whether path's top directory ("/dev" of "/dev/console") is another filesystem's mount point. */
static bool below_mount(char *path)
{
	char *slash = strchr(path + 1, '/');
	struct path root, top;
	bool mounted = false;

	if (!slash || vfs_root(&root))
		return false;
	*slash = '\0';
	if (vfs_path_lookup(NULL, path, LOOKUP_FOLLOW, &top) == 0) {
		mounted = top.mnt != root.mnt;
		path_put(&top);
	}
	*slash = '/';
	path_put(&root);
	return mounted;
}

static int unpack_member(const struct cpio_entry *e, void *arg)
{
	struct initramfs_stats *st = arg;
	const char *name = e->name;
	char *path;
	int err;

	while (name[0] == '.' && name[1] == '/')
		name += 2;
	while (name[0] == '/')
		name++;
	if (!*name || !strcmp(name, "."))
		return 0; /* the root itself */
	path = kmalloc(strlen(name) + 2);
	if (!path) {
		err = -ENOMEM;
	} else {
		path[0] = '/';
		memcpy(path + 1, name, strlen(name) + 1);
		err = below_mount(path) ? -EXDEV : write_member(path, e);
		if (!err)
			set_owner(path, e);
		kfree(path);
	}
	if (err == -EXDEV) {
		pr_info("initramfs: %s: below a mount point, hidden by it: skipped\n", name);
		st->skipped++;
		return 0;
	}
	if (err) {
		pr_err("initramfs: %s: %s\n", name, kstrerror(err));
		st->failed++;
	} else {
		st->unpacked++;
	}
	return 0;
}

int unpack_to_rootfs(const void *buf, size_t len, const char *what, struct initramfs_stats *st)
{
	struct cpio_error cerr;
	int err;

	st->unpacked = st->failed = st->skipped = 0;
	err = cpio_walk(buf, len, unpack_member, st, &cerr);
	if (err == -EINVAL)
		pr_err("initramfs: %s: corrupt cpio at byte %zu: %s; the %u member(s) before it are kept\n",
		       what, cerr.offset, cerr.why, cerr.good);
	return err;
}
