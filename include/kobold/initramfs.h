/* initramfs.h: the files of the source tree's etc/, built into the kernel and put in /etc at boot. */
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

/* Writes every file of the table into the RAM filesystem (and its directories); 0 or the first error. */
int populate_rootfs(void);

#endif
