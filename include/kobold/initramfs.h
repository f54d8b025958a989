/* initramfs.h: the root filesystem's first files: the tree's etc/, built in, and the boot loader's cpio archives. */
#ifndef KOBOLD_INITRAMFS_H
#define KOBOLD_INITRAMFS_H

#include <kobold/types.h>

/* One file: its path in the VFS ("/etc/..."), its bytes (scripts/gen-initramfs.sh). */
struct initramfs_file {
	const char *path;
	const char *data;
	u32 size;
};

/* The table, ended by an entry with a NULL path. */
extern const struct initramfs_file initramfs_files[];

struct initramfs_stats {
	unsigned int unpacked; /* members now in the tree */
	unsigned int failed;   /* members the VFS refused (each named on the console) */
	unsigned int skipped;  /* members below /dev, /sys or /proc, mounted already */
};

/* A regular file at path (its directories made), replacing what was there. */
int initramfs_write_file(const char *path, const void *data, size_t size, unsigned int mode);

/*
 * Unpacks the newc cpio archive(s) in buf into "/", later members over
 * earlier ones. 0, or -EINVAL for a corrupt or truncated archive (said on
 * the console, naming @what; the members before it stay unpacked).
 */
int unpack_to_rootfs(const void *buf, size_t len, const char *what, struct initramfs_stats *st);

struct multiboot_info;
/* Notes the multiboot modules (before page_alloc_init reserves them). */
void initrd_save(const struct multiboot_info *mbi);

/* The built-in etc/ files, then each module's archive, in order; 0 or the first error. */
int populate_rootfs(void);

#endif
