/*
 * fs.c: the shell's working directory and its file commands that walk the
 * tree: ls, cd, pwd, cat, tree, readlink, "> FILE" and tab completion. All
 * of them go through the VFS (open, read, readdir, stat), whatever
 * filesystem the path is on.
 */
#include <kobold/errno.h>
#include <kobold/shell.h>
#include <kobold/signal.h>
#include <kobold/shell_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

/* Each console's shell has its own (shell.c's struct shell holds it). */
const struct path *shell_cwd(void)
{
	struct shell_fs *fs = shell_fs_current();

	if (!fs->cwd.mnt && vfs_root(&fs->cwd))
		return NULL;
	return &fs->cwd;
}

const char *shell_cwd_path(void)
{
	struct shell_fs *fs = shell_fs_current();
	const struct path *p = shell_cwd();

	if (!p || vfs_path_name(p, fs->cwd_buf, sizeof(fs->cwd_buf)) < 0)
		return "/";
	return fs->cwd_buf;
}

void shell_fs_exit(struct shell_fs *fs)
{
	if (fs->cwd.mnt)
		path_put(&fs->cwd);
	fs->cwd.mnt = NULL;
}

int shell_lookup(const char *path, bool follow, struct sysfs_dirent **out)
{
	struct sysfs_dirent *sd;
	struct path p;
	int err = vfs_path_lookup(shell_cwd(), path, follow ? LOOKUP_FOLLOW : 0, &p);

	*out = NULL;
	if (err)
		return err;
	sd = sysfs_inode_dirent(p.inode);
	if (sd)
		*out = sysfs_get(sd);
	path_put(&p);
	return sd ? 0 : -ENOENT;
}

bool shell_file_deleted(struct file *file)
{
	struct sysfs_dirent *sd = sysfs_inode_dirent(file->f_path.inode);

	return sd ? sysfs_dirent_removed(sd) : file->f_path.inode->i_nlink == 0;
}

/* "cmd: path: error" as coreutils prints failed accesses. */
static int fail(const char *cmd, const char *path, int err)
{
	sh_err("%s: %s: %s\n", cmd, path, kstrerror(err));
	return 1;
}

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

int shell_write_file(const char *path, const char *data, size_t len, bool append,
		     bool *open_failed)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(shell_cwd(), path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC),
			   0644, &f);

	*open_failed = err != 0;
	if (err)
		return err;
	n = shell_write_all(f, data, len);
	vfs_close(f);
	return n < 0 ? (int)n : 0;
}

static void mode_string(umode_t m, char *s)
{
	const char *rwx = "rwxrwxrwx";

	s[0] = S_ISLNK(m) ? 'l' : S_ISDIR(m) ? 'd'
			  : S_ISCHR(m)	     ? 'c'
			  : S_ISBLK(m)	     ? 'b'
					     : '-';
	for (int i = 0; i < 9; i++)
		s[i + 1] = (m & (0400 >> i)) ? rwx[i] : '-';
	if (m & 01000) /* the sticky bit, as /tmp has */
		s[9] = (m & 1) ? 't' : 'T';
	s[10] = '\0';
}

/* One -l line: a device's numbers where ls puts the size, a link's target. */
static void ls_long(const struct path *dir, const char *name, const char *shown)
{
	char mode[11], target[PATH_MAX]; /* a link's text: on the stack, each shell its own */
	struct kstat st;

	if (vfs_stat(dir, name, 0, &st)) {
		sh_printf("?????????? %s\n", shown);
		return;
	}
	mode_string(st.mode, mode);
	if (S_ISCHR(st.mode) || S_ISBLK(st.mode))
		sh_printf("%s %6u, %3u %s\n", mode, MAJOR(st.rdev), MINOR(st.rdev), shown);
	else if (S_ISLNK(st.mode) && vfs_readlink(dir, name, target, sizeof(target)) >= 0)
		sh_printf("%s %s -> %s\n", mode, shown, target);
	else
		sh_printf("%s %s\n", mode, shown);
}

static void ls_entry(struct path *p, const char *name, bool longfmt)
{
	if (longfmt)
		ls_long(p, name, name);
	else
		sh_printf("%s\n", name);
}

