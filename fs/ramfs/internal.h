/* internal.h: the RAM filesystem's node, shared by fs/ramfs/inode.c and file.c. */
#ifndef FS_RAMFS_INTERNAL_H
#define FS_RAMFS_INTERNAL_H

#include <kobold/fs.h>
#include <kobold/mutex.h>
#include <kobold/rbtree.h>

/* One file, directory, link or device node; the data lives in whole pages. */
struct ramfs_inode {
	struct inode vfs_inode;
	char *name;
	struct ramfs_inode *parent; /* its inode counted, until this one is freed */
	struct rb_node node;	    /* in parent->children, by name */
	struct rb_root children;
	unsigned long nr_children;
	char **pages; /* a regular file's data; NULL slots are holes (zeros) */
	unsigned long nr_slots;
	char *link; /* a symlink's text */
};

/* A mount's figures: df's size (half the RAM, as tmpfs's default) and use. */
struct ramfs_sb_info {
	unsigned long max_pages;
	unsigned long used_pages;
	unsigned long next_ino;
	/*
	 * Its files' data (pages, nr_slots, i_size, i_blocks) and used_pages,
	 * across read, write and truncate: 2.6 took the inode's i_mutex around
	 * a write and a truncate, and shmem's stat_lock around the count.
	 */
	struct mutex data_lock;
};

static inline struct ramfs_inode *RAMFS_I(struct inode *inode)
{
	return container_of(inode, struct ramfs_inode, vfs_inode);
}

extern const struct file_operations ramfs_file_operations;
void ramfs_truncate_pages(struct ramfs_inode *ri, loff_t size);
int ramfs_truncate(struct inode *inode, loff_t size);

#endif
