/* proc_fs.h: the small procfs at /proc (fs/proc/root.c). */
#ifndef KOBOLD_PROC_FS_H
#define KOBOLD_PROC_FS_H

/* Registers the "proc" filesystem and mounts it at /proc (after vfs_init). */
int proc_root_init(void);

#include <kobold/types.h>

/*
 * The files' show functions: each writes the whole text of its file into
 * buf (at most size bytes, a page) when the file is opened, and returns its
 * length.
 */
size_t proc_show_cmdline(char *buf, size_t size);	/* fs/proc/cmdline.c */
size_t proc_show_cpuinfo(char *buf, size_t size);	/* kernel/cpuinfo.c */
size_t proc_show_filesystems(char *buf, size_t size);	/* fs/super.c */
size_t proc_show_iomem(char *buf, size_t size);		/* kernel/resource.c */
size_t proc_show_ioports(char *buf, size_t size);	/* kernel/resource.c */
size_t proc_show_loadavg(char *buf, size_t size);	/* fs/proc/base.c */
size_t proc_show_lockdep_stats(char *buf, size_t size); /* kernel/lockdep.c */
size_t proc_show_stat(char *buf, size_t size);		/* fs/proc/base.c */
size_t proc_show_meminfo(char *buf, size_t size);	/* fs/proc/meminfo.c */
size_t proc_show_vmallocinfo(char *buf, size_t size);	/* mm/ioremap.c */
size_t proc_show_mounts(char *buf, size_t size);	/* fs/namespace.c */
size_t proc_show_uptime(char *buf, size_t size);	/* fs/proc/uptime.c */
size_t proc_show_version(char *buf, size_t size);	/* fs/proc/version.c */

struct inode;
struct vfs_dirent;
/* fs/proc/base.c: /proc/self and /proc/PID beside the fixed files. */
int proc_pid_lookup(struct inode *dir, const char *name, struct inode **out);
int proc_pid_readdir(const char *after, struct vfs_dirent *out);
bool proc_pid_inode(struct inode *inode);
void proc_pid_evict(struct inode *inode);
/* fs/proc/irq.c: /proc/irq, a directory per interrupt line with its smp_affinity. */
struct super_block;
struct inode *proc_irq_root_inode(struct super_block *sb);
struct inode *proc_irq_parent(struct inode *inode);
bool proc_irq_inode(struct inode *inode);
void proc_irq_evict(struct inode *inode);
/* fs/proc/proc_sysctl.c: /proc/sys (t NULL) and the ctl_table entries below it. */
struct ctl_table;
struct inode *proc_sys_new_inode(struct super_block *sb, struct ctl_table *t);
struct inode *proc_sys_root_inode(struct super_block *sb);
struct inode *proc_sys_parent(struct inode *inode);
bool proc_sys_inode(struct inode *inode);
void proc_sys_evict(struct inode *inode);

#endif
