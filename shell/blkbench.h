/* blkbench.h: `blk bench`, the block layer's benchmark, called by the `blk` command. */
#ifndef KOBOLD_SHELL_BLKBENCH_H
#define KOBOLD_SHELL_BLKBENCH_H

#include <kobold/genhd.h>

/* argv: blk bench DEV ...; DEV a disk or a partition. Returns the command's exit status. */
int blk_bench(struct block_device *bdev, int argc, char **argv);
/* A disk or a partition by name ("vda1") or node ("/dev/vda1"), counted: blkdev_put it. */
int shell_find_bdev(const char *arg, struct block_device *b);

#endif
