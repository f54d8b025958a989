/*
 * fileutils.c: the coreutils that make, move and remove names: stat, mkdir,
 * rmdir, rm, mv, ln -s, touch and mknod, with coreutils' messages. Each is one VFS
 * call (rm -r walks the tree with readdir).
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>

/* "CMD: VERB 'PATH': error", coreutils' form for a failed call on a name. */
static int fail_on(const char *cmd, const char *verb, const char *path, int err)
{
	sh_err("%s: %s '%s': %s\n", cmd, verb, path, kstrerror(err));
	return 1;
}

static const char *file_type(umode_t m)
{
	if (S_ISDIR(m))
		return "directory";
	if (S_ISLNK(m))
		return "symbolic link";
	if (S_ISCHR(m))
		return "character special file";
	if (S_ISBLK(m))
		return "block special file";
	return "regular file";
}

/* coreutils' name column: the shell reads no /etc/passwd, so only root has a name. */
static const char *id_name(unsigned int id)
{
	return id == 0 ? "root" : "UNKNOWN";
}

static void print_stat(const char *path, const struct kstat *st)
{
	const char *rwx = "rwxrwxrwx";
	char mode[11], buf[PATH_MAX]; /* on the stack: every console's command has its own */

	mode[0] = S_ISLNK(st->mode) ? 'l' : S_ISDIR(st->mode) ? 'd'
				    : S_ISCHR(st->mode)	      ? 'c'
				    : S_ISBLK(st->mode)	      ? 'b'
							      : '-';
	for (int i = 0; i < 9; i++)
		mode[i + 1] = (st->mode & (0400 >> i)) ? rwx[i] : '-';
	mode[10] = '\0';
	if (S_ISLNK(st->mode) && vfs_readlink(shell_cwd(), path, buf, sizeof(buf)) >= 0)
		sh_printf("  File: %s -> %s\n", path, buf);
	else
		sh_printf("  File: %s\n", path);
	sh_printf("  Size: %-10lld\tBlocks: %-10lu IO Block: 4096   %s%s\n", (long long)st->size,
		  st->blocks, st->size == 0 && S_ISREG(st->mode) ? "regular empty file" : file_type(st->mode), "");
	if (S_ISCHR(st->mode) || S_ISBLK(st->mode))
		sh_printf("Device: %u,%u\tInode: %-11lu Links: %-5u Device type: %u,%u\n",
			  MAJOR(st->dev), MINOR(st->dev), st->ino, st->nlink, MAJOR(st->rdev),
			  MINOR(st->rdev));
	else
		sh_printf("Device: %u,%u\tInode: %-11lu Links: %u\n", MAJOR(st->dev),
			  MINOR(st->dev), st->ino, st->nlink);
	sh_printf("Access: (%04o/%s)  Uid: (%5u/%8s)   Gid: (%5u/%8s)\n", st->mode & 07777, mode,
		  st->uid, id_name(st->uid), st->gid, id_name(st->gid));
}

