/*
 * fs.c: the shell's view of /sys: the working directory, path lookup for
 * every command, and ls, cd, pwd, cat, tree, readlink, and "> FILE".
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/signal.h>
#include <kobold/shell_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

static struct sysfs_dirent *cwd;	/* counted; NULL means "/" */
static char cwd_buf[SYSFS_PATH_MAX];
static char page[SYSFS_PAGE_SIZE + 1];

static struct sysfs_dirent *cwd_dirent(void) { return cwd ? cwd : sysfs_root(); }

const char *shell_cwd_path(void)
{
	if (sysfs_path(cwd_dirent(), cwd_buf, sizeof(cwd_buf)) < 0 || !cwd_buf[0])
		return "/";
	return cwd_buf;
}

int shell_lookup(const char *path, bool follow, struct sysfs_dirent **out)
{
	return sysfs_lookup(cwd_dirent(), path, follow, out);
}

/* "cmd: 'path': error" as coreutils prints failed accesses. */
static int fail(const char *cmd, const char *path, int err)
{
	sh_err("%s: %s: %s\n", cmd, path, kstrerror(err));
	return 1;
}

/* Reads a whole attribute into page (NUL-terminated); length or -errno. */
int shell_read_attr(struct sysfs_dirent *sd, char *buf, size_t size)
{
	struct sysfs_open_file *of;
	ssize_t n;
	int err = sysfs_open(sd, 0, &of);

	if (err)
		return err;
	n = sysfs_read(of, buf, size - 1);
	sysfs_close(of);
	if (n >= 0)
		buf[n] = '\0';
	return (int)n;
}

int shell_write_file(const char *path, const char *data, size_t len)
{
	struct sysfs_dirent *sd;
	struct sysfs_open_file *of;
	ssize_t n;
	int err = shell_lookup(path, true, &sd);

	if (err)
		return err;
	err = sysfs_open(sd, 0, &of);
	sysfs_put(sd);
	if (err)
		return err;
	n = shell_full_write(of, data, len);
	sysfs_close(of);
	return n < 0 ? (int)n : 0;
}

static void mode_string(struct sysfs_dirent *sd, char *s)
{
	int type = sysfs_dirent_type(sd);
	umode_t m = sysfs_dirent_mode(sd);
	const char *rwx = "rwxrwxrwx";

	s[0] = type == SYSFS_KOBJ_LINK ? 'l' : type == SYSFS_KOBJ_ATTR ? '-' : 'd';
	for (int i = 0; i < 9; i++)
		s[i + 1] = (m & (0400 >> i)) ? rwx[i] : '-';
	s[10] = '\0';
}

static void ls_entry(struct sysfs_dirent *sd, const char *name, bool longfmt)
{
	char mode[11], target[SYSFS_PATH_MAX];

	if (!longfmt) {
		sh_printf("%s\n", name);
		return;
	}
	mode_string(sd, mode);
	if (sysfs_dirent_type(sd) == SYSFS_KOBJ_LINK && sysfs_readlink(sd, target, sizeof(target)) >= 0)
		sh_printf("%s %s -> %s\n", mode, name, target);
	else
		sh_printf("%s %s\n", mode, name);
}

static int ls_one(const char *path, bool longfmt, bool header)
{
	struct sysfs_dirent *sd, *c;
	size_t len = strlen(path);
	int err = shell_lookup(path, !longfmt || (len && path[len - 1] == '/'), &sd);

	if (err) {
		sh_err("ls: cannot access '%s': %s\n", path, kstrerror(err));
		return 1;
	}
	if (sysfs_dirent_type(sd) & (SYSFS_DIR | SYSFS_ROOT)) {
		if (header)
			sh_printf("%s:\n", path);
		for (c = sysfs_dirent_first_child(sd); c; c = sysfs_dirent_next(c))
			ls_entry(c, sysfs_dirent_name(c), longfmt);
	} else {
		ls_entry(sd, path, longfmt);
	}
	sysfs_put(sd);
	return 0;
}

