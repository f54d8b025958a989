/*
 * files.c: open, read, write, close and fds: files held open across
 * commands, to watch an object outlive its unregistration and its module
 * stay pinned (an attribute, a /dev node). Each read continues where the
 * last one stopped; for an attribute, in the snapshot that the first read's
 * show() made (2.6's sysfs).
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

#define MAX_FDS SHELL_MAX_FDS
#define FIRST_FD 3 /* 0-2 are the console, as in a Unix process */

static struct shell_file *get_fd(const char *cmd, const char *arg)
{
	struct shell_file *fds = shell_files_current()->fd;
	unsigned int fd;

	if (kstrtouint(arg, 10, &fd) || fd < FIRST_FD || fd >= FIRST_FD + MAX_FDS ||
	    !fds[fd - FIRST_FD].of) {
		sh_err("%s: %s: %s\n", cmd, arg, kstrerror(-EBADF));
		return NULL;
	}
	return &fds[fd - FIRST_FD];
}

static void close_fd(struct shell_file *f)
{
	vfs_close(f->of); /* may run the object's release */
	kfree(f->path);
	f->of = NULL;
	f->path = NULL;
}

void shell_files_exit(struct shell_files *files)
{
	for (int i = 0; i < MAX_FDS; i++)
		if (files->fd[i].of)
			close_fd(&files->fd[i]);
}

/* Read and write if it may, else the one it may, as a shell's exec 3<> would try. */
static int open_rw(const char *path, struct file **out)
{
	int err = vfs_open(shell_cwd(), path, O_RDWR, 0, out);

	if (err == -EACCES || err == -EROFS || err == -EISDIR)
		err = vfs_open(shell_cwd(), path, O_RDONLY, 0, out);
	if (err == -EACCES) /* write-only, as a class device's uevent */
		err = vfs_open(shell_cwd(), path, O_WRONLY, 0, out);
	return err;
}

/* Opens path into f, remembering its absolute path for fds. */
static int open_into(struct shell_file *f, const char *path)
{
	char name[PATH_MAX]; /* on the stack: each console's open its own */
	int err = open_rw(path, &f->of);

	if (err)
		return err;
	if (vfs_path_name(&f->of->f_path, name, sizeof(name)) < 0)
		err = -ENAMETOOLONG;
	else if (!(f->path = kstrdup(name)))
		err = -ENOMEM;
	if (err) {
		vfs_close(f->of);
		f->of = NULL;
	}
	return err;
}

static int cmd_open(int argc, char **argv)
{
	struct shell_file *fds = shell_files_current()->fd, *f = NULL;
	int err;

	if (argc != 2) {
		sh_err("usage: open FILE\n");
		return 1;
	}
	for (int i = 0; i < MAX_FDS && !f; i++)
		if (!fds[i].of)
			f = &fds[i];
	err = f ? open_into(f, argv[1]) : -EMFILE;
	if (err) {
		sh_err("open: %s: %s\n", argv[1], kstrerror(err));
		return 1;
	}
	sh_printf("fd %d\n", (int)(f - fds) + FIRST_FD);
	return 0;
}
SHELL_COMMAND("open", "FILE", "open a file and keep it open (prints fd N)", cmd_open);

static int cmd_read(int argc, char **argv)
{
	struct shell_file *f;
	char *page;
	ssize_t n;

	if (argc != 2) {
		sh_err("usage: read FD\n");
		return 1;
	}
	f = get_fd("read", argv[1]);
	if (!f)
		return 1;
	page = kmalloc(SYSFS_PAGE_SIZE);
	n = page ? vfs_read(f->of, page, SYSFS_PAGE_SIZE) : -ENOMEM;
	if (n >= 0)
		sh_write(page, (size_t)n);
	kfree(page);
	if (n < 0) {
		sh_err("read: %s: %s\n", f->path, kstrerror((int)n));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("read", "FD", "read on from the last read (show() runs once per open)", cmd_read);

static int cmd_write(int argc, char **argv)
{
	char text[SHELL_LINE_MAX + 1]; /* the words, as the line held them */
	struct shell_file *f;
	size_t len = 0;
	ssize_t n;

	if (argc < 3) {
		sh_err("usage: write FD TEXT\n");
		return 1;
	}
	f = get_fd("write", argv[1]);
	if (!f)
		return 1;
	for (int i = 2; i < argc; i++)
		len += (size_t)scnprintf(text + len, sizeof(text) - len, "%s%s", argv[i],
					 i + 1 < argc ? " " : "\n");
	n = shell_write_all(f->of, text, len);
	if (n < 0) {
		sh_err("write: %s: %s\n", f->path, kstrerror((int)n));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("write", "FD TEXT", "write TEXT and a newline to an open file", cmd_write);

static int cmd_close(int argc, char **argv)
{
	struct shell_file *f;

	if (argc != 2) {
		sh_err("usage: close FD\n");
		return 1;
	}
	f = get_fd("close", argv[1]);
	if (!f)
		return 1;
	close_fd(f);
	return 0;
}
SHELL_COMMAND("close", "FD", "close an open file (a pending release runs now)", cmd_close);

static int cmd_fds(int argc, char **argv)
{
	struct shell_file *fds = shell_files_current()->fd;

	for (int i = 0; i < MAX_FDS; i++) {
		if (!fds[i].of)
			continue;
		sh_printf("%d %s%s\n", i + FIRST_FD, fds[i].path,
			  shell_file_deleted(fds[i].of) ? " (deleted)" : "");
	}
	return 0;
}
SHELL_COMMAND("fds", "", "list the open files", cmd_fds);
