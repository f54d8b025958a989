/*
 * full_write.c: the shell's write loop, as coreutils' full_write(): what a
 * write(2) caller does with a short count.
 */
#include <kobold/errno.h>
#include <kobold/shell_fs.h>

ssize_t shell_write_all(struct file *file, const char *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = vfs_write(file, buf + done, len - done);

		if (n < 0)
			return n;
		if (n == 0)
			return -ENOSPC;
		done += (size_t)n;
	}
	return (ssize_t)done;
}