static int cmd_ls(int argc, char **argv)
{
	bool longfmt = false;
	int i = 1, status = 0, npaths;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (strcmp(argv[i], "-l") != 0) {
			sh_err("ls: invalid option '%s'\nusage: ls [-l] [PATH...]\n", argv[i]);
			return 2;
		}
		longfmt = true;
	}
	npaths = argc - i;
	if (npaths == 0)
		return ls_one(".", longfmt, false);
	for (; i < argc; i++) {
		status |= ls_one(argv[i], longfmt, npaths > 1);
		if (npaths > 1 && i + 1 < argc)
			sh_printf("\n");
	}
	return status;
}
SHELL_COMMAND("ls", "[-l] [PATH...]", "list a directory, sorted (-l: modes and link targets)", cmd_ls);

static int cmd_cd(int argc, char **argv)
{
	struct sysfs_dirent *sd;
	const char *path = argc > 1 ? argv[1] : "/";
	int err;

	if (argc > 2) {
		sh_err("cd: too many arguments\n");
		return 1;
	}
	err = shell_lookup(path, true, &sd);
	if (err)
		return fail("cd", path, err);
	if (!(sysfs_dirent_type(sd) & (SYSFS_DIR | SYSFS_ROOT))) {
		sysfs_put(sd);
		return fail("cd", path, -ENOTDIR);
	}
	if (cwd)
		sysfs_put(cwd);
	cwd = sd;
	return 0;
}
SHELL_COMMAND("cd", "[PATH]", "change the working directory (default /)", cmd_cd);

static int cmd_pwd(int argc, char **argv)
{
	sh_printf("%s\n", shell_cwd_path());
	return 0;
}
SHELL_COMMAND("pwd", "", "print the working directory", cmd_pwd);

static int cat_one(const char *path)
{
	struct sysfs_dirent *sd;
	int n, err = shell_lookup(path, true, &sd);

	if (err)
		return fail("cat", path, err);
	n = shell_read_attr(sd, page, sizeof(page));
	sysfs_put(sd);
	if (n < 0)
		return fail("cat", path, n);
	sh_write(page, (size_t)n);
	return 0;
}

static int cmd_cat(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		sh_err("usage: cat FILE...\n");
		return 1;
	}
	for (int i = 1; i < argc; i++)
		status |= cat_one(argv[i]);
	return status;
}
SHELL_COMMAND("cat", "FILE...", "print attributes (their show())", cmd_cat);

struct tree_count {
	unsigned long dirs, files;
};

/* Returns -EINTR at Ctrl-C, else 0. */
static int tree_walk(struct sysfs_dirent *dir, char *prefix, size_t plen, struct tree_count *n)
{
	char target[SYSFS_PATH_MAX];

	for (struct sysfs_dirent *c = sysfs_dirent_first_child(dir); c; c = sysfs_dirent_next(c)) {
		bool last = !sysfs_dirent_next(c);
		int type = sysfs_dirent_type(c);
		int err;

		if (signal_pending())
			return -EINTR;
		sh_printf("%s%s%s", prefix, last ? "`-- " : "|-- ", sysfs_dirent_name(c));
		if (type == SYSFS_KOBJ_LINK && sysfs_readlink(c, target, sizeof(target)) >= 0)
			sh_printf(" -> %s", target);
		sh_printf("\n");
		if (type != SYSFS_DIR) {
			n->files++;
			continue;
		}
		n->dirs++;
		if (plen + 5 >= SYSFS_PATH_MAX)
			continue;
		strscpy(prefix + plen, last ? "    " : "|   ", 5);
		err = tree_walk(c, prefix, plen + 4, n);
		prefix[plen] = '\0';
		if (err)
			return err;
	}
	return 0;
}

