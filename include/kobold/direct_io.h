/* direct_io.h: O_DIRECT transfers of block devices between user buffers and the disk (fs/direct-io.c). */
#ifndef KOBOLD_DIRECT_IO_H
#define KOBOLD_DIRECT_IO_H

#include <kobold/fs.h>
#include <kobold/types.h>
#include <kobold/uaccess.h>

#define DIO_MAX_BYTES (1u << 20) /* one bounce buffer's worth: a read(2) moves at most this at once */

/* Opened with O_DIRECT (only block devices can be: fs/open.c). */
static inline bool file_is_direct(const struct file *f) { return f->f_flags & O_DIRECT; }

/* Linux's rule: buffer address, length and offset multiples of the logical block size; else -EINVAL. */
int dio_check_align(unsigned long addr, size_t n, loff_t pos);

/*
 * A bounce buffer: n bytes (rounded up to pages) of physically contiguous
 * low memory, which a request can carry whole; NULL if none.
 */
void *dio_alloc(size_t n);
void dio_free(void *buf, size_t n);

/* read(2)/write(2) of an O_DIRECT file at its position: bytes moved, or -errno. */
long dio_rw(struct file *f, char __user *buf, size_t count, bool write);

#endif
