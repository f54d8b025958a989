/*
 * devtmpfs.c: /dev, a RAM filesystem whose nodes the kernel makes itself:
 * one for each device with a dev_t, made when the device is added and
 * removed when it goes (Linux 2.6.32's devtmpfs, called from device_add and
 * device_del; here from class_device_add and class_device_del too).
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
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

int devtmpfs_create_node(const char *name, umode_t mode, dev_t devt)
{
	struct inode *root;
	int err;

	if (!dev_sb)
		return 0; /* before devtmpfs_init: nothing to make yet */
	root = dev_sb->s_root;
	err = root->i_op->mknod(root, name, mode, devt);
	if (err)
		pr_warn("devtmpfs: could not create /dev/%s: %d\n", name, err);
	return err;
}

int devtmpfs_delete_node(const char *name, dev_t devt)
{
	struct inode *root, *inode;
	bool ours;

	if (!dev_sb)
		return 0;
	root = dev_sb->s_root;
	if (root->i_op->lookup(root, name, &inode))
		return -ENOENT;
	ours = (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode)) && inode->i_rdev == devt;
	iput(inode);
	if (!ours)
		return -ENOENT; /* replaced by hand: not the kernel's to remove */
	return root->i_op->unlink(root, name);
}
