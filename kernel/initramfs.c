/*
 * initramfs.c: the files of the source tree's etc/ (udev rules, say), built
 * into the kernel by scripts/gen-initramfs.sh, written into the RAM
 * filesystem at boot, as Linux's populate_rootfs() unpacks the initramfs
 * that CONFIG_INITRAMFS_SOURCE built into the image.
 */
#include <kobold/initramfs.h>

#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
#include <kobold/string.h>

/* Each directory above path, from the top: "/etc/udev", then "/etc/udev/rules.d". */
static int make_parents(const char *path)
{
	char dir[128];
	int err;

	if (strlen(path) >= sizeof(dir))
		return -ENAMETOOLONG;
	for (const char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		memcpy(dir, path, p - path);
		dir[p - path] = '\0';
		err = vfs_mkdir(NULL, dir, 0755);
		if (err && err != -EEXIST)
			return err;
	}
	return 0;
}

static int write_file(const struct initramfs_file *f)
{
	struct file *file;
	ssize_t n;
	int err = make_parents(f->path);

	if (!err)
		err = vfs_open(NULL, f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644, &file);
	if (err)
		return err;
	n = vfs_write(file, f->data, f->size);
	vfs_close(file);
	if (n < 0)
		return (int)n;
	return n == (ssize_t)f->size ? 0 : -ENOSPC;
}

int populate_rootfs(void)
{
	int err = 0, first = 0;

	for (const struct initramfs_file *f = initramfs_files; f->path; f++) {
		err = write_file(f);
		if (err)
			pr_err("initramfs: %s: %s\n", f->path, kstrerror(err));
		first = first ?: err;
	}
	return first;
}
