/* vfs_helpers.h: reading a file through the VFS, shared by the VFS and initramfs tests. */
#ifndef TESTS_UNIT_VFS_HELPERS_H
#define TESTS_UNIT_VFS_HELPERS_H

#include <kobold/fs.h>

/* Reads up to size - 1 bytes of name into buf (NUL-terminated); the count or -errno. */
static inline ssize_t t_read(const char *name, char *buf, size_t size)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(NULL, name, O_RDONLY, 0, &f);

	buf[0] = '\0';
	if (err)
		return err;
	n = vfs_read(f, buf, size - 1);
	vfs_close(f);
	buf[n > 0 ? n : 0] = '\0';
	return n;
}

#endif
