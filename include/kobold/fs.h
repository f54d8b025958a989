/*
 * fs.h: the VFS: inodes, open files, filesystem types and the mount table
 * (a reduced include/linux/fs.h). Filesystems (ramfs/tmpfs, sysfs,
 * devtmpfs) fill in inode_operations and file_operations; the shell and
 * every other caller go through the vfs_* functions below.
 */
#ifndef KOBOLD_FS_H
#define KOBOLD_FS_H

#include <kobold/list.h>
#include <kobold/sysfs.h>
#include <kobold/types.h>

#ifndef KOBOLD_HOST
typedef s64 loff_t;
#endif

#ifndef S_IFMT
#define S_IFMT 0170000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#endif
#ifndef S_ISDIR
#define S_ISLNK(m) (((m) & S_IFMT) == S_IFLNK)
#define S_ISREG(m) (((m) & S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m) & S_IFMT) == S_IFDIR)
#define S_ISCHR(m) (((m) & S_IFMT) == S_IFCHR)
#define S_ISBLK(m) (((m) & S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#endif
#ifndef S_IFSOCK
#define S_IFSOCK 0140000
#endif
#ifndef S_ISSOCK
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)
#endif
#ifndef S_ISUID
#define S_ISUID 04000
#define S_ISGID 02000
#define S_ISVTX 01000
#define S_IXGRP 00010
#endif
#define S_IALLUGO 07777 /* what chmod may change: never the type bits */

/* open() flags, with Linux's values. */
#ifndef O_ACCMODE
#define O_RDONLY 00
#define O_WRONLY 01
#define O_RDWR 02
#define O_ACCMODE 03
#define O_CREAT 0100
#define O_EXCL 0200
#define O_TRUNC 01000
#define O_APPEND 02000
#define O_NONBLOCK 04000
#define O_DIRECT 040000 /* block devices only: no cache, aligned transfers (fs/direct-io.c) */
#define O_DIRECTORY 0200000
#endif

/* lseek()'s whence, Linux's values. */
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2

#define PATH_MAX 4096 /* with its NUL, as Linux */
#define NAME_MAX 255
#define MAX_NESTED_LINKS 8 /* a link's target naming a link: 2.6's limit */

struct file;
struct inode;
struct module;
struct super_block;
struct vfsmount;

/* One name read from a directory. */
struct vfs_dirent {
	char name[NAME_MAX + 1];
	umode_t type; /* S_IFDIR, S_IFREG, ... */
};

struct kstat {
	unsigned long ino;
	umode_t mode;
	unsigned int nlink;
	dev_t rdev;
	loff_t size;
	unsigned long blocks; /* 512-byte units, as stat(2) */
	dev_t dev;	      /* of the filesystem: 0:N, N the superblock's number */
	unsigned int uid, gid;
};

/* A change of an inode's attributes (2.6's struct iattr): what ia_valid names. */
#define ATTR_MODE 0x1
#define ATTR_UID 0x2
#define ATTR_GID 0x4
#define ATTR_KILL_SUID 0x800 /* chown of a non-directory: the set-ID bits go */
#define ATTR_KILL_SGID 0x1000

struct iattr {
	unsigned int ia_valid;
	umode_t ia_mode;
	unsigned int ia_uid, ia_gid;
};

struct kstatfs {
	unsigned long f_bsize;
	unsigned long f_blocks; /* total, in f_bsize units */
	unsigned long f_bfree;
};

struct inode_operations {
	/* The child name of dir, counted, or -ENOENT. */
	int (*lookup)(struct inode *dir, const char *name, struct inode **out);
	int (*create)(struct inode *dir, const char *name, umode_t mode, struct inode **out);
	int (*mkdir)(struct inode *dir, const char *name, umode_t mode);
	int (*rmdir)(struct inode *dir, const char *name);
	int (*unlink)(struct inode *dir, const char *name);
	int (*symlink)(struct inode *dir, const char *name, const char *target);
	int (*mknod)(struct inode *dir, const char *name, umode_t mode, dev_t dev);
	int (*rename)(struct inode *odir, const char *oname, struct inode *ndir,
		      const char *nname);
	/* A link's text into buf (NUL-terminated); its length. */
	int (*readlink)(struct inode *inode, char *buf, size_t size);
	int (*truncate)(struct inode *inode, loff_t size);
	/* Keeps a checked change (notify_change); without it the filesystem keeps no owners: -EPERM. */
	int (*setattr)(struct inode *inode, const struct iattr *attr);
};

struct kiocb;
struct poll_table_struct;
struct vm_area_struct;

/*
 * fop_flags: FOP_USER_BUFFERS says read and write take user pointers, as
 * every driver's did in Linux 2.6 (char __user *), to be reached only
 * through copy_to_user and copy_from_user. Without it they take kernel
 * pointers (the system calls copy through a kernel buffer).
 */
#define FOP_USER_BUFFERS 0x1

