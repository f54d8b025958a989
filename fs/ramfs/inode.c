/*
 * inode.c: the RAM filesystem (Linux's ramfs and tmpfs): rootfs at "/",
 * tmpfs wherever it is mounted, and devtmpfs's tree. Each directory keeps
 * its children in a red-black tree by name. A node is freed once it is
 * unlinked and its last holder (open file, cwd) lets go.
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "internal.h"

static const struct inode_operations ramfs_dir_inode_operations;
static const struct inode_operations ramfs_file_inode_operations;
static const struct inode_operations ramfs_symlink_inode_operations;
static const struct inode_operations ramfs_special_inode_operations;
static const struct file_operations ramfs_dir_operations;
static const struct super_operations ramfs_super_operations;

static struct ramfs_inode *ramfs_new_inode(struct super_block *sb, const char *name,
					   umode_t mode, dev_t dev)
{
	struct ramfs_sb_info *s = sb->s_fs_info;
	struct ramfs_inode *ri = kzalloc(sizeof(*ri));
	struct inode *inode;

	if (!ri)
		return NULL;
	ri->name = kstrdup(name);
	if (!ri->name) {
		kfree(ri);
		return NULL;
	}
	inode = &ri->vfs_inode;
	inode->i_sb = sb;
	inode->i_ino = ++s->next_ino;
	inode->i_mode = mode;
	inode->i_uid = current_fsuid(); /* the creator's, as 2.6's ramfs_get_inode */
	inode->i_gid = current_fsgid();
	inode->i_nlink = S_ISDIR(mode) ? 2 : 1;
	if (S_ISDIR(mode)) {
		inode->i_op = &ramfs_dir_inode_operations;
		inode->i_fop = &ramfs_dir_operations;
	} else if (S_ISREG(mode)) {
		inode->i_op = &ramfs_file_inode_operations;
		inode->i_fop = &ramfs_file_operations;
	} else if (S_ISLNK(mode)) {
		inode->i_op = &ramfs_symlink_inode_operations;
	} else {
		inode->i_op = &ramfs_special_inode_operations;
		init_special_inode(inode, mode, dev);
	}
	return ri;
}

static void ramfs_free(struct ramfs_inode *ri)
{
	struct ramfs_inode *parent = ri->parent;
	struct ramfs_sb_info *s = ri->vfs_inode.i_sb->s_fs_info;

	mutex_lock(&s->data_lock);
	ramfs_truncate_pages(ri, 0);
	mutex_unlock(&s->data_lock);
	kfree(ri->link);
	kfree(ri->name);
	kfree(ri);
	if (parent)
		iput(&parent->vfs_inode);
}

/* No holder left: an unlinked node goes now (a linked one stays in its tree). */
static void ramfs_evict_inode(struct inode *inode)
{
	if (inode->i_nlink == 0)
		ramfs_free(RAMFS_I(inode));
}

static struct ramfs_inode *find_child(struct ramfs_inode *dir, const char *name)
{
	struct rb_node *n = dir->children.rb_node;

	while (n) {
		struct ramfs_inode *c = rb_entry(n, struct ramfs_inode, node);
		int cmp = strcmp(name, c->name);

		if (cmp == 0)
			return c;
		n = cmp < 0 ? n->left : n->right;
	}
	return NULL;
}

/* Links ri into dir by its name (which must be free). */
static void link_child(struct ramfs_inode *dir, struct ramfs_inode *ri)
{
	struct rb_node **link = &dir->children.rb_node, *up = NULL;

	while (*link) {
		up = *link;
		link = strcmp(ri->name, rb_entry(up, struct ramfs_inode, node)->name) < 0 ? &up->left : &up->right;
	}
	rb_link_node(&ri->node, up, link);
	rb_insert_color(&ri->node, &dir->children);
	dir->nr_children++;
	if (S_ISDIR(ri->vfs_inode.i_mode))
		dir->vfs_inode.i_nlink++;
}

static void unlink_child(struct ramfs_inode *dir, struct ramfs_inode *ri)
{
	rb_erase(&ri->node, &dir->children);
	dir->nr_children--;
	if (S_ISDIR(ri->vfs_inode.i_mode))
		dir->vfs_inode.i_nlink--;
}

/* Takes a node out of the tree; it is freed now, or at its holders' last iput. */
static void detach(struct ramfs_inode *dir, struct ramfs_inode *ri)
{
	unlink_child(dir, ri);
	ri->vfs_inode.i_nlink = 0;
	if (ri->vfs_inode.i_count == 0)
		ramfs_free(ri);
}

static int ramfs_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct ramfs_inode *c = find_child(RAMFS_I(dir), name);

	if (!c)
		return -ENOENT;
	*out = igrab(&c->vfs_inode);
	return 0;
}

