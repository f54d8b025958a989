/*
 * vfs_lock.c: the VFS's own lock around its name operations (the path
 * walk, making and removing names, rename, open and close, mounts, the
 * inodes' and mounts' counts). Kobold's VFS has no dentry cache and no
 * per-directory lock, so one mutex keeps those whole; it nests in its
 * holder, since a name operation may start another (open of a device node
 * registers a partition's node). It sits where 2.6's VFS took a
 * directory's i_sem (i_mutex from 2.6.16): after the device model's locks
 * and udevd's, before sysfs (docs/locking.md).
 */
#include <kobold/fs.h>
#include <kobold/mutex.h>
#include <kobold/sched.h>

static DEFINE_MUTEX(vfs_mutex);
static struct task_struct *vfs_owner; /* only its holder ever finds itself here */
static int vfs_depth;

void vfs_lock(void)
{
	if (vfs_owner == current) {
		vfs_depth++;
		return;
	}
	mutex_lock(&vfs_mutex);
	vfs_owner = current;
	vfs_depth = 1;
}

void vfs_unlock(void)
{
	if (--vfs_depth)
		return;
	vfs_owner = NULL;
	mutex_unlock(&vfs_mutex);
}
