/* block.c: the shell's disk commands: lsblk, and blk read|write|flush|bench. */
#include "blkbench.h"

#include <kobold/blkdev.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/genhd.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>

/* util-linux's human sizes: binary units, one decimal where it is not whole. */
static void human_size(u64 bytes, char *buf, size_t size)
{
	static const char units[] = "BKMGTP";
	u64 whole = bytes, frac = 0;
	int u = 0;

	while (whole >= 1024 && u < 5) {
		frac = (whole % 1024) * 10 / 1024;
		whole /= 1024;
		u++;
	}
	if (frac)
		scnprintf(buf, size, "%lu.%lu%c", (unsigned long)whole, (unsigned long)frac, units[u]);
	else
		scnprintf(buf, size, "%lu%c", (unsigned long)whole, units[u]);
}

static void lsblk_width(struct gendisk *d, void *arg)
{
	int *w = arg;

	*w = max(*w, (int)strlen(d->disk_name));
	for (int n = 1; n < d->minors; n++)
		if (disk_get_part(d, n)) /* "├─" takes two columns */
			*w = max(*w, 2 + (int)strlen(kobject_name(&d->part[n]->kobj)));
}

static void lsblk_line(int w, const char *tree, const char *name, unsigned int major,
		       unsigned int minor, int rm, u64 sectors, int ro, const char *type)
{
	char sz[16], mm[16];

	human_size(sectors * SECTOR_SIZE, sz, sizeof(sz));
	scnprintf(mm, sizeof(mm), "%3u:%-3u", major, minor);
	sh_printf("%s%-*s %s %2d %6s %2d %s\n", tree, w - (*tree ? 2 : 0), name, mm, rm, sz, ro,
		  type);
}

/* The disk, then its partitions as util-linux draws them (├─vda1, └─vda2). */
static void lsblk_row(struct gendisk *d, void *arg)
{
	int *w = arg, last = 0;

	lsblk_line(*w, "", d->disk_name, d->major, d->first_minor, d->removable, d->capacity,
		   d->read_only, "disk");
	for (int n = 1; n < d->minors; n++)
		last = disk_get_part(d, n) ? n : last;
	for (int n = 1; n <= last; n++) {
		struct hd_struct *p = disk_get_part(d, n);

		if (p)
			lsblk_line(*w, n == last ? "└─" : "├─", kobject_name(&p->kobj), d->major,
				   d->first_minor + (unsigned int)n, d->removable, p->nr_sects,
				   d->read_only, "part");
	}
}

static int cmd_lsblk(int argc, char **argv)
{
	int w = 4;

	if (argc > 1) {
		sh_err("lsblk: takes no arguments\n");
		return 1;
	}
	blk_for_each_disk(lsblk_width, &w);
	sh_printf("%-*s MAJ:MIN RM   SIZE RO TYPE\n", w, "NAME");
	blk_for_each_disk(lsblk_row, &w);
	return 0;
}
SHELL_COMMAND("lsblk", "", "list the block devices", cmd_lsblk);

/* hexdump -C: offset, 16 bytes in hex, the same as text; repeats shown as '*'. */
static int hexdump(const u8 *p, size_t len, u64 base)
{
	bool starred = false;

	for (size_t off = 0; off < len; off += 16) {
		if (signal_pending())
			return -EINTR;
		if (off && memcmp(p + off, p + off - 16, 16) == 0) {
			if (!starred)
				sh_printf("*\n");
			starred = true;
			continue;
		}
		starred = false;
		sh_printf("%08lx ", (unsigned long)(base + off));
		for (int i = 0; i < 16; i++)
			sh_printf("%s %02x", i == 8 ? " " : "", p[off + i]);
		sh_printf("  |");
		for (int i = 0; i < 16; i++)
			sh_printf("%c", p[off + i] >= 0x20 && p[off + i] < 0x7f ? p[off + i] : '.');
		sh_printf("|\n");
	}
	sh_printf("%08lx\n", (unsigned long)(base + len));
	return 0;
}

static int parse_u64(const char *s, const char *what, u64 *v)
{
	unsigned long long x;

	if (kstrtoull(s, 0, &x)) {
		sh_err("blk: invalid %s '%s'\n", what, s);
		return -EINVAL;
	}
	*v = x;
	return 0;
}