/* Every new name: a node of that mode under dir, or -EEXIST. */
static int ramfs_add(struct inode *dir, const char *name, umode_t mode, dev_t dev,
		     struct ramfs_inode **out)
{
	struct ramfs_inode *d = RAMFS_I(dir), *ri;

	if (dir->i_nlink == 0)
		return -ENOENT; /* a removed directory takes no new names */
	if (find_child(d, name))
		return -EEXIST;
	ri = ramfs_new_inode(dir->i_sb, name, mode, dev);
	if (!ri)
		return -ENOMEM;
	ri->parent = RAMFS_I(igrab(dir));
	link_child(d, ri);
	*out = ri;
	return 0;
}

static int ramfs_create(struct inode *dir, const char *name, umode_t mode, struct inode **out)
{
	struct ramfs_inode *ri;
	int err = ramfs_add(dir, name, S_IFREG | (mode & 07777), 0, &ri);

	if (!err)
		*out = igrab(&ri->vfs_inode);
	return err;
}

static int ramfs_mkdir(struct inode *dir, const char *name, umode_t mode)
{
	struct ramfs_inode *ri;

	return ramfs_add(dir, name, S_IFDIR | (mode & 07777), 0, &ri);
}

static int ramfs_mknod(struct inode *dir, const char *name, umode_t mode, dev_t dev)
{
	struct ramfs_inode *ri;

	if (!S_ISCHR(mode) && !S_ISBLK(mode) && !S_ISREG(mode))
		return -EINVAL;
	return ramfs_add(dir, name, mode, dev, &ri);
}

static int ramfs_symlink(struct inode *dir, const char *name, const char *target)
{
	char *text = kstrdup(target);
	struct ramfs_inode *ri;
	int err;

	if (!text)
		return -ENOMEM;
	err = ramfs_add(dir, name, S_IFLNK | 0777, 0, &ri);
	if (err) {
		kfree(text);
		return err;
	}
	ri->link = text;
	ri->vfs_inode.i_size = (loff_t)strlen(text);
	return 0;
}

static int ramfs_unlink(struct inode *dir, const char *name)
{
	struct ramfs_inode *ri = find_child(RAMFS_I(dir), name);

	if (!ri)
		return -ENOENT;
	if (S_ISDIR(ri->vfs_inode.i_mode))
		return -EISDIR;
	detach(RAMFS_I(dir), ri);
	return 0;
}

static int ramfs_rmdir(struct inode *dir, const char *name)
{
	struct ramfs_inode *ri = find_child(RAMFS_I(dir), name);

	if (!ri)
		return -ENOENT;
	if (!S_ISDIR(ri->vfs_inode.i_mode))
		return -ENOTDIR;
	if (ri->nr_children)
		return -ENOTEMPTY;
	detach(RAMFS_I(dir), ri);
	return 0;
}

/* True if dir is ri or lies below it: a directory cannot move into itself. */
static bool is_below(struct ramfs_inode *dir, struct ramfs_inode *ri)
{
	for (; dir; dir = dir->parent)
		if (dir == ri)
			return true;
	return false;
}

static int check_replace(struct ramfs_inode *old, struct ramfs_inode *victim)
{
	bool old_dir = S_ISDIR(old->vfs_inode.i_mode);

	if (!victim || victim == old)
		return 0;
	if (old_dir && !S_ISDIR(victim->vfs_inode.i_mode))
		return -ENOTDIR;
	if (!old_dir && S_ISDIR(victim->vfs_inode.i_mode))
		return -EISDIR;
	return victim->nr_children ? -ENOTEMPTY : 0;
}

static int ramfs_rename(struct inode *odir, const char *oname, struct inode *ndir,
			const char *nname)
{
	struct ramfs_inode *od = RAMFS_I(odir), *nd = RAMFS_I(ndir), *ri, *victim;
	char *name;
	int err;

	ri = find_child(od, oname);
	if (!ri)
		return -ENOENT;
	if (S_ISDIR(ri->vfs_inode.i_mode) && is_below(nd, ri))
		return -EINVAL;
	victim = find_child(nd, nname);
	err = check_replace(ri, victim);
	if (err || victim == ri)
		return err;
	name = kstrdup(nname);
	if (!name)
		return -ENOMEM;
	if (victim)
		detach(nd, victim);
	unlink_child(od, ri);
	kfree(ri->name);
	ri->name = name;
	ri->parent = RAMFS_I(igrab(ndir));
	link_child(nd, ri);
	iput(odir); /* after: odir may be nd's ancestor, but it still has its link */
	return 0;
}