static int cmd_tree(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : ".";
	struct tree_count n = { 0, 0 };
	struct sysfs_dirent *sd;
	char *prefix;
	int err;

	if (argc > 2) {
		sh_err("usage: tree [PATH]\n");
		return 1;
	}
	err = shell_lookup(path, true, &sd);
	if (!err && !(sysfs_dirent_type(sd) & (SYSFS_DIR | SYSFS_ROOT))) {
		sysfs_put(sd);
		err = -ENOTDIR;
	}
	if (err == -ENOENT || err == -ENOTDIR) {	/* as tree(1) reports a failed opendir */
		sh_printf("%s  [error opening dir]\n\n0 directories, 0 files\n", path);
		return 2;
	}
	if (err)
		return fail("tree", path, err);
	prefix = kzalloc(SYSFS_PATH_MAX);
	if (!prefix) {
		sysfs_put(sd);
		return fail("tree", path, -ENOMEM);
	}
	sh_printf("%s\n", path);
	err = tree_walk(sd, prefix, 0, &n);
	if (!err)
		sh_printf("\n%lu directories, %lu files\n", n.dirs, n.files);
	kfree(prefix);
	sysfs_put(sd);
	return err ? 130 : 0;	/* -EINTR: the shell says ^C */
}
SHELL_COMMAND("tree", "[PATH]", "the tree below PATH, links as name -> target", cmd_tree);

static int cmd_readlink(int argc, char **argv)
{
	bool resolve = argc == 3 && strcmp(argv[1], "-f") == 0;
	const char *path = argv[argc - 1];
	struct sysfs_dirent *sd;
	int err;

	if (argc < 2 || argc > 3 || (argc == 3 && !resolve)) {
		sh_err("usage: readlink [-f] PATH\n");
		return 1;
	}
	err = shell_lookup(path, resolve, &sd);
	if (err)
		return fail("readlink", path, err);
	if (resolve)
		err = sysfs_path(sd, page, sizeof(page));
	else if (sysfs_dirent_type(sd) != SYSFS_KOBJ_LINK)
		err = -EINVAL;
	else
		err = sysfs_readlink(sd, page, sizeof(page));
	sysfs_put(sd);
	if (err < 0)
		return fail("readlink", path, err);
	sh_printf("%s\n", page[0] ? page : "/");
	return 0;
}
SHELL_COMMAND("readlink", "[-f] PATH", "a link's target (relative), or -f: the resolved path",
	      cmd_readlink);

/* Completes the last path word: the directory part is kept, names are offered. */
void shell_complete_path(struct readline *rl, const char *word, size_t n)
{
	char dir[RL_LINE_MAX], cand[RL_LINE_MAX];
	const char *slash = NULL, *base;
	struct sysfs_dirent *sd, *c, *t;
	size_t dlen, blen;

	for (size_t i = 0; i < n; i++)
		if (word[i] == '/')
			slash = word + i;
	dlen = slash ? (size_t)(slash - word) + 1 : 0;
	base = word + dlen;
	blen = n - dlen;
	memcpy(dir, word, dlen);
	dir[dlen] = '\0';
	if (shell_lookup(dlen ? dir : ".", true, &sd))
		return;
	for (c = sysfs_dirent_first_child(sd); c; c = sysfs_dirent_next(c)) {
		const char *name = sysfs_dirent_name(c);
		bool isdir = sysfs_dirent_type(c) == SYSFS_DIR;

		if (strncmp(name, base, blen) != 0)
			continue;
		if (sysfs_dirent_type(c) == SYSFS_KOBJ_LINK) {
			scnprintf(cand, sizeof(cand), "%s%s", dir, name);
			if (!shell_lookup(cand, true, &t)) {
				isdir = sysfs_dirent_type(t) == SYSFS_DIR;
				sysfs_put(t);
			}
		}
		scnprintf(cand, sizeof(cand), "%s%s%s", dir, name, isdir ? "/" : " ");
		rl_add_candidate(rl, cand);
	}
	sysfs_put(sd);
}
