/*
 * devnode.c: udev's side of /dev: links to a device's node (relative, as
 * udev makes them: disk/by-id/X -> ../../vdb), the node's mode, and the
 * rules files read from /etc/udev/rules.d through the VFS.
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/kobject.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/udevd.h>

#define LINK_PATH_MAX 256

/* Below /dev, with no "..", no empty component, not absolute. */
static bool link_name_ok(const char *link)
{
	const char *p = link;

	if (!*link || *link == '/' || strlen(link) > LINK_PATH_MAX - 8)
		return false;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);

		if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		if (!slash)
			return true;
		p = slash + 1;
	}
}

/* mkdir -p of the directories above /dev/LINK. */
static void make_parents(const char *path)
{
	char dir[LINK_PATH_MAX];

	for (const char *s = strchr(path + 5, '/'); s; s = strchr(s + 1, '/')) {
		scnprintf(dir, sizeof(dir), "%.*s", (int)(s - path), path);
		vfs_mkdir(NULL, dir, 0755); /* -EEXIST when it is there already */
	}
}

/* Each directory above path (in /dev) that is empty now, from the deepest up. */
static void remove_empty_parents(char *path)
{
	char *slash;

	while ((slash = strrchr(path, '/')) && slash > path + 4) {
		*slash = '\0';
		if (vfs_rmdir(NULL, path))
			break; /* not empty: another device's links are in it */
	}
}

static bool is_link(const char *path)
{
	struct kstat st;

	return vfs_stat(NULL, path, 0, &st) == 0 && S_ISLNK(st.mode);
}

/* "../" for each directory the link is below /dev, then the node's name. */
static void link_target(const char *link, const char *devname, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (const char *p = strchr(link, '/'); p; p = strchr(p + 1, '/'))
		n += scnprintf(buf + n, size - n, "../");
	scnprintf(buf + n, size - n, "%s", devname);
}

static int add_link(const char *devname, const char *link)
{
	char path[LINK_PATH_MAX], target[LINK_PATH_MAX];
	int err;

	if (!link_name_ok(link)) {
		pr_warn("udevd: %s: link name '%s' is not below /dev, ignoring it\n", devname, link);
		return -EINVAL;
	}
	scnprintf(path, sizeof(path), "/dev/%s", link);
	link_target(link, devname, target, sizeof(target));
	make_parents(path);
	if (is_link(path))
		vfs_unlink(NULL, path); /* the newest device gets the name, as udev's equal priority */
	err = vfs_symlink(NULL, target, path);
	devmodel_trace("udev_node_add_link", path, target);
	if (err) {
		pr_warn("udevd: %s: cannot make %s: %s\n", devname, path, kstrerror(err));
		remove_empty_parents(path); /* none left behind by a link never made */
	}
	return err;
}

int udev_node_add_links(const char *devname, char *const *links, int nr)
{
	int err = 0;

	for (int i = 0; i < nr; i++)
		if (add_link(devname, links[i]))
			err = -EINVAL;
	return err;
}

/* Takes the link away, then each directory above it that it leaves empty. */
static void remove_link(const char *link)
{
	char path[LINK_PATH_MAX];

	if (!link_name_ok(link))
		return;
	scnprintf(path, sizeof(path), "/dev/%s", link);
	if (!is_link(path) || vfs_unlink(NULL, path))
		return;
	devmodel_trace("udev_node_remove_link", path, NULL);
	remove_empty_parents(path);
}

void udev_node_remove_links(char *const *links, int nr)
{
	for (int i = 0; i < nr; i++)
		remove_link(links[i]);
}

/* MODE=: the permission bits of /dev/DEVNAME, as chmod sets them. */
int udev_node_set_mode(const char *devname, int mode)
{
	char path[LINK_PATH_MAX];
	struct path p;
	int err;

	scnprintf(path, sizeof(path), "/dev/%s", devname);
	err = vfs_path_lookup(NULL, path, 0, &p);
	if (err)
		return err;
	p.inode->i_mode = (p.inode->i_mode & S_IFMT) | (mode & 07777);
	path_put(&p);
	return 0;
}

/* /etc/udev/rules.d, empty, for the user's rules (Linux's packages ship it so). */
void udev_rules_dir_create(void)
{
	int err = vfs_mkdir(NULL, "/etc/udev", 0755);

	if (!err || err == -EEXIST)
		err = vfs_mkdir(NULL, UDEV_RULES_DIR, 0755);
	if (err && err != -EEXIST)
		pr_warn("udevd: cannot make %s: %s\n", UDEV_RULES_DIR, kstrerror(err));
}

/* The whole file, if it is at most UDEVD_RULES_FILE_MAX bytes. */
static int read_whole(const char *path, char **text, size_t *len)
{
	struct file *f;
	ssize_t n;
	int err = vfs_open(NULL, path, O_RDONLY, 0, &f);

	if (err)
		return err;
	*text = kmalloc(UDEVD_RULES_FILE_MAX + 1);
	*len = 0;
	err = *text ? 0 : -ENOMEM;
	while (!err && (n = vfs_read(f, *text + *len, UDEVD_RULES_FILE_MAX + 1 - *len)) > 0) {
		*len += n;
		if (*len > UDEVD_RULES_FILE_MAX)
			err = -EFBIG;
	}
	if (!err && n < 0)
		err = (int)n;
	vfs_close(f);
	if (err) {
		kfree(*text);
		*text = NULL;
	}
	return err;
}

static bool is_rules_file(const struct vfs_dirent *d)
{
	size_t n = strlen(d->name);

	return n > 6 && strcmp(d->name + n - 6, ".rules") == 0 && d->name[0] != '.';
}

int udev_rules_dir_for_each(const char *dir,
			    void (*fn)(const char *path, const char *name, const char *text,
				       size_t len, void *arg),
			    void *arg)
{
	struct vfs_dirent *d = kmalloc(sizeof(*d));
	char path[LINK_PATH_MAX], *text;
	struct file *f;
	size_t len;
	int err, r;

	if (!d)
		return -ENOMEM;
	err = vfs_open(NULL, dir, O_RDONLY | O_DIRECTORY, 0, &f);
	while (!err && (r = vfs_readdir(f, d)) > 0) {
		if (!is_rules_file(d) ||
		    scnprintf(path, sizeof(path), "%s/%s", dir, d->name) >= (int)sizeof(path) - 1)
			continue;
		r = read_whole(path, &text, &len);
		if (r) {
			pr_err("udevd: %s: %s, ignoring it\n", path, kstrerror(r));
			continue;
		}
		fn(path, d->name, text, len, arg);
		kfree(text);
	}
	if (!err) {
		err = r < 0 ? r : 0;
		vfs_close(f);
	}
	kfree(d);
	return err;
}
