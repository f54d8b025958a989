/*
 * syscalls.c: the file system calls (Linux's fs/open.c, read_write.c,
 * stat.c, readdir.c, namei.c, fcntl.c, ioctl.c entry points): each takes
 * its fd or path from user space, goes through the VFS with the caller's
 * cwd, and copies the result back. Data moves through a kernel buffer, as
 * the VFS's file operations take kernel pointers, except for a driver whose
 * read and write take the user's own (FOP_USER_BUFFERS).
 */
#include <kobold/direct_io.h>
#include <kobold/errno.h>
#include <kobold/genhd.h>
#include <kobold/fdtable.h>
#include <kobold/fs.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/sysfs.h>
#include <kobold/uaccess.h>

#define AT_FDCWD (-100)
#define AT_SYMLINK_NOFOLLOW 0x100
#define AT_REMOVEDIR 0x200
#define AT_EMPTY_PATH 0x1000
#define IO_CHUNK 65536
#define F_DUPFD 0
#define F_GETFD 1
#define F_SETFD 2
#define F_GETFL 3
#define F_SETFL 4
#define F_DUPFD_CLOEXEC 1030
#define SETFL_MASK (O_APPEND | O_NONBLOCK | O_DIRECT) /* what F_SETFL changes, as Linux */

static struct files_struct *files(void) { return current->user.files; }
static const struct path *cwd(void) { return &current->user.fs->pwd; }

int getname(const char __user *name, char **out)
{
	char *buf = kmalloc(PATH_MAX);
	long n;

	if (!buf)
		return -ENOMEM;
	n = strncpy_from_user(buf, name, PATH_MAX);
	if (n < 0 || n == PATH_MAX) {
		kfree(buf);
		return n < 0 ? (int)n : -ENAMETOOLONG;
	}
	if (!n) {
		kfree(buf);
		return -ENOENT;
	}
	*out = buf;
	return 0;
}

void putname(char *name) { kfree(name); }

/* The directory for an *at call: the cwd, or the directory open at dfd. */
static int at_dir(int dfd, const char *name, struct path *dir)
{
	struct file *f;

	if (dfd == AT_FDCWD || name[0] == '/') {
		*dir = *cwd();
		return 0;
	}
	f = fget(files(), dfd);
	if (!f)
		return -EBADF;
	if (!S_ISDIR(f->f_path.inode->i_mode))
		return -ENOTDIR;
	*dir = f->f_path;
	return 0;
}

/*
 * A sysfs attribute refuses at a process's open what 2.6.15's check_perm
 * refused (the kernel's shell finds out at the read or write).
 */
static int check_sysfs_mode(struct file *f)
{
	struct inode *inode = f->f_path.inode;
	unsigned int acc = f->f_flags & O_ACCMODE;

	if (!S_ISREG(inode->i_mode) || !sysfs_inode_dirent(inode))
		return 0;
	return sysfs_check_perm(f->private_data, (acc != O_WRONLY ? SYSFS_OPEN_READ : 0) |
							 (acc != O_RDONLY ? SYSFS_OPEN_WRITE : 0));
}

long sys_openat(int dfd, const char __user *filename, int flags, int mode)
{
	struct path dir;
	struct file *f;
	char *name;
	long err = getname(filename, &name);

	if (err)
		return err;
	err = at_dir(dfd, name, &dir);
	if (!err)
		err = vfs_open(&dir, name, (unsigned int)flags, (umode_t)(mode & ~current->user.fs->umask), &f);
	putname(name);
	if (err)
		return err;
	err = check_sysfs_mode(f);
	if (err) {
		vfs_close(f);
		return err;
	}
	err = fd_install_from(files(), f, 0, flags & O_CLOEXEC);
	if (err < 0)
		vfs_close(f);
	return err;
}

long sys_open(const char __user *filename, int flags, int mode)
{
	return sys_openat(AT_FDCWD, filename, flags, mode);
}