/* A directory's names; those that start with '.' only with -a, which adds . and .. too. */
static int ls_dir(struct path *p, bool longfmt, bool all)
{
	struct vfs_dirent *de = kmalloc(sizeof(*de));
	struct file *f;
	int err = de ? vfs_open_path(p, O_RDONLY | O_DIRECTORY, &f) : -ENOMEM;

	if (err) {
		kfree(de);
		return err;
	}
	if (all) {
		ls_entry(p, ".", longfmt);
		ls_entry(p, "..", longfmt);
	}
	while ((err = vfs_readdir(f, de)) == 1) {
		if (signal_pending()) {
			err = -EINTR;
			break;
		}
		if (all || de->name[0] != '.')
			ls_entry(p, de->name, longfmt);
	}
	vfs_close(f);
	kfree(de);
	return err;
}

/* The lookup ls makes of an operand: -l shows a link itself, unless the name ends in '/'. */
static int ls_lookup(const char *path, bool longfmt, struct path *p)
{
	size_t len = strlen(path);
	bool follow = !longfmt || (len && path[len - 1] == '/');

	return vfs_path_lookup(shell_cwd(), path, follow ? LOOKUP_FOLLOW : 0, p);
}

/* 1 for a directory, 0 for anything else, or -errno. */
static int ls_is_dir(const char *path, bool longfmt)
{
	struct path p;
	int err = ls_lookup(path, longfmt, &p);

	if (err)
		return err;
	err = S_ISDIR(p.inode->i_mode);
	path_put(&p);
	return err;
}

static int ls_one(const char *path, bool longfmt, bool all, bool header)
{
	struct path p;
	int err = ls_lookup(path, longfmt, &p);

	if (err) {
		sh_err("ls: cannot access '%s': %s\n", path, kstrerror(err));
		return 1;
	}
	if (S_ISDIR(p.inode->i_mode)) {
		if (header)
			sh_printf("%s:\n", path);
		err = ls_dir(&p, longfmt, all);
		if (err && err != -EINTR)
			sh_err("ls: cannot open directory '%s': %s\n", path, kstrerror(err));
	} else if (longfmt) {
		ls_long(shell_cwd(), path, path);
	} else {
		sh_printf("%s\n", path);
	}
	path_put(&p);
	return err ? 1 : 0;
}

static void sort_words(char **w, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && strcmp(w[j - 1], w[j]) > 0; j--) {
			char *t = w[j];

			w[j] = w[j - 1];
			w[j - 1] = t;
		}
}

/*
 * As coreutils: the operands that do not exist reported first, in their
 * order; then the others sorted, the files first, one a line, and each
 * directory under a "DIR:" header, with a blank line before each header
 * that follows other output.
 */
static int cmd_ls(int argc, char **argv)
{
	char *files[SHELL_MAX_ARGS], *dirs[SHELL_MAX_ARGS];
	bool longfmt = false, all = false;
	int i = 1, nfiles = 0, ndirs = 0, status = 0, npaths;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		for (const char *o = argv[i] + 1; *o; o++) {
			if (*o != 'l' && *o != 'a') {
				sh_err("ls: invalid option -- '%c'\nusage: ls [-la] [PATH...]\n", *o);
				return 2;
			}
			*(*o == 'l' ? &longfmt : &all) = true;
		}
	}
	npaths = argc - i;
	if (npaths == 0)
		return ls_one(".", longfmt, all, false);
	for (; i < argc; i++) { /* each operand looked up once, to sort it into its group */
		int kind = ls_is_dir(argv[i], longfmt);

		if (kind < 0) {
			sh_err("ls: cannot access '%s': %s\n", argv[i], kstrerror(kind));
			status = 1;
		} else if (kind) {
			dirs[ndirs++] = argv[i];
		} else {
			files[nfiles++] = argv[i];
		}
	}
	sort_words(files, nfiles);
	sort_words(dirs, ndirs);
	for (int j = 0; j < nfiles; j++)
		status |= ls_one(files[j], longfmt, all, false);
	for (int j = 0; j < ndirs && !signal_pending(); j++) {
		if (nfiles || j)
			sh_printf("\n");
		status |= ls_one(dirs[j], longfmt, all, npaths > 1);
	}
	return status;
}
SHELL_COMMAND("ls", "[-la] [PATH...]",
	      "list a directory, sorted (-l: modes and link targets; -a: names with a leading '.' too)",
	      cmd_ls);

