/* proc_fs.h: the small procfs at /proc (fs/proc/root.c). */
#ifndef KOBOLD_PROC_FS_H
#define KOBOLD_PROC_FS_H

/* Registers the "proc" filesystem and mounts it at /proc (after vfs_init). */
int proc_root_init(void);

#endif
