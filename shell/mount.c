/*
 * mount.c: mount, umount and df, in util-linux's and coreutils' formats:
 * "SOURCE on DIR type TYPE (rw)" for each mount, and each filesystem's
 * size, use and room in 1K-blocks.
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/string.h>

/* Where mnt is mounted, in dir (PATH_MAX bytes, the caller's: consoles run this at once). */
static const char *mount_dir(struct vfsmount *mnt, char *dir)
{
	struct path p = { mnt, mnt->mnt_root };

	if (vfs_path_name(&p, dir, PATH_MAX) < 0)
		return "?";
	return dir;
}

static void print_mount(struct vfsmount *mnt, void *arg)
{
	char dir[PATH_MAX];

	sh_printf("%s on %s type %s (rw)\n", mnt->mnt_devname, mount_dir(mnt, dir),
		  mnt->mnt_sb->s_type->name);
}

/* util-linux's messages for what do_mount refused. */
static int mount_failed(const char *type, const char *target, int err)
{
	if (err == -ENODEV)
		sh_err("mount: %s: unknown filesystem type '%s'.\n", target, type);
	else if (err == -ENOENT)
		sh_err("mount: %s: mount point does not exist.\n", target);
	else if (err == -ENOTDIR)
		sh_err("mount: %s: mount point is not a directory.\n", target);
	else
		sh_err("mount: %s: %s.\n", target, kstrerror(err));
	return 32; /* mount(8)'s "mount failure" */
}

static int cmd_mount(int argc, char **argv)
{
	int err;

	if (argc == 1) {
		vfs_for_each_mount(print_mount, NULL);
		return 0;
	}
	if (argc != 5 || strcmp(argv[1], "-t") != 0) {
		sh_err("usage: mount [-t TYPE SOURCE DIR]\n");
		return 1;
	}
	err = do_mount(shell_cwd(), argv[3], argv[4], argv[2]);
	return err ? mount_failed(argv[2], argv[4], err) : 0;
}
SHELL_COMMAND("mount", "[-t TYPE SOURCE DIR]", "list the mounts, or mount a filesystem on DIR",
	      cmd_mount);

static int cmd_umount(int argc, char **argv)
{
	int err;

	if (argc != 2) {
		sh_err("usage: umount DIR\n");
		return 1;
	}
	err = do_umount(shell_cwd(), argv[1]);
	if (err == -EINVAL)
		sh_err("umount: %s: not mounted.\n", argv[1]);
	else if (err == -EBUSY)
		sh_err("umount: %s: target is busy.\n", argv[1]);
	else if (err == -ENOENT)
		sh_err("umount: %s: no mount point specified.\n", argv[1]);
	else if (err)
		sh_err("umount: %s: %s.\n", argv[1], kstrerror(err));
	return err ? 32 : 0;
}
SHELL_COMMAND("umount", "DIR", "unmount the filesystem mounted on DIR", cmd_umount);

static void print_df(struct vfsmount *mnt, void *arg)
{
	unsigned long size, used, avail;
	char dir[PATH_MAX];
	struct kstatfs s;

	if (vfs_statfs(mnt, &s))
		return;
	size = s.f_blocks * (s.f_bsize / 1024);
	avail = s.f_bfree * (s.f_bsize / 1024);
	used = size - avail;
	sh_printf("%-14s %9lu %7lu %9lu ", mnt->mnt_devname, size, used, avail);
	if (size)
		sh_printf("%3lu%% %s\n", (used * 100 + size - 1) / size, mount_dir(mnt, dir));
	else
		sh_printf("   - %s\n", mount_dir(mnt, dir));
}

static int cmd_df(int argc, char **argv)
{
	if (argc > 1) {
		sh_err("usage: df\n");
		return 1;
	}
	sh_printf("Filesystem     1K-blocks    Used Available Use%% Mounted on\n");
	vfs_for_each_mount(print_df, NULL);
	return 0;
}
SHELL_COMMAND("df", "", "size, use and room of each mounted filesystem, in 1K-blocks", cmd_df);
