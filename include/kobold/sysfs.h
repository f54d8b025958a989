/*
 * sysfs.h: the in-memory tree under /sys that shows the device model.
 * Kernel code makes directories, attribute files and symlinks for its
 * kobjects (Linux 2.6's API); the shell walks and reads the tree through the
 * second half of this header.
 */
#ifndef KOBOLD_SYSFS_H
#define KOBOLD_SYSFS_H

#include <kobold/types.h>

#ifndef KOBOLD_HOST
typedef __PTRDIFF_TYPE__ ssize_t; /* int on i386, as Linux's */
#endif

#ifndef S_IRUSR
#define S_IRUSR 00400
#define S_IWUSR 00200
#define S_IXUSR 00100
#define S_IRGRP 00040
#define S_IWGRP 00020
#define S_IXGRP 00010
#define S_IROTH 00004
#define S_IWOTH 00002
#define S_IXOTH 00001
#endif
#define S_IRUGO (S_IRUSR | S_IRGRP | S_IROTH)
#define S_IWUGO (S_IWUSR | S_IWGRP | S_IWOTH)
#define S_IXUGO (S_IXUSR | S_IXGRP | S_IXOTH)
#define S_IRWXUGO (S_IRUGO | S_IWUGO | S_IXUGO)

#define SYSFS_PAGE_SIZE 4096 /* show() gets this much; store() at most one less */
#define SYSFS_PATH_MAX 4096  /* longest path sysfs_lookup accepts, with its NUL */
#define SYSFS_NAME_MAX 255
#define SYSFS_MAXSYMLINKS 40 /* symlinks followed in one lookup, as Linux */

struct kobject;
struct module;
struct sysfs_dirent;
struct sysfs_open_file;

struct attribute {
	const char *name;
	struct module *owner; /* pinned while the file is open (THIS_MODULE; NULL: built in) */
	umode_t mode;
};

struct attribute_group {
	const char *name;	  /* a subdirectory, or NULL for the kobject's own */
	struct attribute **attrs; /* NULL-terminated */
};

/* How a kobject type turns attribute reads and writes into its callbacks. */
struct sysfs_ops {
	ssize_t (*show)(struct kobject *kobj, struct attribute *attr, char *buf);
	ssize_t (*store)(struct kobject *kobj, struct attribute *attr,
			 const char *buf, size_t count);
};

/* ---- Kernel side (Linux 2.6's fs/sysfs API) ---- */

int sysfs_create_dir(struct kobject *kobj);
void sysfs_remove_dir(struct kobject *kobj); /* and everything below it */
int sysfs_create_file(struct kobject *kobj, const struct attribute *attr);
void sysfs_remove_file(struct kobject *kobj, const struct attribute *attr);
/* A link NAME in kobj's directory to target's; readlink shows it relative. */
int sysfs_create_link(struct kobject *kobj, struct kobject *target, const char *name);
void sysfs_remove_link(struct kobject *kobj, const char *name);
int sysfs_create_group(struct kobject *kobj, const struct attribute_group *grp);
void sysfs_remove_group(struct kobject *kobj, const struct attribute_group *grp);
/* Linux 5.10's: format a show() result into buf (one page); at: where to append. */
int sysfs_emit(char *buf, const char *fmt, ...) __printf(2, 3);
int sysfs_emit_at(char *buf, int at, const char *fmt, ...) __printf(3, 4);

/* Builds "/" and "/sys"; called once, first, by driver_init(). */
int sysfs_init(void);

/* ---- Shell side ---- */

/* Node types, as Linux's sysfs_dirent s_type values. */
#define SYSFS_ROOT 0x0001
#define SYSFS_DIR 0x0002
#define SYSFS_KOBJ_ATTR 0x0004
#define SYSFS_KOBJ_LINK 0x0020

/* "/", whose one child is "sys". Not counted: it lives forever. */
struct sysfs_dirent *sysfs_root(void);

/* Nodes are counted: whoever keeps a pointer across commands holds a reference. */
struct sysfs_dirent *sysfs_get(struct sysfs_dirent *sd);
void sysfs_put(struct sysfs_dirent *sd);

