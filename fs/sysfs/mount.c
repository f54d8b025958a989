/* mount.c: the root of the tree ("/") and the sysfs directory /sys below it. */
#include <kobold/errno.h>
#include <kobold/kobject.h>

#include "sysfs.h"

/* "/" is static and never freed; sysfs_put stops when it reaches it. */
struct sysfs_dirent sysfs_root_sd = {
	.count = ATOMIC_INIT(1),
	.type = SYSFS_ROOT,
	.mode = S_IRWXUGO & ~S_IWUGO,
	.name = "",
};
struct sysfs_dirent *sysfs_sys_sd;

struct sysfs_dirent *sysfs_root(void)
{
	return &sysfs_root_sd;
}

int sysfs_init(void)
{
	struct sysfs_dirent *sd;
	int err;

	if (sysfs_sys_sd)
		return 0;
	sd = sysfs_new_dirent("sys", SYSFS_DIR, S_IRWXUGO & ~S_IWUGO);
	if (!sd)
		return -ENOMEM;
	mutex_lock(&sysfs_mutex);
	err = sysfs_add_dirent(&sysfs_root_sd, sd);
	mutex_unlock(&sysfs_mutex);
	if (err) {
		sysfs_put(sd);
		return err;
	}
	sysfs_sys_sd = sd;
	return 0;
}
