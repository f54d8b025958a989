/*
 * root.c: a small procfs mounted at /proc (Linux's fs/proc): files whose
 * text the kernel writes when they are opened, in Linux's formats. Each
 * file's show function lives beside the data it shows (show_interrupts in
 * kernel/irq.c, proc_show_mounts in fs/namespace.c, ...).
 */
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/printk.h>
#include <kobold/proc_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define PROC_ROOT_INO 1
#define PROC_FILE_SIZE 4096 /* a snapshot of at most one page, as a seq_file's first */

struct proc_entry {
	const char *name;
	size_t (*show)(char *buf, size_t size);
	struct inode *(*dir_inode)(struct super_block *sb); /* a directory instead: its inode */
};

/* Sorted by name: readdir walks them in order. */
static const struct proc_entry proc_entries[] = {
	{ "cmdline", proc_show_cmdline },
	{ "cpuinfo", proc_show_cpuinfo },
	{ "filesystems", proc_show_filesystems },
	{ "interrupts", show_interrupts },
	{ "iomem", proc_show_iomem },
	{ "ioports", proc_show_ioports },
	{ "irq", NULL, proc_irq_root_inode },
	{ "loadavg", proc_show_loadavg },
	{ "lockdep_stats", proc_show_lockdep_stats },
	{ "meminfo", proc_show_meminfo },
	{ "mounts", proc_show_mounts },
	{ "stat", proc_show_stat },
	{ "sys", NULL, proc_sys_root_inode }, /* fs/proc/proc_sysctl.c */
	{ "uptime", proc_show_uptime },
	{ "version", proc_show_version },
	{ "vmallocinfo", proc_show_vmallocinfo },
};

struct proc_snapshot {
	size_t len;
	char text[PROC_FILE_SIZE];
};

static const struct inode_operations proc_root_inode_operations;
static const struct file_operations proc_root_operations;
static const struct file_operations proc_file_operations;
static const struct super_operations proc_sops;

static const struct proc_entry *proc_entry_of(const struct inode *inode)
{
	return inode->i_private;
}

static struct inode *proc_new_inode(struct super_block *sb, const struct proc_entry *e)
{
	struct inode *inode = kzalloc(sizeof(*inode));

	if (!inode)
		return NULL;
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_private = (void *)e;
	if (!e) {
		inode->i_ino = PROC_ROOT_INO;
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &proc_root_inode_operations;
		inode->i_fop = &proc_root_operations;
	} else {
		inode->i_ino = PROC_ROOT_INO + 1 + (unsigned long)(e - proc_entries);
		inode->i_mode = S_IFREG | 0444;
		inode->i_nlink = 1;
		inode->i_fop = &proc_file_operations;
	}
	return inode;
}

static int proc_lookup(struct inode *dir, const char *name, struct inode **out)
{
	for (size_t i = 0; i < ARRAY_SIZE(proc_entries); i++) {
		if (strcmp(proc_entries[i].name, name) == 0) {
			*out = proc_entries[i].dir_inode ? proc_entries[i].dir_inode(dir->i_sb)
							 : proc_new_inode(dir->i_sb, &proc_entries[i]);
			return *out ? 0 : -ENOMEM;
		}
	}
	return proc_pid_lookup(dir, name, out); /* self, PID (fs/proc/base.c) */
}

static int proc_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	struct vfs_dirent pid;
	int have_pid = proc_pid_readdir(after, &pid);

	for (size_t i = 0; i < ARRAY_SIZE(proc_entries); i++) {
		if (!after || strcmp(proc_entries[i].name, after) > 0) {
			if (have_pid && strcmp(pid.name, proc_entries[i].name) < 0)
				break;
			strscpy(out->name, proc_entries[i].name, sizeof(out->name));
			out->type = proc_entries[i].dir_inode ? S_IFDIR : S_IFREG;
			return 1;
		}
	}
	if (have_pid)
		*out = pid;
	return have_pid;
}

/* The text is made once, at open, so that a reader sees one consistent snapshot. */
static int proc_open(struct inode *inode, struct file *file)
{
	struct proc_snapshot *s = kmalloc(sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->len = proc_entry_of(inode)->show(s->text, sizeof(s->text));
	file->private_data = s;
	return 0;
}

static ssize_t proc_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	struct proc_snapshot *s = file->private_data;

	if (*pos >= (loff_t)s->len)
		return 0;
	n = min(n, s->len - (size_t)*pos);
	memcpy(buf, s->text + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static int proc_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct inode_operations proc_root_inode_operations = { .lookup = proc_lookup };
static const struct file_operations proc_root_operations = { .readdir = proc_readdir };
static const struct file_operations proc_file_operations = {
	.open = proc_open,
	.read = proc_read,
	.release = proc_release,
};

static void proc_evict_inode(struct inode *inode)
{
	if (proc_pid_inode(inode))
		proc_pid_evict(inode);
	else if (proc_irq_inode(inode))
		proc_irq_evict(inode);
	else if (proc_sys_inode(inode))
		proc_sys_evict(inode);
	kfree(inode);
}

static struct inode *proc_get_parent(struct inode *inode)
{
	if (proc_irq_inode(inode))
		return proc_irq_parent(inode);
	if (proc_sys_inode(inode))
		return proc_sys_parent(inode);
	return proc_entry_of(inode) ? igrab(inode->i_sb->s_root) : NULL;
}

static const char *proc_name(struct inode *inode)
{
	return proc_entry_of(inode) ? proc_entry_of(inode)->name : "";
}

static const struct super_operations proc_sops = {
	.evict_inode = proc_evict_inode,
	.get_parent = proc_get_parent,
	.name = proc_name,
};

static int proc_get_sb(struct file_system_type *fs, const char *dev_name,
		       struct super_block **out)
{
	struct super_block *sb = alloc_super(fs, &proc_sops);

	if (!sb)
		return -ENOMEM;
	sb->s_root = proc_new_inode(sb, NULL);
	if (!sb->s_root) {
		free_super(sb);
		return -ENOMEM;
	}
	*out = sb;
	return 0;
}

static void proc_kill_sb(struct super_block *sb)
{
	iput(sb->s_root);
	free_super(sb);
}

static struct file_system_type proc_fs_type = {
	.name = "proc",
	.get_sb = proc_get_sb,
	.kill_sb = proc_kill_sb,
};

int proc_root_init(void)
{
	int err = register_filesystem(&proc_fs_type);

	if (!err)
		err = vfs_mkdir(NULL, "/proc", 0555);
	if (!err)
		err = do_mount(NULL, "proc", "/proc", "proc");
	if (err)
		pr_err("proc: cannot mount /proc: %s\n", kstrerror(err));
	return err;
}