static int ramfs_readlink(struct inode *inode, char *buf, size_t size)
{
	struct ramfs_inode *ri = RAMFS_I(inode);
	size_t n = strlen(ri->link);

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(buf, ri->link, n + 1);
	return (int)n;
}

static int ramfs_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	struct rb_node *n = RAMFS_I(file->f_path.inode)->children.rb_node, *best = NULL;
	struct ramfs_inode *c;

	while (n) { /* the first name greater than after */
		c = rb_entry(n, struct ramfs_inode, node);
		if (!after || strcmp(c->name, after) > 0) {
			best = n;
			n = n->left;
		} else {
			n = n->right;
		}
	}
	if (!best)
		return 0;
	c = rb_entry(best, struct ramfs_inode, node);
	strscpy(out->name, c->name, sizeof(out->name));
	out->type = c->vfs_inode.i_mode & S_IFMT;
	return 1;
}

static struct inode *ramfs_get_parent(struct inode *inode)
{
	struct ramfs_inode *p = RAMFS_I(inode)->parent;

	return p ? igrab(&p->vfs_inode) : NULL;
}

static const char *ramfs_name(struct inode *inode)
{
	return RAMFS_I(inode)->name;
}

static int ramfs_statfs(struct super_block *sb, struct kstatfs *buf)
{
	struct ramfs_sb_info *s = sb->s_fs_info;

	buf->f_bsize = PAGE_SIZE;
	buf->f_blocks = s->max_pages;
	buf->f_bfree = s->max_pages - s->used_pages;
	return 0;
}

static const struct inode_operations ramfs_dir_inode_operations = {
	.lookup = ramfs_lookup,
	.create = ramfs_create,
	.mkdir = ramfs_mkdir,
	.rmdir = ramfs_rmdir,
	.unlink = ramfs_unlink,
	.symlink = ramfs_symlink,
	.mknod = ramfs_mknod,
	.rename = ramfs_rename,
	.setattr = simple_setattr,
};

static const struct inode_operations ramfs_file_inode_operations = {
	.truncate = ramfs_truncate,
	.setattr = simple_setattr,
};

static const struct inode_operations ramfs_symlink_inode_operations = {
	.readlink = ramfs_readlink,
	.setattr = simple_setattr,
};

static const struct inode_operations ramfs_special_inode_operations = {
	.setattr = simple_setattr,
};

static const struct file_operations ramfs_dir_operations = {
	.readdir = ramfs_readdir,
};

static const struct super_operations ramfs_super_operations = {
	.evict_inode = ramfs_evict_inode,
	.get_parent = ramfs_get_parent,
	.name = ramfs_name,
	.statfs = ramfs_statfs,
};

/* Everything below dir goes (the mount is gone, so nothing holds it). */
static void ramfs_clear(struct ramfs_inode *dir)
{
	struct rb_node *n;

	while ((n = rb_first(&dir->children))) {
		struct ramfs_inode *c = rb_entry(n, struct ramfs_inode, node);

		if (S_ISDIR(c->vfs_inode.i_mode))
			ramfs_clear(c);
		detach(dir, c);
	}
}

static void ramfs_kill_sb(struct super_block *sb)
{
	struct ramfs_inode *root = RAMFS_I(sb->s_root);

	ramfs_clear(root);
	root->vfs_inode.i_nlink = 0;
	iput(sb->s_root);
	kfree(sb->s_fs_info);
	free_super(sb);
}

/* tmpfs's default size: half the RAM. */
static unsigned long default_max_pages(void)
{
	struct page_stats st;

	page_get_stats(&st);
	return st.total / 2;
}

int ramfs_get_sb(struct file_system_type *fs, const char *dev_name, struct super_block **out)
{
	struct super_block *sb = alloc_super(fs, &ramfs_super_operations);
	struct ramfs_sb_info *s = kzalloc(sizeof(*s));
	struct ramfs_inode *root;

	if (!sb || !s)
		goto out_free;
	sb->s_fs_info = s;
	s->max_pages = default_max_pages();
	mutex_init(&s->data_lock);
	root = ramfs_new_inode(sb, "", S_IFDIR | 0755, 0);
	if (!root)
		goto out_free;
	sb->s_root = igrab(&root->vfs_inode);
	*out = sb;
	return 0;

out_free:
	kfree(s);
	if (sb)
		free_super(sb);
	return -ENOMEM;
}

struct file_system_type ramfs_fs_type = {
	.name = "rootfs",
	.get_sb = ramfs_get_sb,
	.kill_sb = ramfs_kill_sb,
};

struct file_system_type tmpfs_fs_type = {
	.name = "tmpfs",
	.get_sb = ramfs_get_sb,
	.kill_sb = ramfs_kill_sb,
};
