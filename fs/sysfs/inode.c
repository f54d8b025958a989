/*
 * inode.c: sysfs as a filesystem of the VFS, mounted at /sys. Each VFS
 * inode wraps one sysfs_dirent (counted); attribute files open through
 * sysfs_open(), so an open attribute still pins its module and keeps its
 * kobject alive, as before.
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "sysfs.h"

struct sysfs_inode {
	struct inode vfs_inode;
	struct sysfs_dirent *sd; /* counted */
};

static struct super_block *sysfs_sb;
static const struct inode_operations sysfs_dir_inode_operations;
static const struct inode_operations sysfs_symlink_inode_operations;
static const struct inode_operations sysfs_file_inode_operations;
static const struct file_operations sysfs_dir_operations;
static const struct file_operations sysfs_file_operations;

static struct sysfs_dirent *to_sd(struct inode *inode)
{
	return container_of(inode, struct sysfs_inode, vfs_inode)->sd;
}

struct sysfs_dirent *sysfs_inode_dirent(struct inode *inode)
{
	return inode && inode->i_sb == sysfs_sb ? to_sd(inode) : NULL;
}

static struct inode *sysfs_get_inode(struct sysfs_dirent *sd)
{
	struct sysfs_inode *si = kzalloc(sizeof(*si));
	struct inode *inode;

	if (!si)
		return NULL;
	inode = &si->vfs_inode;
	inode->i_count = 1;
	inode->i_sb = sysfs_sb;
	inode->i_ino = (unsigned long)sd; /* one node, one number, while it is held */
	inode->i_nlink = 1;
	inode->i_uid = sd->uid;
	inode->i_gid = sd->gid;
	if (sysfs_is_dir(sd)) {
		inode->i_mode = S_IFDIR | sd->mode;
		inode->i_nlink = 2;
		inode->i_op = &sysfs_dir_inode_operations;
		inode->i_fop = &sysfs_dir_operations;
	} else if (sd->type == SYSFS_KOBJ_LINK) {
		inode->i_mode = S_IFLNK | 0777;
		inode->i_op = &sysfs_symlink_inode_operations;
	} else {
		inode->i_mode = S_IFREG | sd->mode;
		inode->i_size = SYSFS_PAGE_SIZE; /* as Linux's sysfs reports */
		inode->i_op = &sysfs_file_inode_operations;
		inode->i_fop = &sysfs_file_operations;
	}
	si->sd = sysfs_get(sd);
	return inode;
}

static void sysfs_evict_inode(struct inode *inode)
{
	struct sysfs_inode *si = container_of(inode, struct sysfs_inode, vfs_inode);

	sysfs_put(si->sd);
	kfree(si);
}

static int sysfs_vfs_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct sysfs_dirent *sd;
	int err = -ENOENT;

	mutex_lock(&sysfs_mutex);
	sd = sysfs_find_dirent(to_sd(dir), name);
	if (sd) {
		*out = sysfs_get_inode(sd);
		err = *out ? 0 : -ENOMEM;
	}
	mutex_unlock(&sysfs_mutex);
	return err;
}

static int sysfs_vfs_readlink(struct inode *inode, char *buf, size_t size)
{
	return sysfs_readlink(to_sd(inode), buf, size);
}

static int __sysfs_readdir(struct file *file, const char *after, struct vfs_dirent *out);

/* The first child whose name sorts after `after`, under the tree's mutex. */
static int sysfs_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	int found;

	mutex_lock(&sysfs_mutex);
	found = __sysfs_readdir(file, after, out);
	mutex_unlock(&sysfs_mutex);
	return found;
}

