/* blockdev.c: the shell's blockdev (util-linux's): --rereadpt, --getsz, --getsize64, --getro. */
#include <kobold/errno.h>
#include <kobold/genhd.h>
#include <kobold/shell.h>
#include <kobold/string.h>

#include "blkbench.h"

/* BLKRRPART: a partition's device (or a disk without partitions) cannot re-read. */
static int reread(struct block_device *b)
{
	if (b->bd_part)
		return -EINVAL;
	return rescan_partitions(b->bd_disk);
}

static int blockdev_op(const char *op, struct block_device *b)
{
	if (!strcmp(op, "--rereadpt")) {
		int err = reread(b);

		if (err)
			sh_err("blockdev: ioctl error on BLKRRPART: %s\n", kstrerror(err));
		return err ? 1 : 0;
	}
	if (!strcmp(op, "--getsz"))
		sh_printf("%llu\n", (unsigned long long)bdev_nr_sectors(b));
	else if (!strcmp(op, "--getsize64"))
		sh_printf("%llu\n", (unsigned long long)bdev_nr_sectors(b) * SECTOR_SIZE);
	else if (!strcmp(op, "--getro"))
		sh_printf("%d\n", b->bd_disk->read_only);
	else
		return -1;
	return 0;
}

static int cmd_blockdev(int argc, char **argv)
{
	struct block_device b;
	int ret;

	if (argc != 3) {
		sh_err("usage: blockdev --rereadpt|--getsz|--getsize64|--getro DEVICE\n");
		return 1;
	}
	if (shell_find_bdev(argv[2], &b)) { /* "vda1" or "/dev/vda1", as util-linux takes a node */
		sh_err("blockdev: cannot open %s: %s\n", argv[2], kstrerror(-ENOENT));
		return 1;
	}
	ret = blockdev_op(argv[1], &b);
	blkdev_put(&b);
	if (ret < 0) {
		sh_err("blockdev: Unknown command: %s\n", argv[1]);
		return 1;
	}
	return ret;
}
SHELL_COMMAND("blockdev", "--rereadpt|--getsz|--getsize64|--getro DEVICE",
	      "re-read a disk's partition table; a block device's size or read-only flag",
	      cmd_blockdev);
