/*
 * direct-io.c: O_DIRECT on block devices (Linux's fs/direct-io.c and
 * block/fops.c). Transfers skip any cache and must be aligned as Linux
 * requires: buffer, length and offset multiples of the logical block size
 * (512), else -EINVAL. The data moves through a bounce buffer of contiguous
 * pages, copied from user space before a write and to it after a read: a
 * request carries one buffer the device reaches by virt_to_phys, and a user
 * buffer's pages are scattered (docs/syscalls.md, "O_DIRECT").
 */
#include <asm/page.h>
#include <kobold/blkdev.h>
#include <kobold/direct_io.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/mm.h>
#include <kobold/uaccess.h>

#define DIO_ALIGN SECTOR_SIZE /* bdev_logical_block_size: every Kobold disk has 512-byte sectors */

int dio_check_align(unsigned long addr, size_t n, loff_t pos)
{
	if ((addr | n | (unsigned long)pos) & (DIO_ALIGN - 1) || pos < 0)
		return -EINVAL;
	return 0;
}

static unsigned int dio_pages(size_t n) { return (unsigned int)((n + PAGE_SIZE - 1) / PAGE_SIZE); }

void *dio_alloc(size_t n) { return alloc_pages(dio_pages(n ? n : 1)); }

void dio_free(void *buf, size_t n)
{
	if (buf)
		free_pages(buf, dio_pages(n ? n : 1));
}

/* One piece of at most DIO_MAX_BYTES through the bounce buffer k. */
static ssize_t dio_piece(struct file *f, char __user *buf, char *k, size_t n, bool write)
{
	ssize_t r;

	if (write)
		return copy_from_user(k, buf, n) ? -EFAULT : vfs_write(f, k, n);
	r = vfs_read(f, k, n);
	if (r > 0 && copy_to_user(buf, k, (size_t)r))
		r = -EFAULT;
	return r;
}

long dio_rw(struct file *f, char __user *buf, size_t count, bool write)
{
	size_t done = 0, chunk = min(count, (size_t)DIO_MAX_BYTES);
	char *k;
	int err;

	if (!access_ok(buf, count))
		return -EFAULT;
	err = dio_check_align((unsigned long)buf, count, f->f_pos);
	if (err || !count)
		return err;
	k = dio_alloc(chunk);
	if (!k)
		return -ENOMEM;
	while (done < count) {
		size_t n = min(count - done, chunk);
		ssize_t r = dio_piece(f, buf + done, k, n, write);

		if (r < 0) {
			err = (int)r;
			break;
		}
		done += (size_t)r;
		if ((size_t)r < n)
			break; /* the end of the disk */
	}
	dio_free(k, chunk);
	return done ? (long)done : err;
}