struct file_operations {
	struct module *owner; /* pinned while a file is open with these operations */
	unsigned int fop_flags;
	int (*open)(struct inode *inode, struct file *file);
	ssize_t (*read)(struct file *file, char *buf, size_t n, loff_t *pos);
	ssize_t (*write)(struct file *file, const char *buf, size_t n, loff_t *pos);
	/* Optional, asynchronous (<kobold/aio.h>): the result, or -EIOCBQUEUED and a completion. */
	ssize_t (*aio_read)(struct kiocb *iocb, char *buf, size_t n, loff_t pos);
	ssize_t (*aio_write)(struct kiocb *iocb, const char *buf, size_t n, loff_t pos);
	/* Optional: tells the device of what aio_read/aio_write held back (kiocb's ki_more). */
	void (*aio_commit)(struct file *file);
	/* The first entry whose name sorts after `after` (NULL: the first): 1, 0 at the end. */
	int (*readdir)(struct file *file, const char *after, struct vfs_dirent *out);
	int (*release)(struct inode *inode, struct file *file);
	/* Optional: a device's mmap: sets vma->vm_ops (its fault gives the pages), or an error. */
	int (*mmap)(struct file *file, struct vm_area_struct *vma);
	/* Optional: the new position for lseek(off, whence), or -EINVAL; without it, as always. */
	loff_t (*llseek)(struct file *file, loff_t off, int whence);
	/* Optional, for processes: a device's ioctl (-ENOTTY without), poll's ready mask. */
	long (*unlocked_ioctl)(struct file *file, unsigned int cmd, unsigned long arg);
	unsigned int (*poll)(struct file *file, struct poll_table_struct *wait); /* <kobold/poll.h> */
};

/*
 * An inode: counted by i_count (the holders: paths, open files, mounts).
 * When the count drops to 0 the filesystem's evict_inode decides whether
 * the object goes (ramfs frees a file only once it is unlinked too).
 */
struct inode {
	int i_count;
	umode_t i_mode;
	unsigned int i_uid, i_gid; /* owner and group (stat's st_uid, st_gid) */
	unsigned int i_nlink;
	dev_t i_rdev;
	loff_t i_size;
	unsigned long i_blocks; /* 512-byte units in use */
	unsigned long i_ino;
	struct super_block *i_sb;
	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	void *i_private;
};

struct super_operations {
	void (*evict_inode)(struct inode *inode);
	/* The directory that holds inode, counted; NULL at the filesystem's root. */
	struct inode *(*get_parent)(struct inode *inode);
	const char *(*name)(struct inode *inode); /* its name in that directory */
	int (*statfs)(struct super_block *sb, struct kstatfs *buf);
};

struct super_block {
	struct file_system_type *s_type;
	const struct super_operations *s_op;
	struct inode *s_root;	  /* counted */
	unsigned int s_dev_minor; /* stat's Device: 0,N */
	int s_active;		  /* mounts of it */
	void *s_fs_info;
};

struct file_system_type {
	const char *name;
	/* A superblock for a new mount (a new one, or a shared one with s_active taken). */
	int (*get_sb)(struct file_system_type *fs, const char *dev_name,
		      struct super_block **out);
	void (*kill_sb)(struct super_block *sb); /* the last mount is gone */
	struct list_head list;
};

struct vfsmount {
	struct list_head mnt_list;    /* in mount order */
	struct vfsmount *mnt_parent;  /* NULL for "/" */
	struct inode *mnt_mountpoint; /* in mnt_parent, counted */
	struct inode *mnt_root;	      /* counted */
	struct super_block *mnt_sb;
	int mnt_count; /* paths and files that hold it */
	char *mnt_devname;
};

struct path {
	struct vfsmount *mnt;
	struct inode *inode;
};

struct file {
	struct path f_path;
	const struct file_operations *f_op;
	unsigned int f_flags;
	loff_t f_pos;
	char *f_dirpos; /* readdir: the last name returned */
	void *private_data;
	int f_count; /* references beyond the opener's (dup, fork): fput closes at the last */
};

/* ---- for filesystems ---- */

int register_filesystem(struct file_system_type *fs);
void unregister_filesystem(struct file_system_type *fs);
/* A superblock with the next device number; s_active 1. */
struct super_block *alloc_super(struct file_system_type *type, const struct super_operations *op);
void free_super(struct super_block *sb);
struct inode *igrab(struct inode *inode);
void iput(struct inode *inode);
/* Device nodes: i_fop becomes the char or block device's open. */
void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev);
bool same_inode(const struct inode *a, const struct inode *b);
/* fs/attr.c: checks a change against the caller's ids, then the filesystem's setattr. */
int inode_change_ok(const struct inode *inode, struct iattr *attr);
int notify_change(struct inode *inode, struct iattr *attr);
/* A setattr for filesystems that keep the inode itself (ramfs, tmpfs): copies the change. */
int simple_setattr(struct inode *inode, const struct iattr *attr);

