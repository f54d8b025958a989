/* cpio.h: reading newc cpio archives (the initramfs format, as Linux's usr/gen_init_cpio writes them). */
#ifndef KOBOLD_CPIO_H
#define KOBOLD_CPIO_H

#include <kobold/types.h>

#define CPIO_HDR_LEN 110
#define CPIO_NAME_MAX 4096

/* One member: its header fields, its name (NUL-terminated, in the archive) and data. */
struct cpio_entry {
	const char *name;
	u32 ino, mode, uid, gid, nlink, mtime;
	u32 devmajor, devminor, rdevmajor, rdevminor;
	const u8 *data;
	u32 size;
};

/* Where and why a walk stopped short: set when cpio_walk returns -EINVAL. */
struct cpio_error {
	size_t offset;	   /* of the bad member's header */
	const char *why;   /* "bad magic", "truncated header", ... */
	unsigned int good; /* members handed to the callback before it */
};

/*
 * Calls fn for each member of the newc archive(s) in buf, in order: several
 * archives may follow one another, with NUL padding between (as Linux's
 * populate_rootfs reads them). 0 at the end; -EINVAL for a corrupt or
 * truncated one (err says where and why; every member before it was
 * handed over whole, none after); fn's own error stops the walk and is returned.
 */
int cpio_walk(const void *buf, size_t len, int (*fn)(const struct cpio_entry *e, void *arg),
	      void *arg, struct cpio_error *err);

#endif
