/*
 * read_write.c: read, write (at once or asynchronously), seek and readdir on
 * an open file, through its f_op; user buffers straight to a driver whose
 * read and write take them (FOP_USER_BUFFERS).
 */
#include <kobold/aio.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/thread_info.h>
#include <kobold/uaccess.h>

static ssize_t rw_verify(struct file *f, bool write)
{
	unsigned int mode = f->f_flags & O_ACCMODE;

	if (mode == (write ? O_RDONLY : O_WRONLY))
		return -EBADF;
	if (!write && S_ISDIR(f->f_path.inode->i_mode))
		return -EISDIR;
	if (write ? !f->f_op->write : !f->f_op->read)
		return -EINVAL;
	if (write && (f->f_flags & O_APPEND))
		f->f_pos = f->f_path.inode->i_size;
	return 0;
}

static ssize_t do_rw(struct file *f, char *buf, size_t n, bool write)
{
	ssize_t r = rw_verify(f, write);

	if (r)
		return r;
	return write ? f->f_op->write(f, buf, n, &f->f_pos) : f->f_op->read(f, buf, n, &f->f_pos);
}

/*
 * A kernel buffer for a driver that takes user pointers: its copy_to_user
 * and copy_from_user accept kernel addresses meanwhile (2.6's
 * set_fs(KERNEL_DS) around vfs_read in kernel_read and its like).
 */
static ssize_t kernel_rw(struct file *f, char *buf, size_t n, bool write)
{
	struct thread_info *ti = current_thread_info();
	bool old = ti->uaccess_kernel;
	ssize_t r;

	if (!(f->f_op->fop_flags & FOP_USER_BUFFERS))
		return do_rw(f, buf, n, write);
	ti->uaccess_kernel = true;
	r = do_rw(f, buf, n, write);
	ti->uaccess_kernel = old;
	return r;
}

ssize_t vfs_read(struct file *f, char *buf, size_t n) { return kernel_rw(f, buf, n, false); }

ssize_t vfs_write(struct file *f, const char *buf, size_t n)
{
	return kernel_rw(f, (char *)buf, n, true);
}

ssize_t vfs_read_user(struct file *f, char __user *buf, size_t n) { return do_rw(f, buf, n, false); }

ssize_t vfs_write_user(struct file *f, const char __user *buf, size_t n)
{
	return do_rw(f, (char *)buf, n, true);
}

bool file_can_aio(struct file *f, bool write)
{
	unsigned int mode = f->f_flags & O_ACCMODE;

	if (write)
		return mode != O_RDONLY && f->f_op->aio_write;
	return mode != O_WRONLY && f->f_op->aio_read;
}

ssize_t vfs_aio_read(struct kiocb *iocb, char *buf, size_t n, loff_t pos)
{
	if (!file_can_aio(iocb->ki_filp, false))
		return -EINVAL;
	return iocb->ki_filp->f_op->aio_read(iocb, buf, n, pos);
}

ssize_t vfs_aio_write(struct kiocb *iocb, const char *buf, size_t n, loff_t pos)
{
	if (!file_can_aio(iocb->ki_filp, true))
		return -EINVAL;
	return iocb->ki_filp->f_op->aio_write(iocb, buf, n, pos);
}

void vfs_aio_commit(struct file *f)
{
	if (f->f_op->aio_commit)
		f->f_op->aio_commit(f);
}

loff_t vfs_llseek(struct file *f, loff_t pos)
{
	if (f->f_op->llseek)
		return f->f_op->llseek(f, pos, SEEK_SET);
	if (pos < 0)
		return -EINVAL;
	f->f_pos = pos;
	return pos;
}

/* The next name: 1, or 0 at the end; resumes after the last name returned. */
static int __vfs_readdir(struct file *f, struct vfs_dirent *out)
{
	char *last;
	int r;

	if (!S_ISDIR(f->f_path.inode->i_mode) || !f->f_op->readdir)
		return -ENOTDIR;
	r = f->f_op->readdir(f, f->f_dirpos, out);
	if (r <= 0)
		return r;
	last = kstrdup(out->name);
	if (!last)
		return -ENOMEM;
	kfree(f->f_dirpos);
	f->f_dirpos = last;
	return 1;
}

int vfs_readdir(struct file *f, struct vfs_dirent *out)
{
	int ret;

	vfs_lock();
	ret = __vfs_readdir(f, out);
	vfs_unlock();
	return ret;
}