/* ---- character and block device nodes (fs/char_dev.c, fs/block_dev.c) ---- */

/* A range of char device numbers and the operations its nodes open with. */
struct cdev {
	const struct file_operations *ops;
	dev_t dev;
	unsigned int count;
	struct list_head list;
};

void cdev_init(struct cdev *cdev, const struct file_operations *fops);
/* 0, or -EBUSY if a number of the range is taken. */
int cdev_add(struct cdev *cdev, dev_t dev, unsigned int count);
void cdev_del(struct cdev *cdev);
/* Minors 0-255 of major (0: a free one, returned), as 2.6's register_chrdev. */
int register_chrdev(unsigned int major, const char *name, const struct file_operations *fops);
void unregister_chrdev(unsigned int major, const char *name);
/* The name a major was registered with, or NULL. */
const char *chrdev_name(unsigned int major);

/* /dev's nodes: made and removed by the kernel as devices with a dev_t come and go. */
int devtmpfs_create_node(const char *name, umode_t mode, dev_t devt);
int devtmpfs_delete_node(const char *name, dev_t devt);

/* ---- for callers: the shell, devtmpfs, tests ---- */

#define LOOKUP_FOLLOW 0x1 /* follow a symlink in the last component */

/* "/" (counted), after vfs_init. */
/* fs/vfs_lock.c: the VFS's name operations, whole; nests in its holder. */
void vfs_lock(void);
void vfs_unlock(void);

int vfs_root(struct path *out);
void path_get(struct path *p);
void path_put(struct path *p);
/*
 * Resolve name (absolute, or relative to cwd; NULL cwd: "/") across mounts.
 * "." and ".." (nothing goes above "/"), symlinks inside the path and the
 * last one with LOOKUP_FOLLOW (or a trailing "/"). -ENOENT, -ENOTDIR,
 * -ELOOP, -ENAMETOOLONG.
 */
int vfs_path_lookup(const struct path *cwd, const char *name, unsigned int flags,
		    struct path *out);
/* Absolute path of p into buf; its length or -ENAMETOOLONG. */
int vfs_path_name(const struct path *p, char *buf, size_t size);

int vfs_open(const struct path *cwd, const char *name, unsigned int flags, umode_t mode,
	     struct file **out);
int vfs_open_path(const struct path *p, unsigned int flags, struct file **out);
void vfs_close(struct file *file);
ssize_t vfs_read(struct file *file, char *buf, size_t n);
ssize_t vfs_write(struct file *file, const char *buf, size_t n);
/* A user buffer (below TASK_SIZE, checked by the caller) for a FOP_USER_BUFFERS file. */
ssize_t vfs_read_user(struct file *file, char *buf, size_t n);
ssize_t vfs_write_user(struct file *file, const char *buf, size_t n);
loff_t vfs_llseek(struct file *file, loff_t pos);
int vfs_readdir(struct file *file, struct vfs_dirent *out);
int vfs_fstat(struct file *file, struct kstat *st);

int vfs_stat(const struct path *cwd, const char *name, unsigned int flags, struct kstat *st);
int vfs_mkdir(const struct path *cwd, const char *name, umode_t mode);
int vfs_rmdir(const struct path *cwd, const char *name);
int vfs_unlink(const struct path *cwd, const char *name);
int vfs_symlink(const struct path *cwd, const char *target, const char *name);
int vfs_mknod(const struct path *cwd, const char *name, umode_t mode, dev_t dev);
int vfs_rename(const struct path *cwd, const char *oldname, const char *newname);
int vfs_readlink(const struct path *cwd, const char *name, char *buf, size_t size);
int vfs_truncate(const struct path *cwd, const char *name, loff_t size);
int vfs_ftruncate(struct file *f, loff_t size);
/* chmod and chown: notify_change on name (LOOKUP_FOLLOW: a link's target), or on an open file. */
int vfs_setattr(const struct path *cwd, const char *name, unsigned int flags, struct iattr *attr);
int vfs_fsetattr(struct file *file, struct iattr *attr);

int do_mount(const struct path *cwd, const char *dev_name, const char *dir, const char *type);
int do_umount(const struct path *cwd, const char *dir);
/* Each mount in mount order, as /proc/mounts lists them. */
void vfs_for_each_mount(void (*fn)(struct vfsmount *mnt, void *arg), void *arg);
int vfs_statfs(struct vfsmount *mnt, struct kstatfs *buf);

/* Mounts the RAM filesystem at "/" with /etc, /tmp, /mnt, then sysfs and devtmpfs. */
int vfs_init(void);

/* sysfs's node behind an inode of the sysfs mount (not counted), or NULL. */
struct sysfs_dirent *sysfs_inode_dirent(struct inode *inode);
extern struct file_system_type sysfs_fs_type;
extern struct file_system_type ramfs_fs_type, tmpfs_fs_type;
int ramfs_get_sb(struct file_system_type *fs, const char *dev_name, struct super_block **out);

#endif