static int blk_error(const char *disk, int err)
{
	if (sh_interrupted(err))
		return 130; /* Ctrl-C: the shell says ^C */
	sh_err("blk: %s: %s\n", disk, kstrerror(err));
	return 1;
}

static int blk_read(struct block_device *b, int argc, char **argv)
{
	const char *name = argv[2];
	u64 sector, count = 1;
	u8 *buf;
	int err;

	if (argc < 4 || argc > 5) {
		sh_err("usage: blk read DEV SECTOR [COUNT]\n");
		return 1;
	}
	if (parse_u64(argv[3], "sector", &sector) ||
	    (argc == 5 && parse_u64(argv[4], "count", &count)))
		return 1;
	if (count > 2048) /* a 1 MiB dump is already more than a terminal wants */
		return blk_error(name, -EINVAL);
	err = bdev_check(b, REQ_OP_READ, sector, count);
	if (err)
		return blk_error(name, err);
	buf = kmalloc(count * SECTOR_SIZE);
	if (!buf)
		return blk_error(name, -ENOMEM);
	err = bdev_rw(b, REQ_OP_READ, sector, count, buf);
	if (!err)
		err = hexdump(buf, count * SECTOR_SIZE, sector * SECTOR_SIZE);
	kfree(buf);
	return err ? blk_error(name, err) : 0;
}

static int blk_write(struct block_device *b, int argc, char **argv)
{
	const char *name = argv[2];
	u8 *buf;
	u64 sector;
	size_t len = 0;
	int err;

	if (argc < 5) {
		sh_err("usage: blk write DEV SECTOR TEXT\n");
		return 1;
	}
	if (parse_u64(argv[3], "sector", &sector))
		return 1;
	buf = kzalloc(SECTOR_SIZE);
	if (!buf)
		return blk_error(name, -ENOMEM);
	for (int i = 4; i < argc && len < SECTOR_SIZE; i++) {
		size_t n = min(strlen(argv[i]), (size_t)SECTOR_SIZE - len);

		memcpy(buf + len, argv[i], n);
		len += n;
		if (i + 1 < argc && len < SECTOR_SIZE)
			buf[len++] = ' ';
	}
	err = bdev_rw(b, REQ_OP_WRITE, sector, 1, buf);
	kfree(buf);
	return err ? blk_error(name, err) : 0;
}

static int blk_flush(struct gendisk *d, int argc, char **argv)
{
	int err;

	if (argc != 3) {
		sh_err("usage: blk flush DEV\n");
		return 1;
	}
	err = blk_rw(d, REQ_OP_FLUSH, 0, 0, NULL);
	return err ? blk_error(d->disk_name, err) : 0;
}

/* A disk or a partition by name ("vda", "vda1") or by its node ("/dev/vda1"), counted. */
int shell_find_bdev(const char *arg, struct block_device *b)
{
	struct kstat st;
	int err;

	if (!strchr(arg, '/'))
		return blkdev_get_by_name(arg, b);
	err = vfs_stat(shell_cwd(), arg, LOOKUP_FOLLOW, &st);
	if (err)
		return err;
	if (!S_ISBLK(st.mode))
		return -ENODEV;
	return blkdev_get_by_dev(st.rdev, b);
}

/* read, write and bench take a partition as well as a disk; flush a whole disk. */
static int cmd_blk(int argc, char **argv)
{
	struct block_device b = { 0 };
	int ret;

	if (argc < 3) {
		sh_err("usage: blk read|write|flush|bench DEV ...\n");
		return 1;
	}
	if (shell_find_bdev(argv[2], &b)) {
		sh_err("blk: %s: %s\n", argv[2], kstrerror(-ENODEV));
		return 1;
	}
	if (!strcmp(argv[1], "read"))
		ret = blk_read(&b, argc, argv);
	else if (!strcmp(argv[1], "write"))
		ret = blk_write(&b, argc, argv);
	else if (!strcmp(argv[1], "flush"))
		ret = blk_flush(b.bd_disk, argc, argv);
	else if (!strcmp(argv[1], "bench"))
		ret = blk_bench(&b, argc, argv);
	else
		ret = blk_error(argv[1], -EINVAL);
	blkdev_put(&b);
	return ret;
}
SHELL_COMMAND("blk", "read|write|flush|bench DEV ...", "sector I/O on a disk (see docs/block.md)",
	      cmd_blk);
