/*
 * fdtable.h: a process's open files by number (fs/file.c), as Linux's
 * files_struct: each slot an open file and its close-on-exec flag; fork
 * copies the table (each file gains a reference), CLONE_FILES shares it.
 * And its fs_struct: the working directory and the umask.
 */
#ifndef KOBOLD_FDTABLE_H
#define KOBOLD_FDTABLE_H

#include <kobold/fs.h>
#include <kobold/types.h>

#define NR_OPEN_DEFAULT 256 /* RLIMIT_NOFILE: fds 0-255 */
#define O_NONBLOCK 04000
#define O_CLOEXEC 02000000
#define FD_CLOEXEC 1

struct files_struct {
	int count; /* tasks sharing it */
	struct file *fd[NR_OPEN_DEFAULT];
	u32 close_on_exec[NR_OPEN_DEFAULT / 32];
};

struct fs_struct {
	int count;
	struct path pwd; /* counted; mnt NULL until set */
	unsigned int umask;
};

struct files_struct *files_alloc(void);
/* A copy: every open file gains a reference. NULL: no memory. */
struct files_struct *dup_files(const struct files_struct *old);
void put_files(struct files_struct *files);
/* The lowest free fd >= start for file (which the table now holds): the fd, or -EMFILE. */
int fd_install_from(struct files_struct *files, struct file *file, int start, bool cloexec);
/* The file at fd, or NULL; not counted. */
struct file *fget(struct files_struct *files, int fd);
/* Closes fd: 0 or -EBADF. */
int fd_close(struct files_struct *files, int fd);
/* Puts file at newfd, closing what was there. */
int fd_replace(struct files_struct *files, int newfd, struct file *file, bool cloexec);
void fd_set_cloexec(struct files_struct *files, int fd, bool on);
bool fd_get_cloexec(const struct files_struct *files, int fd);
void close_on_exec(struct files_struct *files);
/* Another reference to an open file (dup, fork): the file stays open until the last close. */
struct file *get_file(struct file *file);
/* Drops a reference get_file took; the last one closes the file. */
void fput(struct file *file);

#endif
