/* internal.h: what the VFS's own files share (fs/namei.c, namespace.c, open.c). */
#ifndef FS_INTERNAL_H
#define FS_INTERNAL_H

#include <kobold/fs.h>

struct file_system_type *get_fs_type(const char *name);
bool path_is_mountpoint(const struct path *p);
void follow_mount(struct path *p);
bool follow_up(struct path *p);
/* The directory that holds name's last component, and that component in last. */
int lookup_parent(const struct path *cwd, const char *name, struct path *dir, char *last);
void fill_kstat(struct inode *inode, struct kstat *st);

#endif