long sys_creat(const char __user *filename, int mode)
{
	return sys_open(filename, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

long sys_close(int fd) { return fd_close(files(), fd); }

static long file_read(struct file *f, char __user *buf, size_t count)
{
	size_t n = min(count, (size_t)IO_CHUNK);
	char *k;
	ssize_t r;

	if (file_is_direct(f))
		return dio_rw(f, buf, count, false);
	if (!access_ok(buf, count))
		return -EFAULT;
	if (f->f_op->fop_flags & FOP_USER_BUFFERS)
		return vfs_read_user(f, buf, count);
	k = kmalloc(n ? n : 1);
	if (!k)
		return -ENOMEM;
	r = vfs_read(f, k, n);
	if (r > 0 && copy_to_user(buf, k, (size_t)r))
		r = -EFAULT;
	kfree(k);
	return r;
}

static long file_write(struct file *f, const char __user *buf, size_t count)
{
	size_t n = min(count, (size_t)IO_CHUNK);
	char *k;
	ssize_t r;

	if (file_is_direct(f))
		return dio_rw(f, (char __user *)buf, count, true);
	if (!access_ok(buf, count))
		return -EFAULT;
	if (f->f_op->fop_flags & FOP_USER_BUFFERS)
		return vfs_write_user(f, buf, count);
	k = kmalloc(n ? n : 1);
	if (!k)
		return -ENOMEM;
	r = copy_from_user(k, buf, n) ? -EFAULT : vfs_write(f, k, n);
	kfree(k);
	return r;
}

long sys_read(int fd, char __user *buf, size_t count)
{
	struct file *f = fget(files(), fd);

	return f ? file_read(f, buf, count) : -EBADF;
}

long sys_write(int fd, const char __user *buf, size_t count)
{
	struct file *f = fget(files(), fd);
	long r;

	if (!f)
		return -EBADF;
	r = file_write(f, buf, count);
	if (r == -EPIPE)
		send_sig(13 /* SIGPIPE */, current);
	return r;
}

struct iovec {
	u32 base, len;
};

static long do_iov(int fd, const struct iovec __user *vec, unsigned long vlen, bool write)
{
	long total = 0, r;
	struct iovec iov;

	if (vlen > 1024)
		return -EINVAL;
	for (unsigned long i = 0; i < vlen; i++) {
		if (copy_from_user(&iov, &vec[i], sizeof(iov)))
			return -EFAULT;
		if (!iov.len)
			continue;
		r = write ? sys_write(fd, (const char __user *)iov.base, iov.len)
			  : sys_read(fd, (char __user *)iov.base, iov.len);
		if (r < 0)
			return total ? total : r;
		total += r;
		if ((u32)r < iov.len)
			break;
	}
	return total;
}

long sys_readv(int fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_iov(fd, vec, vlen, false);
}

long sys_writev(int fd, const struct iovec __user *vec, unsigned long vlen)
{
	return do_iov(fd, vec, vlen, true);
}

/* pread64/pwrite64: the I/O at the 64-bit offset hi:lo, the file's own position left as it was. */
/* As 2.6's sys_pread64: a negative offset EINVAL, a pipe or a socket ESPIPE (no FMODE_PREAD). */
static long do_pio(int fd, char __user *buf, size_t count, u32 lo, u32 hi, bool write)
{
	struct file *f = fget(files(), fd);
	loff_t old, pos = (loff_t)(((u64)hi << 32) | lo);
	long r;

	if (pos < 0)
		return -EINVAL;
	if (!f)
		return -EBADF;
	if (S_ISFIFO(f->f_path.inode->i_mode) || S_ISSOCK(f->f_path.inode->i_mode))
		return -ESPIPE;
	old = f->f_pos;
	f->f_pos = pos;
	r = write ? file_write(f, buf, count) : file_read(f, buf, count);
	f->f_pos = old;
	return r;
}

long sys_pread64(int fd, char __user *buf, size_t count, u32 lo, u32 hi)
{
	return do_pio(fd, buf, count, lo, hi, false);
}

long sys_pwrite64(int fd, const char __user *buf, size_t count, u32 lo, u32 hi)
{
	return do_pio(fd, (char __user *)buf, count, lo, hi, true);
}

/* The end SEEK_END counts from: a block device's is its capacity (Linux's block_llseek). */
static loff_t file_size(struct file *f)
{
	if (S_ISBLK(f->f_path.inode->i_mode) && f->private_data)
		return (loff_t)bdev_nr_sectors(f->private_data) * SECTOR_SIZE;
	return f->f_path.inode->i_size;
}

static long do_lseek(struct file *f, loff_t off, int whence, loff_t *res)
{
	loff_t pos;

	if (f->f_op->llseek) {
		pos = f->f_op->llseek(f, off, whence);
		*res = pos;
		return pos < 0 ? (long)pos : 0;
	}
	if (S_ISFIFO(f->f_path.inode->i_mode) || S_ISCHR(f->f_path.inode->i_mode))
		return S_ISFIFO(f->f_path.inode->i_mode) ? -ESPIPE : (*res = 0, 0);
	if (whence == 0)
		pos = off;
	else if (whence == 1)
		pos = f->f_pos + off;
	else if (whence == 2)
		pos = file_size(f) + off;
	else
		return -EINVAL;
	if (pos < 0)
		return -EINVAL;
	if (S_ISDIR(f->f_path.inode->i_mode) && pos == 0) {
		kfree(f->f_dirpos); /* rewinddir */
		f->f_dirpos = NULL;
	}
	*res = vfs_llseek(f, pos);
	return 0;
}

long sys_lseek(int fd, long off, int whence)
{
	struct file *f = fget(files(), fd);
	loff_t res;
	long err;

	if (!f)
		return -EBADF;
	err = do_lseek(f, off, whence, &res);
	return err ? err : (long)res;
}

long sys_llseek(int fd, unsigned long hi, unsigned long lo, loff_t __user *result, int whence)
{
	struct file *f = fget(files(), fd);
	loff_t res;
	long err;

	if (!f)
		return -EBADF;
	err = do_lseek(f, (loff_t)(((u64)hi << 32) | lo), whence, &res);
	if (err)
		return err;
	return put_user(res, result);
}

long sys_dup3(int oldfd, int newfd, int flags)
{
	struct file *f = fget(files(), oldfd);

	if (!f)
		return -EBADF;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd < 0 || newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	return fd_replace(files(), newfd, get_file(f), flags & O_CLOEXEC);
}

long sys_dup2(int oldfd, int newfd)
{
	if (oldfd == newfd)
		return fget(files(), oldfd) ? newfd : -EBADF;
	return sys_dup3(oldfd, newfd, 0);
}

static long dup_from(int fd, int start, bool cloexec)
{
	struct file *f = fget(files(), fd);
	long r;

	if (!f)
		return -EBADF;
	r = fd_install_from(files(), get_file(f), start, cloexec);
	if (r < 0)
		f->f_count--;
	return r;
}

long sys_dup(int fd) { return dup_from(fd, 0, false); }

long sys_fcntl64(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *f = fget(files(), fd);

	if (!f)
		return -EBADF;
	switch (cmd) {
	case F_DUPFD:
	case F_DUPFD_CLOEXEC:
		return dup_from(fd, (int)arg, cmd == F_DUPFD_CLOEXEC);
	case F_GETFD:
		return fd_get_cloexec(files(), fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		fd_set_cloexec(files(), fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:
		return (long)(f->f_flags & ~O_CLOEXEC);
	case F_SETFL:
		if ((arg & O_DIRECT) && !S_ISBLK(f->f_path.inode->i_mode))
			return -EINVAL; /* as open's O_DIRECT check */
		f->f_flags = (f->f_flags & ~SETFL_MASK) | ((unsigned int)arg & SETFL_MASK);
		return 0;
	default:
		return -EINVAL;
	}
}

long sys_ioctl(int fd, unsigned int cmd, unsigned long arg)
{
	struct file *f = fget(files(), fd);

	if (!f)
		return -EBADF;
	if (!f->f_op->unlocked_ioctl)
		return -ENOTTY;
	return f->f_op->unlocked_ioctl(f, cmd, arg);
}

/* Linux i386's struct stat64 (arch/x86/include/uapi/asm/stat.h). */
struct stat64 {
	u64 st_dev;
	u8 pad0[4];
	u32 st_ino32;
	u32 st_mode, st_nlink, st_uid, st_gid;
	u64 st_rdev;
	u8 pad3[4];
	s64 st_size;
	u32 st_blksize;
	u64 st_blocks;
	u32 st_atime, st_atime_nsec, st_mtime, st_mtime_nsec, st_ctime, st_ctime_nsec;
	u64 st_ino;
} __packed;

/* new_encode_dev: 12 bits of major, 20 of minor, as glibc's makedev reads them. */
static u32 encode_dev(dev_t dev)
{
	return (MINOR(dev) & 0xff) | (MAJOR(dev) << 8) | ((MINOR(dev) & ~0xffu) << 12);
}

static long put_stat64(const struct kstat *k, struct stat64 __user *out)
{
	struct stat64 s;

	memset(&s, 0, sizeof(s));
	s.st_dev = encode_dev(k->dev);
	s.st_ino = s.st_ino32 = (u32)k->ino;
	s.st_mode = k->mode;
	s.st_nlink = k->nlink;
	s.st_uid = k->uid;
	s.st_gid = k->gid;
	s.st_rdev = encode_dev(k->rdev);
	s.st_size = k->size;
	s.st_blksize = 4096;
	s.st_blocks = k->blocks;
	return copy_to_user(out, &s, sizeof(s)) ? -EFAULT : 0;
}

static long stat_at(int dfd, const char __user *filename, int flags, struct kstat *k)
{
	struct path dir;
	struct file *f;
	char *name;
	long err;

	if (flags & AT_EMPTY_PATH) {
		char c;

		if (get_user(c, filename))
			return -EFAULT;
		if (!c) {
			f = fget(files(), dfd);
			return f ? vfs_fstat(f, k) : -EBADF;
		}
	}
	err = getname(filename, &name);
	if (err)
		return err;
	err = at_dir(dfd, name, &dir);
	if (!err)
		err = vfs_stat(&dir, name, flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW, k);
	putname(name);
	return err;
}

long sys_fstatat64(int dfd, const char __user *filename, struct stat64 __user *st, int flags)
{
	struct kstat k;
	long err = stat_at(dfd, filename, flags, &k);

	return err ? err : put_stat64(&k, st);
}

long sys_stat64(const char __user *filename, struct stat64 __user *st)
{
	return sys_fstatat64(AT_FDCWD, filename, st, 0);
}

long sys_lstat64(const char __user *filename, struct stat64 __user *st)
{
	return sys_fstatat64(AT_FDCWD, filename, st, AT_SYMLINK_NOFOLLOW);
}

long sys_fstat64(int fd, struct stat64 __user *st)
{
	struct file *f = fget(files(), fd);
	struct kstat k;
	long err;

	if (!f)
		return -EBADF;
	err = vfs_fstat(f, &k);
	return err ? err : put_stat64(&k, st);
}

/* struct statx (include/uapi/linux/stat.h): 256 bytes. */
long sys_statx(int dfd, const char __user *filename, int flags, unsigned int mask,
	       void __user *buf)
{
	u8 s[256];
	struct kstat k;
	long err = stat_at(dfd, filename, flags, &k);
	u32 v;
	u16 mode = (u16)k.mode;
	u64 q;

	if (err)
		return err;
	memset(s, 0, sizeof(s));
	v = 0x7ff; /* STATX_BASIC_STATS */
	memcpy(s + 0, &v, 4);
	v = 4096;
	memcpy(s + 4, &v, 4);
	memcpy(s + 16, &k.nlink, 4);
	memcpy(s + 20, &k.uid, 4);
	memcpy(s + 24, &k.gid, 4);
	memcpy(s + 28, &mode, 2);
	q = k.ino;
	memcpy(s + 32, &q, 8);
	memcpy(s + 40, &k.size, 8);
	q = k.blocks;
	memcpy(s + 48, &q, 8);
	v = MAJOR(k.rdev);
	memcpy(s + 128, &v, 4);
	v = MINOR(k.rdev);
	memcpy(s + 132, &v, 4);
	v = MAJOR(k.dev);
	memcpy(s + 136, &v, 4);
	v = MINOR(k.dev);
	memcpy(s + 140, &v, 4);
	return copy_to_user(buf, s, sizeof(s)) ? -EFAULT : 0;
}

static u8 dirent_type(umode_t mode) { return (u8)((mode & S_IFMT) >> 12); }

/* One linux_dirent64 at out: its length, or 0 if it does not fit in room. */
static size_t put_dirent64(char *out, size_t room, const char *name, u8 type, u64 ino, s64 off)
{
	size_t len = strlen(name), reclen = ALIGN_UP(19 + len + 1, 8);
	u16 rl = (u16)reclen;

	if (reclen > room)
		return 0;
	memset(out, 0, reclen);
	memcpy(out, &ino, 8);
	memcpy(out + 8, &off, 8);
	memcpy(out + 16, &rl, 2);
	out[18] = (char)type;
	memcpy(out + 19, name, len);
	return reclen;
}

long sys_getdents64(int fd, void __user *dirent, unsigned int count)
{
	struct file *f = fget(files(), fd);
	struct vfs_dirent *d;
	size_t used = 0, n;
	char *k, *saved;
	int r = 0;

	if (!f)
		return -EBADF;
	if (!S_ISDIR(f->f_path.inode->i_mode))
		return -ENOTDIR;
	k = kmalloc(count ? min(count, 65536u) : 1);
	d = kmalloc(sizeof(*d));
	if (!k || !d) {
		kfree(k);
		kfree(d);
		return -ENOMEM;
	}
	count = min(count, 65536u);
	while (f->f_pos < 2) { /* "." and "..", as every Linux directory lists them */
		n = put_dirent64(k + used, count - used, f->f_pos ? ".." : ".", 4, 1,
				 f->f_pos + 1);
		if (!n)
			goto out;
		used += n;
		f->f_pos++;
	}
	for (;;) {
		saved = f->f_dirpos ? kstrdup(f->f_dirpos) : NULL;
		r = vfs_readdir(f, d);
		if (r <= 0) {
			kfree(saved);
			break;
		}
		n = put_dirent64(k + used, count - used, d->name, dirent_type(d->type),
				 (u64)f->f_pos + 1, f->f_pos + 1);
		if (!n) { /* no room: it is the next call's first */
			kfree(f->f_dirpos);
			f->f_dirpos = saved;
			break;
		}
		kfree(saved);
		used += n;
		f->f_pos++;
	}
out:
	if (r < 0 && !used)
		used = (size_t)r;
	else if (!used && r > 0)
		used = (size_t)-EINVAL; /* the buffer is too small for one entry */
	else if ((long)used > 0 && copy_to_user(dirent, k, used))
		used = (size_t)-EFAULT;
	kfree(k);
	kfree(d);
	return (long)used;
}

typedef int (*path_op)(const struct path *dir, const char *name, unsigned long arg);

static long with_name_at(int dfd, const char __user *filename, path_op op, unsigned long arg)
{
	struct path dir;
	char *name;
	long err = getname(filename, &name);

	if (err)
		return err;
	err = at_dir(dfd, name, &dir);
	if (!err)
		err = op(&dir, name, arg);
	putname(name);
	return err;
}

static int op_mkdir(const struct path *d, const char *n, unsigned long mode)
{
	return vfs_mkdir(d, n, (umode_t)(mode & ~current->user.fs->umask));
}

static int op_rmdir(const struct path *d, const char *n, unsigned long unused)
{
	return vfs_rmdir(d, n);
}

static int op_unlink(const struct path *d, const char *n, unsigned long flags)
{
	return flags & AT_REMOVEDIR ? vfs_rmdir(d, n) : vfs_unlink(d, n);
}

static int op_mknod(const struct path *d, const char *n, unsigned long arg)
{
	const u32 *a = (const u32 *)arg; /* mode, dev */
	dev_t dev = MKDEV((a[1] >> 8) & 0xfff, (a[1] & 0xff) | ((a[1] >> 12) & 0xfff00));

	return vfs_mknod(d, n, (umode_t)a[0], dev);
}

static int op_access(const struct path *d, const char *n, unsigned long mode)
{
	struct kstat k;

	return vfs_stat(d, n, LOOKUP_FOLLOW, &k);
}

long sys_mkdirat(int dfd, const char __user *p, int mode)
{
	return with_name_at(dfd, p, op_mkdir, (unsigned long)mode);
}
long sys_mkdir(const char __user *p, int mode) { return sys_mkdirat(AT_FDCWD, p, mode); }
long sys_rmdir(const char __user *p) { return with_name_at(AT_FDCWD, p, op_rmdir, 0); }
long sys_unlinkat(int dfd, const char __user *p, int flags)
{
	return with_name_at(dfd, p, op_unlink, (unsigned long)flags);
}
long sys_unlink(const char __user *p) { return sys_unlinkat(AT_FDCWD, p, 0); }
long sys_mknodat(int dfd, const char __user *p, int mode, unsigned int dev)
{
	u32 a[2] = { (u32)mode & ~current->user.fs->umask, dev };

	return with_name_at(dfd, p, op_mknod, (unsigned long)a);
}
long sys_mknod(const char __user *p, int mode, unsigned int dev)
{
	return sys_mknodat(AT_FDCWD, p, mode, dev);
}
long sys_faccessat(int dfd, const char __user *p, int mode)
{
	return with_name_at(dfd, p, op_access, (unsigned long)mode);
}
long sys_faccessat2(int dfd, const char __user *p, int mode, int flags)
{
	return sys_faccessat(dfd, p, mode);
}
long sys_access(const char __user *p, int mode) { return sys_faccessat(AT_FDCWD, p, mode); }

/* Two user paths: rename, symlink. */
static long two_names(const char __user *a, const char __user *b, char **na, char **nb)
{
	long err = getname(a, na);

	if (err)
		return err;
	err = getname(b, nb);
	if (err)
		putname(*na);
	return err;
}

long sys_renameat(int odfd, const char __user *oldname, int ndfd, const char __user *newname)
{
	char *o, *n;
	long err = two_names(oldname, newname, &o, &n);

	if (err)
		return err;
	err = vfs_rename(cwd(), o, n); /* relative to the cwd: odfd/ndfd AT_FDCWD only */
	putname(o);
	putname(n);
	return err;
}

long sys_rename(const char __user *o, const char __user *n)
{
	return sys_renameat(AT_FDCWD, o, AT_FDCWD, n);
}

long sys_symlinkat(const char __user *target, int dfd, const char __user *linkpath)
{
	char *t, *l;
	struct path dir;
	long err = two_names(target, linkpath, &t, &l);

	if (err)
		return err;
	err = at_dir(dfd, l, &dir);
	if (!err)
		err = vfs_symlink(&dir, t, l);
	putname(t);
	putname(l);
	return err;
}

long sys_symlink(const char __user *t, const char __user *l)
{
	return sys_symlinkat(t, AT_FDCWD, l);
}

long sys_readlinkat(int dfd, const char __user *path, char __user *buf, int size)
{
	struct path dir;
	char *name, *k;
	long err;

	if (size <= 0)
		return -EINVAL;
	err = getname(path, &name);
	if (err)
		return err;
	k = kmalloc(PATH_MAX);
	err = k ? at_dir(dfd, name, &dir) : -ENOMEM;
	if (!err)
		err = vfs_readlink(&dir, name, k, PATH_MAX);
	if (err >= 0) {
		err = min(err, (long)size);
		if (copy_to_user(buf, k, (size_t)err))
			err = -EFAULT;
	}
	kfree(k);
	putname(name);
	return err;
}

long sys_readlink(const char __user *p, char __user *buf, int size)
{
	return sys_readlinkat(AT_FDCWD, p, buf, size);
}

static int set_cwd(const struct path *p)
{
	struct path *pwd = &current->user.fs->pwd;

	if (!S_ISDIR(p->inode->i_mode))
		return -ENOTDIR;
	path_get((struct path *)p);
	path_put(pwd);
	*pwd = *p;
	return 0;
}

long sys_chdir(const char __user *filename)
{
	struct path p;
	char *name;
	long err = getname(filename, &name);

	if (err)
		return err;
	err = vfs_path_lookup(cwd(), name, LOOKUP_FOLLOW, &p);
	putname(name);
	if (err)
		return err;
	err = set_cwd(&p);
	path_put(&p);
	return err;
}

long sys_fchdir(int fd)
{
	struct file *f = fget(files(), fd);

	return f ? set_cwd(&f->f_path) : -EBADF;
}

long sys_getcwd(char __user *buf, unsigned long size)
{
	char *k = kmalloc(PATH_MAX);
	long n;

	if (!k)
		return -ENOMEM;
	n = vfs_path_name(cwd(), k, PATH_MAX);
	if (n >= 0 && (unsigned long)n + 1 > size)
		n = -ERANGE;
	if (n >= 0) {
		n++;
		if (copy_to_user(buf, k, (size_t)n))
			n = -EFAULT;
	}
	kfree(k);
	return n;
}

long sys_umask(int mask)
{
	unsigned int old = current->user.fs->umask;

	current->user.fs->umask = (unsigned int)mask & 0777;
	return old;
}

long sys_truncate64(const char __user *path, u32 lo, u32 hi)
{
	char *name;
	long err = getname(path, &name);

	if (err)
		return err;
	err = vfs_truncate(cwd(), name, (loff_t)(((u64)hi << 32) | lo));
	putname(name);
	return err;
}

/* 32-bit lengths: a negative one stays negative (EINVAL), as 2.6's (long) cast. */
long sys_truncate(const char __user *path, long len)
{
	return sys_truncate64(path, (u32)len, len < 0 ? ~0u : 0);
}

long sys_ftruncate64(int fd, u32 lo, u32 hi)
{
	struct file *f = fget(files(), fd);

	return f ? vfs_ftruncate(f, (loff_t)(((u64)hi << 32) | lo)) : -EBADF;
}

long sys_ftruncate(int fd, long len)
{
	return sys_ftruncate64(fd, (u32)len, len < 0 ? ~0u : 0);
}

long sys_mount(const char __user *dev, const char __user *dir, const char __user *type,
	       unsigned long flags, const void __user *data)
{
	char *d = NULL, *m = NULL, *t = NULL;
	long err = getname(dir, &m);

	if (err)
		return err;
	if (dev && getname(dev, &d))
		d = NULL;
	err = type ? getname(type, &t) : -EINVAL;
	if (!err)
		err = do_mount(cwd(), d ? d : "none", m, t);
	putname(d);
	putname(m);
	putname(t);
	return err;
}

long sys_umount(const char __user *dir, int flags)
{
	char *name;
	long err = getname(dir, &name);

	if (err)
		return err;
	err = do_umount(cwd(), name);
	putname(name);
	return err;
}

long sys_oldumount(const char __user *dir) { return sys_umount(dir, 0); }

struct statfs64 {
	u32 f_type, f_bsize;
	u64 f_blocks, f_bfree, f_bavail, f_files, f_ffree;
	u32 f_fsid[2], f_namelen, f_frsize, f_flags, f_spare[4];
} __packed;

long sys_statfs64(const char __user *path, size_t sz, struct statfs64 __user *buf)
{
	struct statfs64 s;
	struct path p;
	struct kstatfs k;
	char *name;
	long err = getname(path, &name);

	if (err)
		return err;
	err = vfs_path_lookup(cwd(), name, LOOKUP_FOLLOW, &p);
	putname(name);
	if (err)
		return err;
	err = vfs_statfs(p.mnt, &k);
	path_put(&p);
	if (err)
		return err;
	memset(&s, 0, sizeof(s));
	s.f_type = 0x858458f6; /* RAMFS_MAGIC */
	s.f_bsize = s.f_frsize = (u32)k.f_bsize;
	s.f_blocks = k.f_blocks;
	s.f_bfree = s.f_bavail = k.f_bfree;
	s.f_namelen = NAME_MAX;
	return copy_to_user(buf, &s, min(sz, sizeof(s))) ? -EFAULT : 0;
}

long sys_fstatfs64(int fd, size_t sz, struct statfs64 __user *buf) { return -ENOSYS; }

/* sendfile: in_fd's bytes to out_fd through a kernel buffer (cat's fast path). */
long sys_sendfile64(int out_fd, int in_fd, loff_t __user *offset, size_t count)
{
	struct file *in = fget(files(), in_fd), *out = fget(files(), out_fd);
	size_t n = min(count, (size_t)IO_CHUNK);
	loff_t pos, saved = 0;
	ssize_t r, w = 0;
	char *k;

	if (!in || !out)
		return -EBADF;
	if (offset) {
		if (copy_from_user(&pos, offset, sizeof(pos)))
			return -EFAULT;
		saved = in->f_pos;
		in->f_pos = pos;
	}
	k = kmalloc(n ? n : 1);
	if (!k)
		return -ENOMEM;
	r = vfs_read(in, k, n);
	if (r > 0)
		w = vfs_write(out, k, (size_t)r);
	kfree(k);
	if (offset) {
		pos = in->f_pos - (r > 0 && w >= 0 && w < r ? r - w : 0);
		in->f_pos = saved;
		if (copy_to_user(offset, &pos, sizeof(pos)))
			return -EFAULT;
	} else if (r > 0 && w >= 0 && w < r) {
		in->f_pos -= r - w;
	}
	if (w == -EPIPE)
		send_sig(13 /* SIGPIPE */, current);
	return r <= 0 ? r : w;
}

/* ---- modes and owners (Linux's fs/open.c, kernel/uid16.c) ---- */

struct setattr_args {
	struct iattr attr;
	unsigned int lookup; /* LOOKUP_FOLLOW, or 0 for lchown's link itself */
};

static int op_setattr(const struct path *d, const char *n, unsigned long arg)
{
	struct setattr_args *a = (struct setattr_args *)arg;

	return vfs_setattr(d, n, a->lookup, &a->attr);
}

static void chmod_attr(struct iattr *attr, unsigned int mode)
{
	attr->ia_valid = ATTR_MODE;
	attr->ia_mode = (umode_t)(mode & S_IALLUGO);
}

/* -1 leaves an id as it is; a chown drops set-ID bits of a non-directory (fs/attr.c). */
static void chown_attr(struct iattr *attr, unsigned int user, unsigned int group)
{
	attr->ia_valid = ATTR_KILL_SUID | ATTR_KILL_SGID;
	if (user != (unsigned int)-1) {
		attr->ia_valid |= ATTR_UID;
		attr->ia_uid = user;
	}
	if (group != (unsigned int)-1) {
		attr->ia_valid |= ATTR_GID;
		attr->ia_gid = group;
	}
}

static long fd_setattr(int fd, struct iattr *attr)
{
	struct file *f = fget(files(), fd);

	return f ? vfs_fsetattr(f, attr) : -EBADF;
}

long sys_fchmodat(int dfd, const char __user *filename, unsigned int mode)
{
	struct setattr_args a = { .lookup = LOOKUP_FOLLOW };

	chmod_attr(&a.attr, mode);
	return with_name_at(dfd, filename, op_setattr, (unsigned long)&a);
}

long sys_chmod(const char __user *filename, unsigned int mode)
{
	return sys_fchmodat(AT_FDCWD, filename, mode);
}

long sys_fchmod(int fd, unsigned int mode)
{
	struct iattr attr;

	chmod_attr(&attr, mode);
	return fd_setattr(fd, &attr);
}

long sys_fchownat(int dfd, const char __user *filename, unsigned int user, unsigned int group,
		  int flags)
{
	struct setattr_args a = { .lookup = flags & AT_SYMLINK_NOFOLLOW ? 0 : LOOKUP_FOLLOW };
	char c;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	chown_attr(&a.attr, user, group);
	if (flags & AT_EMPTY_PATH) { /* as fstatat: the file open at dfd */
		if (get_user(c, filename))
			return -EFAULT;
		if (!c)
			return fd_setattr(dfd, &a.attr);
	}
	return with_name_at(dfd, filename, op_setattr, (unsigned long)&a);
}

long sys_chown(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, 0);
}

long sys_lchown(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_fchownat(AT_FDCWD, filename, user, group, AT_SYMLINK_NOFOLLOW);
}

long sys_fchown(int fd, unsigned int user, unsigned int group)
{
	struct iattr attr;

	chown_attr(&attr, user, group);
	return fd_setattr(fd, &attr);
}

/* The first calls' 16-bit ids (old_uid_t): only the low half counts, 0xffff is -1. */
static unsigned int id16(unsigned int id)
{
	id &= 0xffff;
	return id == 0xffff ? (unsigned int)-1 : id;
}

long sys_chown16(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_chown(filename, id16(user), id16(group));
}

long sys_lchown16(const char __user *filename, unsigned int user, unsigned int group)
{
	return sys_lchown(filename, id16(user), id16(group));
}

long sys_fchown16(int fd, unsigned int user, unsigned int group)
{
	return sys_fchown(fd, id16(user), id16(group));
}

/* Times: ramfs keeps none yet; accepted, as root may. */
long sys_utimensat(void) { return 0; }
long sys_fsync(int fd) { return fget(files(), fd) ? 0 : -EBADF; }
long sys_sync(void) { return 0; }
