/* inode.c: counting inodes, and device nodes' inodes (init_special_inode). */
#include <kobold/fs.h>
#include <kobold/printk.h>

extern const struct file_operations def_chr_fops, def_blk_fops;

struct inode *igrab(struct inode *inode)
{
	if (inode)
		inode->i_count++; /* 0 is fine: a ramfs node that only its tree holds */
	return inode;
}

/* The last holder gone: the filesystem decides whether the object goes too. */
void iput(struct inode *inode)
{
	if (!inode)
		return;
	if (WARN(inode->i_count <= 0, "iput: inode %lu already released", inode->i_ino))
		return;
	if (--inode->i_count == 0 && inode->i_sb->s_op->evict_inode)
		inode->i_sb->s_op->evict_inode(inode);
}

void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev)
{
	inode->i_mode = mode;
	inode->i_rdev = rdev;
	if (S_ISCHR(mode))
		inode->i_fop = &def_chr_fops;
	else if (S_ISBLK(mode))
		inode->i_fop = &def_blk_fops;
}

bool same_inode(const struct inode *a, const struct inode *b)
{
	return a && b && a->i_sb == b->i_sb && a->i_ino == b->i_ino;
}
