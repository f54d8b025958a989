/*
 * proc_sysctl.c: /proc/sys, the ctl_table tree of kernel/sysctl.c as
 * directories and files (Linux's fs/proc/proc_sysctl.c). Reading a file
 * runs its proc_handler once, at open; each write runs it on what was
 * written.
 */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/proc_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysctl.h>

#define PROC_SYS_INO_BASE 0x8000
#define PROC_SYS_BUF 4096

/* An inode's entry: name first, as root.c's proc_name reads it; NULL table: /proc/sys. */
struct proc_sys_node {
	const char *name;
	struct ctl_table *table;
};

struct proc_sys_snapshot {
	size_t len;
	char text[PROC_SYS_BUF];
};

static const struct inode_operations proc_sys_dir_iops;
static const struct file_operations proc_sys_dir_fops, proc_sys_file_fops;

static struct ctl_table *table_of(struct inode *inode)
{
	return ((struct proc_sys_node *)inode->i_private)->table;
}

static struct ctl_table *entries_of(struct inode *dir)
{
	return table_of(dir) ? table_of(dir)->child : sysctl_root_table;
}

bool proc_sys_inode(struct inode *inode)
{
	return inode->i_fop == &proc_sys_dir_fops || inode->i_fop == &proc_sys_file_fops;
}

void proc_sys_evict(struct inode *inode) { kfree(inode->i_private); }

/* An inode number per entry: its place in a walk of the tree (the root is 0). */
static bool ordinal(struct ctl_table *entries, const struct ctl_table *t, unsigned long *n)
{
	for (struct ctl_table *e = entries; e->procname; e++) {
		++*n;
		if (e == t || (e->child && ordinal(e->child, t, n)))
			return true;
	}
	return false;
}

/* The directory entry whose child array holds t; NULL for /proc/sys's own. */
static struct ctl_table *parent_entry(struct ctl_table *entries, const struct ctl_table *t,
				      struct ctl_table *dir)
{
	struct ctl_table *found;

	for (struct ctl_table *e = entries; e->procname; e++) {
		if (e == t)
			return dir;
		if (e->child && (found = parent_entry(e->child, t, e)) != NULL)
			return found;
	}
	return NULL;
}

struct inode *proc_sys_new_inode(struct super_block *sb, struct ctl_table *t)
{
	struct inode *inode = kzalloc(sizeof(*inode));
	struct proc_sys_node *n = kzalloc(sizeof(*n));
	unsigned long ord = 0;

	if (!inode || !n) {
		kfree(inode);
		kfree(n);
		return NULL;
	}
	n->name = t ? t->procname : "sys";
	n->table = t;
	if (t)
		ordinal(sysctl_root_table, t, &ord);
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_private = n;
	inode->i_ino = PROC_SYS_INO_BASE + ord;
	if (!t || t->child) {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &proc_sys_dir_iops;
		inode->i_fop = &proc_sys_dir_fops;
	} else {
		inode->i_mode = S_IFREG | t->mode;
		inode->i_nlink = 1;
		inode->i_fop = &proc_sys_file_fops;
	}
	return inode;
}

struct inode *proc_sys_root_inode(struct super_block *sb) { return proc_sys_new_inode(sb, NULL); }

struct inode *proc_sys_parent(struct inode *inode)
{
	struct ctl_table *t = table_of(inode);

	if (!t)
		return igrab(inode->i_sb->s_root); /* /proc/sys's parent: /proc */
	return proc_sys_new_inode(inode->i_sb, parent_entry(sysctl_root_table, t, NULL));
}

static int proc_sys_lookup(struct inode *dir, const char *name, struct inode **out)
{
	for (struct ctl_table *e = entries_of(dir); e->procname; e++) {
		if (strcmp(e->procname, name) == 0) {
			*out = proc_sys_new_inode(dir->i_sb, e);
			return *out ? 0 : -ENOMEM;
		}
	}
	return -ENOENT;
}

/* The tables are sorted by name, as readdir returns them. */
static int proc_sys_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	for (struct ctl_table *e = entries_of(file->f_path.inode); e->procname; e++) {
		if (!after || strcmp(e->procname, after) > 0) {
			strscpy(out->name, e->procname, sizeof(out->name));
			out->type = e->child ? S_IFDIR : S_IFREG;
			return 1;
		}
	}
	return 0;
}

static int proc_sys_open(struct inode *inode, struct file *file)
{
	struct proc_sys_snapshot *s;
	struct ctl_table *t = table_of(inode);
	loff_t pos = 0;
	int err = 0;

	/* A read-only entry refuses a writer at open, root too, as 2.6's sysctl_perm. */
	if ((file->f_flags & O_ACCMODE) != O_RDONLY && !(t->mode & 0222))
		return -EACCES;
	s = kzalloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	if ((file->f_flags & O_ACCMODE) != O_WRONLY && (t->mode & 0444)) {
		s->len = sizeof(s->text);
		err = t->proc_handler(t, 0, s->text, &s->len, &pos);
	}
	if (err) {
		kfree(s);
		return err;
	}
	file->private_data = s;
	return 0;
}

static ssize_t proc_sys_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	struct proc_sys_snapshot *s = file->private_data;

	if (*pos >= (loff_t)s->len)
		return 0;
	n = min(n, s->len - (size_t)*pos);
	memcpy(buf, s->text + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

/* Each write is the whole new value, as 2.6's handlers took it; a bad one changes nothing. */
static ssize_t proc_sys_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	struct ctl_table *t = table_of(file->f_path.inode);
	char *copy;
	size_t len = n;
	int err;

	if (n >= PROC_SYS_BUF)
		return -EINVAL;
	copy = kmalloc(n + 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, n);
	copy[n] = '\0';
	err = t->proc_handler(t, 1, copy, &len, pos);
	kfree(copy);
	return err ? err : (ssize_t)n;
}

static int proc_sys_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct inode_operations proc_sys_dir_iops = { .lookup = proc_sys_lookup };
static const struct file_operations proc_sys_dir_fops = { .readdir = proc_sys_readdir };
static const struct file_operations proc_sys_file_fops = {
	.open = proc_sys_open,
	.read = proc_sys_read,
	.write = proc_sys_write,
	.release = proc_sys_release,
};
