/* block.c: the shell's disk commands: lsblk, and blk read|write|flush|bench. */
#include "blkbench.h"

#include <kobold/blkdev.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/shell.h>
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
}

static void lsblk_row(struct gendisk *d, void *arg)
{
	int *w = arg;
	char sz[16], mm[16];

	human_size(d->capacity * SECTOR_SIZE, sz, sizeof(sz));
	scnprintf(mm, sizeof(mm), "%3u:%-3u", d->major, d->first_minor);
	sh_printf("%-*s %s %2d %6s %2d disk\n", *w, d->disk_name, mm, d->removable, sz,
		  d->read_only);
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
	if (err == -EINTR)
		return 130;	/* Ctrl-C: the shell says ^C */
	sh_err("blk: %s: %s\n", disk, kstrerror(err));
	return 1;
}

static int blk_read(struct gendisk *d, int argc, char **argv)
{
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
	if (count > 2048)	/* a 1 MiB dump is already more than a terminal wants */
		return blk_error(d->disk_name, -EINVAL);
	err = blk_check(d, REQ_OP_READ, sector, count);
	if (err)
		return blk_error(d->disk_name, err);
	buf = kmalloc(count * SECTOR_SIZE);
	if (!buf)
		return blk_error(d->disk_name, -ENOMEM);
	err = blk_rw(d, REQ_OP_READ, sector, count, buf);
	if (!err)
		err = hexdump(buf, count * SECTOR_SIZE, sector * SECTOR_SIZE);
	kfree(buf);
	return err ? blk_error(d->disk_name, err) : 0;
}

static int blk_write(struct gendisk *d, int argc, char **argv)
{
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
		return blk_error(d->disk_name, -ENOMEM);
	for (int i = 4; i < argc && len < SECTOR_SIZE; i++) {
		size_t n = min(strlen(argv[i]), (size_t)SECTOR_SIZE - len);

		memcpy(buf + len, argv[i], n);
		len += n;
		if (i + 1 < argc && len < SECTOR_SIZE)
			buf[len++] = ' ';
	}
	err = blk_rw(d, REQ_OP_WRITE, sector, 1, buf);
	kfree(buf);
	return err ? blk_error(d->disk_name, err) : 0;
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

static int cmd_blk(int argc, char **argv)
{
	struct gendisk *d;
	int ret;

	if (argc < 3) {
		sh_err("usage: blk read|write|flush|bench DEV ...\n");
		return 1;
	}
	d = get_gendisk_by_name(argv[2]);
	if (!d) {
		sh_err("blk: %s: %s\n", argv[2], kstrerror(-ENODEV));
		return 1;
	}
	if (!strcmp(argv[1], "read"))
		ret = blk_read(d, argc, argv);
	else if (!strcmp(argv[1], "write"))
		ret = blk_write(d, argc, argv);
	else if (!strcmp(argv[1], "flush"))
		ret = blk_flush(d, argc, argv);
	else if (!strcmp(argv[1], "bench"))
		ret = blk_bench(d, argc, argv);
	else
		ret = blk_error(argv[1], -EINVAL);
	put_disk(d);
	return ret;
}
SHELL_COMMAND("blk", "read|write|flush|bench DEV ...", "sector I/O on a disk (see docs/block.md)",
	      cmd_blk);