static int cmd_cd(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "/";
	struct path p;
	int err;

	if (argc > 2) {
		sh_err("cd: too many arguments\n");
		return 1;
	}
	err = vfs_path_lookup(shell_cwd(), path, LOOKUP_FOLLOW, &p);
	if (err)
		return fail("cd", path, err);
	if (!S_ISDIR(p.inode->i_mode)) {
		path_put(&p);
		return fail("cd", path, -ENOTDIR);
	}
	path_put(&shell_fs_current()->cwd);
	shell_fs_current()->cwd = p;
	return 0;
}
SHELL_COMMAND("cd", "[PATH]", "change the working directory (default /)", cmd_cd);

static int cmd_pwd(int argc, char **argv)
{
	sh_printf("%s\n", shell_cwd_path());
	return 0;
}
SHELL_COMMAND("pwd", "", "print the working directory", cmd_pwd);

/* Copies the whole file to the output; Ctrl-C stops it (/dev/zero never ends). */
static int cat_file(struct file *f)
{
	char *page = kmalloc(PATH_MAX); /* this command's own: other consoles' run beside it */
	ssize_t n;

	if (!page)
		return -ENOMEM;
	while ((n = vfs_read(f, page, PATH_MAX)) > 0) {
		sh_write(page, (size_t)n);
		if (signal_pending()) {
			n = -EINTR;
			break;
		}
	}
	kfree(page);
	return (int)n;
}

static int cat_one(const char *path)
{
	struct file *f;
	int err = vfs_open(shell_cwd(), path, O_RDONLY, 0, &f);

	if (err)
		return fail("cat", path, err);
	err = S_ISDIR(f->f_path.inode->i_mode) ? -EISDIR : cat_file(f);
	vfs_close(f);
	if (sh_interrupted(err))
		return 130;
	return err ? fail("cat", path, err) : 0;
}

static int cmd_cat(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		sh_err("usage: cat FILE...\n");
		return 1;
	}
	for (int i = 1; i < argc && status != 130; i++)
		status |= cat_one(argv[i]);
	return status;
}
SHELL_COMMAND("cat", "FILE...", "print files (an attribute: its show())", cmd_cat);

struct tree_count {
	unsigned long dirs, files;
	bool all;     /* -a: names with a leading '.' too, which tree(1) hides without it */
	char *target; /* PATH_MAX bytes for a link's text */
};

/* The directory's next entry to show into de; false at its end. */
static bool next_entry(struct file *f, struct vfs_dirent *de, bool all)
{
	while (vfs_readdir(f, de) == 1)
		if (all || de->name[0] != '.')
			return true;
	return false;
}

static int tree_walk(struct path *dir, char *prefix, size_t plen, struct tree_count *n);

static int tree_entry(struct path *dir, struct vfs_dirent *de, bool last, char *prefix,
		      size_t plen, struct tree_count *n)
{
	struct path child;
	int err = 0;

	sh_printf("%s%s%s", prefix, last ? "`-- " : "|-- ", de->name);
	if (de->type == S_IFLNK && vfs_readlink(dir, de->name, n->target, PATH_MAX) >= 0)
		sh_printf(" -> %s", n->target);
	sh_printf("\n");
	if (de->type != S_IFDIR) {
		n->files++;
		return 0;
	}
	n->dirs++;
	if (plen + 5 >= PATH_MAX || vfs_path_lookup(dir, de->name, 0, &child))
		return 0;
	strscpy(prefix + plen, last ? "    " : "|   ", 5);
	err = tree_walk(&child, prefix, plen + 4, n);
	prefix[plen] = '\0';
	path_put(&child);
	return err;
}

/* Returns -EINTR at Ctrl-C, else 0. */
static int tree_walk(struct path *dir, char *prefix, size_t plen, struct tree_count *n)
{
	struct vfs_dirent *de = kmalloc(2 * sizeof(*de)), *next;
	struct file *f;
	bool more;
	int err = 0;

	if (!de || vfs_open_path(dir, O_RDONLY | O_DIRECTORY, &f)) {
		kfree(de);
		return 0;
	}
	next = de + 1;
	more = next_entry(f, de, n->all);
	while (more && !err) {
		if (signal_pending()) {
			err = -EINTR;
			break;
		}
		more = next_entry(f, next, n->all);
		err = tree_entry(dir, de, !more, prefix, plen, n);
		memcpy(de, next, sizeof(*de));
	}
	vfs_close(f);
	kfree(de);
	return err;
}

