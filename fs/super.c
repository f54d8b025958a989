/* super.c: filesystem types and their superblocks (one per mount of tmpfs). */
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/proc_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static LIST_HEAD(file_systems);
static unsigned int next_dev_minor = 1;

int register_filesystem(struct file_system_type *fs)
{
	struct file_system_type *p;

	list_for_each_entry(p, &file_systems, list)
		if (p == fs || strcmp(p->name, fs->name) == 0)
			return p == fs ? 0 : -EBUSY;
	list_add_tail(&fs->list, &file_systems);
	return 0;
}

void unregister_filesystem(struct file_system_type *fs)
{
	list_del_init(&fs->list);
}

struct file_system_type *get_fs_type(const char *name)
{
	struct file_system_type *p;

	list_for_each_entry(p, &file_systems, list)
		if (strcmp(p->name, name) == 0)
			return p;
	return NULL;
}

/* /proc/filesystems: "nodev" (none of Kobold's needs a block device), a tab, the name. */
size_t proc_show_filesystems(char *buf, size_t size)
{
	struct file_system_type *p;
	size_t n = 0;

	list_for_each_entry(p, &file_systems, list)
		n += scnprintf(buf + n, size - n, "nodev\t%s\n", p->name);
	return n;
}

struct super_block *alloc_super(struct file_system_type *type, const struct super_operations *op)
{
	struct super_block *sb = kzalloc(sizeof(*sb));

	if (!sb)
		return NULL;
	sb->s_type = type;
	sb->s_op = op;
	sb->s_active = 1;
	sb->s_dev_minor = next_dev_minor++;
	return sb;
}

void free_super(struct super_block *sb)
{
	kfree(sb);
}