static int cmd_stat(int argc, char **argv)
{
	struct kstat st;
	int status = 0;

	if (argc < 2) {
		sh_err("stat: missing operand\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int err = vfs_stat(shell_cwd(), argv[i], 0, &st);

		if (err)
			status |= fail_on("stat", "cannot statx", argv[i], err);
		else
			print_stat(argv[i], &st);
	}
	return status;
}
SHELL_COMMAND("stat", "FILE...", "a file's type, size, inode, links and mode", cmd_stat);

/* mkdir -p: each missing directory along the path, from the top. */
static int mkdir_parents(const char *path)
{
	size_t len = strnlen(path, PATH_MAX);
	char buf[PATH_MAX];
	int err = 0;

	if (len >= PATH_MAX)
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (size_t i = 1; i <= len && (!err || err == -EEXIST); i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		err = vfs_mkdir(shell_cwd(), buf, 0755);
		buf[i] = path[i];
	}
	if (err == -EEXIST) { /* fine if what is there is a directory */
		struct kstat st;

		err = vfs_stat(shell_cwd(), path, LOOKUP_FOLLOW, &st);
		if (!err && !S_ISDIR(st.mode))
			err = -EEXIST;
	}
	return err;
}

static int cmd_mkdir(int argc, char **argv)
{
	bool parents = argc > 1 && strcmp(argv[1], "-p") == 0;
	int status = 0, i = parents ? 2 : 1;

	if (i >= argc) {
		sh_err("mkdir: missing operand\n");
		return 1;
	}
	for (; i < argc; i++) {
		int err = parents ? mkdir_parents(argv[i]) : vfs_mkdir(shell_cwd(), argv[i], 0755);

		if (err)
			status |= fail_on("mkdir", "cannot create directory", argv[i], err);
	}
	return status;
}
SHELL_COMMAND("mkdir", "[-p] DIR...", "make directories (-p: and their parents, no error if there)",
	      cmd_mkdir);

static int cmd_rmdir(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		sh_err("rmdir: missing operand\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		int err = vfs_rmdir(shell_cwd(), argv[i]);

		if (err)
			status |= fail_on("rmdir", "failed to remove", argv[i], err);
	}
	return status;
}
SHELL_COMMAND("rmdir", "DIR...", "remove empty directories", cmd_rmdir);

static int remove_tree(const char *path);

/* Everything inside dir; -EINTR at Ctrl-C, -EIO once a failure was reported. */
static int remove_children(const char *dir)
{
	struct vfs_dirent *de = kmalloc(sizeof(*de));
	size_t size = strlen(dir) + NAME_MAX + 2;
	char *child = kmalloc(size);
	struct file *f = NULL;
	int err = de && child ? vfs_open(shell_cwd(), dir, O_RDONLY | O_DIRECTORY, 0, &f) : -ENOMEM;

	while (!err && vfs_readdir(f, de) == 1) {
		if (signal_pending()) {
			err = -EINTR;
			break;
		}
		scnprintf(child, size, "%s/%s", dir, de->name);
		err = remove_tree(child);
		if (err && err != -EINTR && err != -EIO) {
			fail_on("rm", "cannot remove", child, err);
			err = -EIO; /* reported: the directory stays */
		}
	}
	vfs_close(f);
	kfree(child);
	kfree(de);
	return err;
}

static int remove_tree(const char *path)
{
	struct kstat st;
	int err = vfs_stat(shell_cwd(), path, 0, &st);

	if (err)
		return err;
	if (!S_ISDIR(st.mode))
		return vfs_unlink(shell_cwd(), path);
	err = remove_children(path);
	return err ? err : vfs_rmdir(shell_cwd(), path);
}

/* rm -r's failsafe, as coreutils' --preserve-root: the path resolves to "/". */
static bool is_root(const char *path)
{
	struct path p, root;
	bool same;

	if (vfs_path_lookup(shell_cwd(), path, LOOKUP_FOLLOW, &p))
		return false;
	if (vfs_root(&root)) {
		path_put(&p);
		return false;
	}
	same = p.mnt == root.mnt && same_inode(p.inode, root.inode);
	path_put(&root);
	path_put(&p);
	return same;
}

static int cmd_rm(int argc, char **argv)
{
	bool recursive = false, force = false;
	int status = 0, i = 1;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *o = argv[i] + 1; *o; o++) {
			if (*o == 'r' || *o == 'R')
				recursive = true;
			else if (*o == 'f')
				force = true;
			else {
				sh_err("rm: invalid option -- '%c'\n", *o);
				return 1;
			}
		}
	}
	if (i >= argc && !force) {
		sh_err("rm: missing operand\n");
		return 1;
	}
	for (; i < argc; i++) {
		int err;

		if (recursive && is_root(argv[i])) {
			sh_err("rm: it is dangerous to operate recursively on '/'\n"
			       "rm: use --no-preserve-root to override this failsafe\n");
			status = 1;
			continue;
		}
		err = recursive ? remove_tree(argv[i]) : vfs_unlink(shell_cwd(), argv[i]);

		if (sh_interrupted(err))
			return 130;
		if (err && !(force && err == -ENOENT) && err != -EIO)
			status |= fail_on("rm", "cannot remove", argv[i], err);
		else if (err == -EIO)
			status = 1;
	}
	return status;
}
SHELL_COMMAND("rm", "[-rf] FILE...", "remove files (-r: directories and what they hold)", cmd_rm);