/*
 * Resolve path (absolute, or relative to cwd) to a node, returning a counted
 * reference in *out. "." and "..", repeated and trailing slashes are handled,
 * ".." at "/" stays there, symlinks inside the path are followed and the last
 * one only if follow_last (or the path ends in "/"). Errors: -ENOENT,
 * -ENOTDIR, -ELOOP (over SYSFS_MAXSYMLINKS links), -ENAMETOOLONG.
 */
int sysfs_lookup(struct sysfs_dirent *cwd, const char *path, bool follow_last,
		 struct sysfs_dirent **out);

/* Absolute path ("/sys/class/block"); length, or -ENAMETOOLONG if it did not fit. */
int sysfs_path(struct sysfs_dirent *sd, char *buf, size_t size);
/* A symlink's target relative to its directory ("../../../devices/..."). */
int sysfs_readlink(struct sysfs_dirent *sd, char *buf, size_t size);

/*
 * Children of a directory in name order (strcmp), each held: next() puts
 * the one it is given, so a loop to the end leaves nothing held (one that
 * stops early puts the last itself). A child removed meanwhile ends the walk.
 */
struct sysfs_dirent *sysfs_dirent_first_child(struct sysfs_dirent *dir);
struct sysfs_dirent *sysfs_dirent_next(struct sysfs_dirent *sd);

int sysfs_dirent_type(const struct sysfs_dirent *sd);	      /* SYSFS_DIR, ... */
umode_t sysfs_dirent_mode(const struct sysfs_dirent *sd);     /* permission bits */
const char *sysfs_dirent_name(const struct sysfs_dirent *sd); /* "" for "/" */
struct sysfs_dirent *sysfs_dirent_parent(const struct sysfs_dirent *sd);
bool sysfs_dirent_removed(const struct sysfs_dirent *sd); /* unlinked from the tree */

/*
 * Open attribute files, with 2.6's semantics. The handle pins the
 * attribute's owner module (rmmod refuses) and keeps its kobject alive;
 * once the attribute or its object is gone, read and write fail with
 * -ENODEV and the object's release runs at sysfs_close. Permissions are
 * checked at each read and write (-EACCES), and with flags (SYSFS_OPEN_READ,
 * SYSFS_OPEN_WRITE) at the open too, as a process's open(2) is.
 * sysfs_open returns 0 or -EISDIR (directory), -EINVAL (a link: look it up
 * with follow_last first), -ENODEV (removed, or its module is going),
 * -EACCES, -ENOMEM.
 */
int sysfs_open(struct sysfs_dirent *sd, int flags, struct sysfs_open_file **out);
#define SYSFS_OPEN_READ 1
#define SYSFS_OPEN_WRITE 2
/*
 * 2.6.15's check_perm, at open: for reading, a read bit in the mode and a
 * show() in the kobject type's sysfs_ops; for writing, a write bit and a
 * store(); else -EACCES. flags as sysfs_open's.
 */
int sysfs_check_perm(struct sysfs_open_file *of, int flags);
/*
 * Up to size bytes from the file's position; 0 at the end. The first read
 * (and the first after a write) calls show() once; the others are served
 * from that snapshot, so a value read in pieces is never torn.
 */
ssize_t sysfs_read(struct sysfs_open_file *of, char *buf, size_t size);
/*
 * store() of a NUL-terminated copy of at most SYSFS_PAGE_SIZE - 1 bytes: a
 * longer write is cut there, and store()'s count (short) tells the caller
 * to write the rest again, as write(2) callers do.
 */
ssize_t sysfs_write(struct sysfs_open_file *of, const char *buf, size_t len);
void sysfs_close(struct sysfs_open_file *of);
struct sysfs_dirent *sysfs_open_file_dirent(struct sysfs_open_file *of);
/*
 * The keys a uevent attribute stands for, read even where the file itself
 * is write-only (a class device's, as 2.6.15-2.6.25): for the in-kernel
 * udev and udevadm, as udev kept them in its database. 0 or a -errno.
 */
int sysfs_read_uevent(struct sysfs_dirent *sd, char *buf, size_t size);

/* Name comparisons made by directory searches so far (for the O(log n) test). */
unsigned long sysfs_name_compares(void);

#endif
