/*
 * irq.c: /proc/irq (2.6's kernel/irq/proc.c): a directory per interrupt
 * line that has a controller, each holding smp_affinity, the CPUs the line
 * may be sent to as a hex mask; writing a mask moves the line.
 */
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/proc_fs.h>
#include <kobold/slab.h>
#include <kobold/smp.h>
#include <kobold/string.h>

#define PROC_IRQ_INO_BASE 0x8000
#define MASK_DIGITS ((NR_CPUS + 3) / 4) /* as 2.6's bitmap_scnprintf of an NR_CPUS mask */

enum irq_kind { IRQ_ROOT,
		IRQ_DIR,
		IRQ_AFFINITY };

struct proc_irq_node {
	const char *name; /* first, as struct proc_entry: root.c's proc_name reads it */
	void *unused;
	enum irq_kind kind;
	unsigned int irq;
	char namebuf[16];
};

static const struct inode_operations irq_dir_iops;
static const struct file_operations irq_dir_fops, irq_affinity_fops;

static struct proc_irq_node *node_of(struct inode *inode) { return inode->i_private; }

bool proc_irq_inode(struct inode *inode)
{
	return inode->i_fop == &irq_dir_fops || inode->i_fop == &irq_affinity_fops;
}

void proc_irq_evict(struct inode *inode) { kfree(inode->i_private); }

static struct inode *irq_inode(struct super_block *sb, enum irq_kind kind, unsigned int irq)
{
	struct inode *inode = kzalloc(sizeof(*inode));
	struct proc_irq_node *n = kzalloc(sizeof(*n));

	if (!inode || !n) {
		kfree(inode);
		kfree(n);
		return NULL;
	}
	n->kind = kind;
	n->irq = irq;
	if (kind == IRQ_ROOT)
		strscpy(n->namebuf, "irq", sizeof(n->namebuf));
	else if (kind == IRQ_DIR)
		scnprintf(n->namebuf, sizeof(n->namebuf), "%u", irq);
	else
		strscpy(n->namebuf, "smp_affinity", sizeof(n->namebuf));
	n->name = n->namebuf;
	inode->i_sb = sb;
	inode->i_count = 1;
	inode->i_private = n;
	inode->i_ino = PROC_IRQ_INO_BASE + (kind == IRQ_ROOT ? 0 : 1 + irq * 2 + (kind == IRQ_AFFINITY));
	if (kind == IRQ_AFFINITY) {
		inode->i_mode = S_IFREG | 0600; /* 2.6's mode */
		inode->i_nlink = 1;
		inode->i_fop = &irq_affinity_fops;
	} else {
		inode->i_mode = S_IFDIR | 0555;
		inode->i_nlink = 2;
		inode->i_op = &irq_dir_iops;
		inode->i_fop = &irq_dir_fops;
	}
	return inode;
}

struct inode *proc_irq_root_inode(struct super_block *sb) { return irq_inode(sb, IRQ_ROOT, 0); }

/* The parent of a node below /proc/irq; /proc for /proc/irq itself. */
struct inode *proc_irq_parent(struct inode *inode)
{
	struct proc_irq_node *n = node_of(inode);

	if (n->kind == IRQ_ROOT)
		return igrab(inode->i_sb->s_root);
	return irq_inode(inode->i_sb, n->kind == IRQ_DIR ? IRQ_ROOT : IRQ_DIR, n->irq);
}

static bool parse_irq(const char *s, unsigned int *irq)
{
	return s[0] && (s[0] != '0' || !s[1]) && !kstrtouint(s, 10, irq) && irq_has_chip(*irq);
}

static int irq_dir_lookup(struct inode *dir, const char *name, struct inode **out)
{
	struct proc_irq_node *n = node_of(dir);
	unsigned int irq;

	if (n->kind == IRQ_ROOT && parse_irq(name, &irq))
		*out = irq_inode(dir->i_sb, IRQ_DIR, irq);
	else if (n->kind == IRQ_DIR && !strcmp(name, "smp_affinity") && irq_has_chip(n->irq))
		*out = irq_inode(dir->i_sb, IRQ_AFFINITY, n->irq);
	else
		return -ENOENT;
	return *out ? 0 : -ENOMEM;
}

/* The lines' numbers as text, the next after `after` in the order of their names. */
static int irq_dir_readdir(struct file *file, const char *after, struct vfs_dirent *out)
{
	struct proc_irq_node *n = node_of(file->f_path.inode);
	bool found = false;
	char name[16];

	if (n->kind == IRQ_DIR) {
		if (after)
			return 0;
		strscpy(out->name, "smp_affinity", sizeof(out->name));
		out->type = S_IFREG;
		return 1;
	}
	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		if (!irq_has_chip(irq))
			continue;
		scnprintf(name, sizeof(name), "%u", irq);
		if ((!after || strcmp(name, after) > 0) && (!found || strcmp(name, out->name) < 0)) {
			strscpy(out->name, name, sizeof(out->name));
			out->type = S_IFDIR;
			found = true;
		}
	}
	return found;
}

static ssize_t irq_affinity_read(struct file *file, char *buf, size_t n, loff_t *pos)
{
	char text[MASK_DIGITS + 2];
	size_t len = (size_t)scnprintf(text, sizeof(text), "%0*lx\n", MASK_DIGITS,
				       irq_affinity(node_of(file->f_path.inode)->irq));

	if (*pos >= (loff_t)len)
		return 0;
	n = min(n, len - (size_t)*pos);
	memcpy(buf, text + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20; /* lower case */
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/*
 * As 2.6's bitmap_parse of an NR_CPUS mask: hex digits, then only white
 * space (a mask wider than NR_CPUS, which 2.6 refused with EOVERFLOW, is
 * EINVAL here).
 */
static int parse_mask(const char *buf, size_t n, unsigned long *mask)
{
	size_t i = 0;

	*mask = 0;
	while (i < n && buf[i] == '0')
		i++;
	if (i == n || buf[i] == '\n' || buf[i] == ' ') /* all zeros: parsed, and empty */
		return i ? 0 : -EINVAL;
	for (; i < n && buf[i] != '\n' && buf[i] != ' '; i++) {
		int d = hex_digit(buf[i]);

		if (d < 0)
			return -EINVAL;
		if (*mask >> (NR_CPUS - 4))
			return -EINVAL;
		*mask = *mask << 4 | (unsigned long)d;
	}
	for (; i < n; i++)
		if (buf[i] != '\n' && buf[i] != ' ')
			return -EINVAL;
	return *mask >> NR_CPUS ? -EINVAL : 0;
}

static ssize_t irq_affinity_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	unsigned long mask;
	int err = parse_mask(buf, n, &mask);

	if (!err)
		err = irq_set_affinity(node_of(file->f_path.inode)->irq, mask);
	return err ? err : (ssize_t)n;
}

static const struct inode_operations irq_dir_iops = { .lookup = irq_dir_lookup };
static const struct file_operations irq_dir_fops = { .readdir = irq_dir_readdir };
static const struct file_operations irq_affinity_fops = {
	.read = irq_affinity_read,
	.write = irq_affinity_write,
};
