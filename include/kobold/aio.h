/* aio.h: one asynchronous read or write on an open file (Linux 2.6's kiocb and aio_read/aio_write). */
#ifndef KOBOLD_AIO_H
#define KOBOLD_AIO_H

#include <kobold/blkdev.h>
#include <kobold/fs.h>

#define KIOCB_INLINE_RQS 8 /* requests kept in the kiocb: 1 MiB in 128 KiB pieces */

/*
 * The caller fills ki_filp and ki_complete and calls vfs_aio_read or
 * vfs_aio_write. -EIOCBQUEUED: ki_complete(iocb, bytes or -errno) follows,
 * from the disk's interrupt; any other value is the result, and there is
 * no completion.
 */
struct kiocb {
	struct file *ki_filp;
	void (*ki_complete)(struct kiocb *iocb, ssize_t res);
	void *private; /* the caller's */
	/*
	 * More follow from the same submitter (Linux's plug): the device's
	 * notification waits for vfs_aio_commit, so that a batch costs one and
	 * adjacent requests can merge.
	 */
	bool ki_more;
	/* The block device's, while the kiocb is in flight. */
	size_t ki_nbytes;
	unsigned int ki_pending; /* requests not yet ended */
	int ki_error;
	struct request *ki_rqs; /* ki_rq, or an array for more pieces */
	struct request ki_rq[KIOCB_INLINE_RQS];
};

/* Not an error a caller sees: the kiocb is queued and will complete (Linux's value). */
#define EIOCBQUEUED 529

ssize_t vfs_aio_read(struct kiocb *iocb, char *buf, size_t n, loff_t pos);
ssize_t vfs_aio_write(struct kiocb *iocb, const char *buf, size_t n, loff_t pos);
/* Announces what was submitted on f with ki_more set (Linux's blk_finish_plug). */
void vfs_aio_commit(struct file *f);
/* True if the file takes asynchronous reads (write: writes). */
bool file_can_aio(struct file *f, bool write);

struct mm_struct;
/* Linux's fs.aio-nr and fs.aio-max-nr: events reserved by every io_setup, and the limit (65536). */
extern unsigned long aio_nr, aio_max_nr;
/* At the last user of an address space: destroys its contexts (fs/aio.c), waiting for their I/O. */
void exit_aio(struct mm_struct *mm);

#endif