/* mv's target: DEST, or DEST/NAME when DEST is a directory. */
static int move_target(const char *src, const char *dest, char *out, size_t size)
{
	struct kstat st;
	const char *base = strrchr(src, '/');

	if (vfs_stat(shell_cwd(), dest, LOOKUP_FOLLOW, &st) || !S_ISDIR(st.mode)) {
		strscpy(out, dest, size);
		return 0;
	}
	base = base ? base + 1 : src;
	if (scnprintf(out, size, "%s/%s", dest, base) >= (int)size - 1)
		return -ENAMETOOLONG;
	return 0;
}

static int cmd_mv(int argc, char **argv)
{
	char buf[PATH_MAX];
	struct kstat st;
	int err;

	if (argc != 3) {
		sh_err(argc < 3 ? "mv: missing file operand\n" : "usage: mv SOURCE DEST\n");
		return 1;
	}
	err = vfs_stat(shell_cwd(), argv[1], 0, &st);
	if (err)
		return fail_on("mv", "cannot stat", argv[1], err);
	err = move_target(argv[1], argv[2], buf, sizeof(buf)) ?: vfs_rename(shell_cwd(), argv[1], buf);
	if (err) {
		sh_err("mv: cannot move '%s' to '%s': %s\n", argv[1], buf, kstrerror(err));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("mv", "SOURCE DEST", "rename or move a file or directory", cmd_mv);

static int cmd_ln(int argc, char **argv)
{
	int err;

	if (argc != 4 || strcmp(argv[1], "-s") != 0) {
		sh_err("usage: ln -s TARGET LINK_NAME\n");
		return 1;
	}
	err = vfs_symlink(shell_cwd(), argv[2], argv[3]);
	if (err)
		return fail_on("ln", "failed to create symbolic link", argv[3], err);
	return 0;
}
SHELL_COMMAND("ln", "-s TARGET LINK_NAME", "make a symbolic link", cmd_ln);

static int cmd_touch(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		sh_err("touch: missing file operand\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		struct file *f;
		int err = vfs_open(shell_cwd(), argv[i], O_WRONLY | O_CREAT, 0644, &f);

		if (err == -EISDIR)
			err = 0; /* a directory exists: nothing to change (no times here) */
		if (err)
			status |= fail_on("touch", "cannot touch", argv[i], err);
		else if (f)
			vfs_close(f);
	}
	return status;
}
SHELL_COMMAND("touch", "FILE...", "create empty files (existing ones stay as they are)", cmd_touch);

static int cmd_mknod(int argc, char **argv)
{
	unsigned int major, minor;
	umode_t type;
	int err;

	if (argc != 5 || (strcmp(argv[2], "c") && strcmp(argv[2], "b")) ||
	    kstrtouint(argv[3], 0, &major) || kstrtouint(argv[4], 0, &minor) || major > 4095 ||
	    minor > MINORMASK) {
		sh_err("usage: mknod NAME b|c MAJOR MINOR\n");
		return 1;
	}
	type = argv[2][0] == 'c' ? S_IFCHR : S_IFBLK;
	err = vfs_mknod(shell_cwd(), argv[1], type | 0644, MKDEV(major, minor));
	if (err) {
		sh_err("mknod: %s: %s\n", argv[1], kstrerror(err));
		return 1;
	}
	return 0;
}
SHELL_COMMAND("mknod", "NAME b|c MAJOR MINOR", "make a block or char device node", cmd_mknod);
