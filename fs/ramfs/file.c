/*
 * file.c: a RAM file's data, in pages allocated as the file grows (a write
 * past the end leaves a hole that reads as zeros) and freed when it
 * shrinks or goes; each page is counted against the mount's size.
 */
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "internal.h"

static struct ramfs_sb_info *sbi(struct ramfs_inode *ri)
{
	return ri->vfs_inode.i_sb->s_fs_info;
}

/*
 * The largest file: the mount's size. 2.6's ramfs allowed MAX_LFS_FILESIZE (8 TiB on
 * i386) with holes; here every page index must fit the file's array of pages.
 */
static loff_t max_size(struct ramfs_inode *ri)
{
	return (loff_t)sbi(ri)->max_pages * PAGE_SIZE;
}

static int grow_slots(struct ramfs_inode *ri, unsigned long need)
{
	unsigned long n = ri->nr_slots ? ri->nr_slots : 4;
	char **slots;

	while (n < need)
		n *= 2;
	slots = kzalloc(n * sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	if (ri->pages)
		memcpy(slots, ri->pages, ri->nr_slots * sizeof(*slots));
	kfree(ri->pages);
	ri->pages = slots;
	ri->nr_slots = n;
	return 0;
}

/* The page for index i, allocated (zeroed) if it is a hole. */
static char *get_page(struct ramfs_inode *ri, unsigned long i)
{
	struct ramfs_sb_info *s = sbi(ri);
	char *page;

	if (i >= ri->nr_slots && grow_slots(ri, i + 1))
		return NULL;
	if (ri->pages[i])
		return ri->pages[i];
	if (s->used_pages >= s->max_pages)
		return NULL;
	page = alloc_pages(1);
	if (!page)
		return NULL;
	memset(page, 0, PAGE_SIZE);
	s->used_pages++;
	ri->vfs_inode.i_blocks += PAGE_SIZE / 512;
	ri->pages[i] = page;
	return page;
}

void ramfs_truncate_pages(struct ramfs_inode *ri, loff_t size)
{
	unsigned long keep = (unsigned long)((size + PAGE_SIZE - 1) / PAGE_SIZE);

	for (unsigned long i = keep; i < ri->nr_slots; i++) {
		if (!ri->pages[i])
			continue;
		free_pages(ri->pages[i], 1);
		ri->pages[i] = NULL;
		sbi(ri)->used_pages--;
		ri->vfs_inode.i_blocks -= PAGE_SIZE / 512;
	}
	if (keep == 0) {
		kfree(ri->pages);
		ri->pages = NULL;
		ri->nr_slots = 0;
	} else if (size % PAGE_SIZE && keep <= ri->nr_slots && ri->pages[keep - 1]) {
		/* the tail of the last page must read as zeros if the file grows again */
		memset(ri->pages[keep - 1] + size % PAGE_SIZE, 0, PAGE_SIZE - size % PAGE_SIZE);
	}
	ri->vfs_inode.i_size = size;
}

int ramfs_truncate(struct inode *inode, loff_t size)
{
	struct ramfs_inode *ri = RAMFS_I(inode);

	if (size > max_size(ri))
		return -EFBIG;
	mutex_lock(&sbi(ri)->data_lock);
	if (size > inode->i_size)
		inode->i_size = size; /* a hole up to the new end */
	else
		ramfs_truncate_pages(ri, size);
	mutex_unlock(&sbi(ri)->data_lock);
	return 0;
}

static ssize_t __ramfs_read(struct ramfs_inode *ri, char *buf, size_t n, loff_t *pos)
{
	size_t done = 0;

	if (*pos >= ri->vfs_inode.i_size)
		return 0;
	n = (size_t)min((loff_t)n, ri->vfs_inode.i_size - *pos);
	while (done < n) {
		unsigned long i = (unsigned long)(*pos / PAGE_SIZE);
		size_t off = (size_t)(*pos % PAGE_SIZE), chunk = min(n - done, PAGE_SIZE - off);

		if (i < ri->nr_slots && ri->pages[i])
			memcpy(buf + done, ri->pages[i] + off, chunk);
		else
			memset(buf + done, 0, chunk);
		done += chunk;
		*pos += (loff_t)chunk;
	}
	return (ssize_t)done;
}

static ssize_t __ramfs_write(struct ramfs_inode *ri, const char *buf, size_t n, loff_t *pos)
{
	size_t done = 0;

	if (!n)
		return 0;
	if (*pos >= max_size(ri))
		return -EFBIG; /* as 2.6's generic_write_checks past s_maxbytes */
	n = (size_t)min((loff_t)n, max_size(ri) - *pos);
	while (done < n) {
		unsigned long i = (unsigned long)(*pos / PAGE_SIZE);
		size_t off = (size_t)(*pos % PAGE_SIZE), chunk = min(n - done, PAGE_SIZE - off);
		char *page = get_page(ri, i);

		if (!page) {
			if (done)
				break; /* a short write: the caller sees the error at the next one */
			return sbi(ri)->used_pages >= sbi(ri)->max_pages ? -ENOSPC : -ENOMEM;
		}
		memcpy(page + off, buf + done, chunk);
		done += chunk;
		*pos += (loff_t)chunk;
		if (*pos > ri->vfs_inode.i_size)
			ri->vfs_inode.i_size = *pos;
	}
	return (ssize_t)done;
}

/* Under the mount's data_lock: another console, or a process, may write or truncate at once. */
static ssize_t ramfs_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	struct ramfs_inode *ri = RAMFS_I(file->f_path.inode);
	ssize_t ret;

	mutex_lock(&sbi(ri)->data_lock);
	ret = __ramfs_read(ri, buf, n, pos);
	mutex_unlock(&sbi(ri)->data_lock);
	return ret;
}

static ssize_t ramfs_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	struct ramfs_inode *ri = RAMFS_I(file->f_path.inode);
	ssize_t ret;

	mutex_lock(&sbi(ri)->data_lock);
	ret = __ramfs_write(ri, buf, n, pos);
	mutex_unlock(&sbi(ri)->data_lock);
	return ret;
}

const struct file_operations ramfs_file_operations = {
	.read = ramfs_read,
	.write = ramfs_write,
};