static int __sysfs_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	struct sysfs_dirent *dir = to_sd(file->f_path.inode), *c;
	struct rb_node *n = dir->dir.children.rb_node, *best = NULL;

	while (n) {
		c = rb_entry(n, struct sysfs_dirent, node);
		if (!after || strcmp(c->name, after) > 0) {
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	if (!best)
		return 0;
	c = rb_entry(best, struct sysfs_dirent, node);
	strscpy(out->name, c->name, sizeof(out->name));
	out->type = sysfs_is_dir(c) ? S_IFDIR : c->type == SYSFS_KOBJ_LINK ? S_IFLNK
									   : S_IFREG;
	return 1;
}

static int sysfs_file_open(struct inode *inode, struct file *file)
{
	struct sysfs_open_file *of;
	int err = sysfs_open(to_sd(inode), 0, &of);

	if (!err)
		file->private_data = of;
	return err;
}

static ssize_t sysfs_file_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	ssize_t r = sysfs_read(file->private_data, buf, n);

	if (r > 0)
		*pos += r;
	return r;
}

static ssize_t sysfs_file_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	ssize_t r = sysfs_write(file->private_data, buf, n);

	if (r > 0)
		*pos += r;
	return r;
}

static int sysfs_file_release(struct inode *inode, struct file *file)
{
	sysfs_close(file->private_data);
	return 0;
}

static struct inode *sysfs_get_parent(struct inode *inode)
{
	struct sysfs_dirent *sd = to_sd(inode);

	return sd->parent ? sysfs_get_inode(sd->parent) : NULL;
}

static const char *sysfs_name(struct inode *inode)
{
	return to_sd(inode)->name;
}

/*
 * Each lookup makes a new inode, so a chmod or chown is kept in the node
 * itself, where the next lookup finds it (2.6.13's sysfs_setattr kept an
 * iattr in the sysfs_dirent). A link's own mode stays 0777.
 */
static int sysfs_setattr(struct inode *inode, const struct iattr *attr)
{
	struct sysfs_dirent *sd = to_sd(inode);

	mutex_lock(&sysfs_mutex);
	if (attr->ia_valid & ATTR_UID)
		sd->uid = attr->ia_uid;
	if (attr->ia_valid & ATTR_GID)
		sd->gid = attr->ia_gid;
	if ((attr->ia_valid & ATTR_MODE) && sd->type != SYSFS_KOBJ_LINK)
		sd->mode = attr->ia_mode & S_IALLUGO;
	mutex_unlock(&sysfs_mutex);
	return simple_setattr(inode, attr);
}

static const struct inode_operations sysfs_dir_inode_operations = {
	.lookup = sysfs_vfs_lookup,
	.setattr = sysfs_setattr,
};

static const struct inode_operations sysfs_symlink_inode_operations = {
	.readlink = sysfs_vfs_readlink,
	.setattr = sysfs_setattr,
};

static const struct inode_operations sysfs_file_inode_operations = {
	.setattr = sysfs_setattr,
};

static const struct file_operations sysfs_dir_operations = {
	.readdir = sysfs_readdir,
};

static const struct file_operations sysfs_file_operations = {
	.open = sysfs_file_open,
	.read = sysfs_file_read,
	.write = sysfs_file_write,
	.release = sysfs_file_release,
};

static const struct super_operations sysfs_super_operations = {
	.evict_inode = sysfs_evict_inode,
	.get_parent = sysfs_get_parent,
	.name = sysfs_name,
};

/* The first mount makes the superblock; it keeps one reference of its own. */
static int sysfs_fill_super(struct file_system_type *fs)
{
	if (!sysfs_sys_sd)
		return -ENODEV;
	sysfs_sb = alloc_super(fs, &sysfs_super_operations);
	if (!sysfs_sb)
		return -ENOMEM;
	sysfs_sb->s_root = sysfs_get_inode(sysfs_sys_sd);
	if (!sysfs_sb->s_root) {
		free_super(sysfs_sb);
		sysfs_sb = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* One superblock, however often it is mounted: the device model's tree. */
static int sysfs_get_sb(struct file_system_type *fs, const char *dev_name,
			struct super_block **out)
{
	int err = sysfs_sb ? 0 : sysfs_fill_super(fs);

	if (err)
		return err;
	sysfs_sb->s_active++;
	*out = sysfs_sb;
	return 0;
}

struct file_system_type sysfs_fs_type = {
	.name = "sysfs",
	.get_sb = sysfs_get_sb,
};
