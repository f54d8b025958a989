/*
 * devtmpfs.c: /dev, a RAM filesystem whose nodes the kernel makes itself:
 * one for each device with a dev_t, made when the device is added and
 * removed when it goes (Linux 2.6.32's devtmpfs, called from device_add and
 * device_del; here from class_device_add and class_device_del too).
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static struct super_block *dev_sb; /* one tree, however often it is mounted */

static int devtmpfs_get_sb(struct file_system_type *fs, const char *dev_name,
			   struct super_block **out)
{
	if (!dev_sb)
		return -ENODEV;
	dev_sb->s_active++;
	*out = dev_sb;
	return 0;
}

struct file_system_type devtmpfs_fs_type = {
	.name = "devtmpfs",
	.get_sb = devtmpfs_get_sb,
};

/* The tree exists from boot, before it is mounted at /dev; it keeps a reference of its own. */
int devtmpfs_init(void)
{
	int err;

	if (dev_sb)
		return 0;
	err = ramfs_get_sb(&devtmpfs_fs_type, "devtmpfs", &dev_sb);
	if (err)
		return err;
	err = register_filesystem(&devtmpfs_fs_type);
	if (err)
		pr_err("devtmpfs: could not register: %d\n", err);
	return err;
}

/* The directory that holds the last component of name ("disk/by-id/x"), made as needed. */
static struct inode *node_dir(const char *name, const char **last, bool create)
{
	struct inode *dir = igrab(dev_sb->s_root), *next;
	char part[NAME_MAX + 1];
	const char *slash;

	while ((slash = strchr(name, '/'))) {
		size_t n = (size_t)(slash - name);

		if (n == 0 || n > NAME_MAX)
			goto fail;
		memcpy(part, name, n);
		part[n] = '\0';
		if (create)
			dir->i_op->mkdir(dir, part, 0755); /* -EEXIST is fine */
		if (dir->i_op->lookup(dir, part, &next) || !S_ISDIR(next->i_mode))
			goto fail;
		iput(dir);
		dir = next;
		name = slash + 1;
	}
	*last = name;
	return dir;
fail:
	iput(dir);
	return NULL;
}

int devtmpfs_create_node(const char *name, umode_t mode, dev_t devt)
{
	struct inode *dir;
	struct fs_ids ids;
	const char *last;
	int err = -EINVAL;

	if (!dev_sb)
		return 0; /* before devtmpfs_init: nothing to make yet */
	/* the node and its directories are root's, whoever's call added the device */
	ids = override_creds_root();
	dir = node_dir(name, &last, true);
	if (dir) {
		err = dir->i_op->mknod(dir, last, mode, devt);
		iput(dir);
	}
	revert_creds(ids);
	if (err)
		pr_warn("devtmpfs: could not create /dev/%s: %d\n", name, err);
	return err;
}

/* The directories node_dir made for name go with their last node, as Linux's delete_path. */
static void delete_path(const char *name)
{
	char *path = kstrdup(name), *slash;
	struct inode *dir;
	const char *last;

	while (path && (slash = strrchr(path, '/'))) {
		*slash = '\0';
		dir = node_dir(path, &last, false);
		if (!dir)
			break;
		if (dir->i_op->rmdir(dir, last)) { /* not empty: the rest stays too */
			iput(dir);
			break;
		}
		iput(dir);
	}
	kfree(path);
}

int devtmpfs_delete_node(const char *name, dev_t devt)
{
	struct inode *dir, *inode;
	const char *last;
	bool ours;
	int err = -ENOENT;

	if (!dev_sb)
		return 0;
	dir = node_dir(name, &last, false);
	if (!dir)
		return -ENOENT;
	if (!dir->i_op->lookup(dir, last, &inode)) {
		ours = (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode)) &&
		       inode->i_rdev == devt;
		iput(inode);
		/* a node replaced by hand is not the kernel's to remove */
		err = ours ? dir->i_op->unlink(dir, last) : -ENOENT;
	}
	iput(dir);
	if (!err)
		delete_path(name);
	return err;
}