static int cmd_tree(int argc, char **argv)
{
	struct tree_count n = { 0, 0, argc > 1 && !strcmp(argv[1], "-a"), NULL };
	const char *path = argc > 1 + n.all ? argv[1 + n.all] : ".";
	struct path p;
	char *prefix;
	int err;

	if (argc > 2 + n.all || (argc > 1 + n.all && argv[1 + n.all][0] == '-')) {
		sh_err("usage: tree [-a] [PATH]\n");
		return 1;
	}
	err = vfs_path_lookup(shell_cwd(), path, LOOKUP_FOLLOW, &p);
	if (!err && !S_ISDIR(p.inode->i_mode)) {
		path_put(&p);
		err = -ENOTDIR;
	}
	if (err == -ENOENT || err == -ENOTDIR) { /* as tree(1) reports a failed opendir */
		sh_printf("%s  [error opening dir]\n\n0 directories, 0 files\n", path);
		return 2;
	}
	if (err)
		return fail("tree", path, err);
	prefix = kzalloc(2 * PATH_MAX); /* the prefix, then a link's text */
	if (!prefix) {
		path_put(&p);
		return fail("tree", path, -ENOMEM);
	}
	n.target = prefix + PATH_MAX;
	sh_printf("%s\n", path);
	err = tree_walk(&p, prefix, 0, &n);
	if (!err)
		sh_printf("\n%lu director%s, %lu file%s\n", n.dirs, n.dirs == 1 ? "y" : "ies",
			  n.files, n.files == 1 ? "" : "s"); /* as tree counts */
	kfree(prefix);
	path_put(&p);
	return err ? 130 : 0; /* -EINTR: the shell says ^C */
}
SHELL_COMMAND("tree", "[-a] [PATH]",
	      "the tree below PATH, links as name -> target (-a: names with a leading '.' too)",
	      cmd_tree);

static int cmd_readlink(int argc, char **argv)
{
	bool resolve = argc == 3 && strcmp(argv[1], "-f") == 0;
	const char *path = argv[argc - 1];
	char page[PATH_MAX]; /* on the stack: each console's command its own */
	struct path p;
	int err;

	if (argc < 2 || argc > 3 || (argc == 3 && !resolve)) {
		sh_err("usage: readlink [-f] PATH\n");
		return 1;
	}
	if (resolve) {
		err = vfs_path_lookup(shell_cwd(), path, LOOKUP_FOLLOW, &p);
		if (!err) {
			err = vfs_path_name(&p, page, sizeof(page));
			path_put(&p);
		}
	} else {
		err = vfs_readlink(shell_cwd(), path, page, sizeof(page));
	}
	if (err < 0)
		return fail("readlink", path, err);
	sh_printf("%s\n", page);
	return 0;
}
SHELL_COMMAND("readlink", "[-f] PATH", "a link's target (relative), or -f: the resolved path",
	      cmd_readlink);

static bool completes_to_dir(struct path *dir, struct vfs_dirent *de)
{
	struct kstat st;

	if (de->type == S_IFDIR)
		return true;
	return de->type == S_IFLNK && !vfs_stat(dir, de->name, LOOKUP_FOLLOW, &st) &&
	       S_ISDIR(st.mode);
}

/* Completes the last path word: the directory part is kept, names are offered. */
void shell_complete_path(struct readline *rl, const char *word, size_t n)
{
	char dir[RL_LINE_MAX], cand[RL_LINE_MAX]; /* each console completes on its own stack */
	struct vfs_dirent de;
	const char *slash = NULL, *base;
	size_t dlen, blen;
	struct path p;
	struct file *f;

	for (size_t i = 0; i < n; i++)
		if (word[i] == '/')
			slash = word + i;
	dlen = slash ? (size_t)(slash - word) + 1 : 0;
	base = word + dlen;
	blen = n - dlen;
	memcpy(dir, word, dlen);
	dir[dlen] = '\0';
	if (vfs_path_lookup(shell_cwd(), dlen ? dir : ".", LOOKUP_FOLLOW, &p))
		return;
	if (!vfs_open_path(&p, O_RDONLY | O_DIRECTORY, &f)) {
		while (vfs_readdir(f, &de) == 1) {
			if (strncmp(de.name, base, blen) != 0)
				continue;
			scnprintf(cand, sizeof(cand), "%s%s%s", dir, de.name,
				  completes_to_dir(&p, &de) ? "/" : " ");
			rl_add_candidate(rl, cand);
		}
		vfs_close(f);
	}
	path_put(&p);
}
