/*
 * file.c: a process's table of open files (Linux's fs/file.c): the lowest
 * free number for each new file, dup's copies of a file sharing its offset
 * (a file counts its holders), close-on-exec, and the copy fork makes.
 */
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/slab.h>
#include <kobold/string.h>

struct file *get_file(struct file *file)
{
	file->f_count++;
	return file;
}

void fput(struct file *file)
{
	if (file->f_count-- > 0)
		return;
	vfs_close(file);
}

struct files_struct *files_alloc(void)
{
	struct files_struct *f = kzalloc(sizeof(*f));

	if (f)
		f->count = 1;
	return f;
}

struct files_struct *dup_files(const struct files_struct *old)
{
	struct files_struct *f = files_alloc();

	if (!f)
		return NULL;
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		if (old->fd[i])
			f->fd[i] = get_file(old->fd[i]);
	memcpy(f->close_on_exec, old->close_on_exec, sizeof(f->close_on_exec));
	return f;
}

void put_files(struct files_struct *files)
{
	if (!files || --files->count > 0)
		return;
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		if (files->fd[i])
			fput(files->fd[i]);
	kfree(files);
}

void fd_set_cloexec(struct files_struct *files, int fd, bool on)
{
	if (on)
		files->close_on_exec[fd / 32] |= 1u << (fd % 32);
	else
		files->close_on_exec[fd / 32] &= ~(1u << (fd % 32));
}

bool fd_get_cloexec(const struct files_struct *files, int fd)
{
	return files->close_on_exec[fd / 32] & (1u << (fd % 32));
}

int fd_install_from(struct files_struct *files, struct file *file, int start, bool cloexec)
{
	for (int i = start < 0 ? 0 : start; i < NR_OPEN_DEFAULT; i++) {
		if (files->fd[i])
			continue;
		files->fd[i] = file;
		fd_set_cloexec(files, i, cloexec);
		return i;
	}
	return -EMFILE;
}

struct file *fget(struct files_struct *files, int fd)
{
	if (!files || fd < 0 || fd >= NR_OPEN_DEFAULT)
		return NULL;
	return files->fd[fd];
}

int fd_close(struct files_struct *files, int fd)
{
	struct file *file = fget(files, fd);

	if (!file)
		return -EBADF;
	files->fd[fd] = NULL;
	fd_set_cloexec(files, fd, false);
	fput(file);
	return 0;
}

int fd_replace(struct files_struct *files, int newfd, struct file *file, bool cloexec)
{
	if (newfd < 0 || newfd >= NR_OPEN_DEFAULT)
		return -EBADF;
	if (files->fd[newfd])
		fput(files->fd[newfd]);
	files->fd[newfd] = file;
	fd_set_cloexec(files, newfd, cloexec);
	return newfd;
}

void close_on_exec(struct files_struct *files)
{
	for (int i = 0; i < NR_OPEN_DEFAULT; i++)
		if (files->fd[i] && fd_get_cloexec(files, i))
			fd_close(files, i);
}
