/* blkbench.h: `blk bench`, the block layer's benchmark, called by the `blk` command. */
#ifndef KOBOLD_SHELL_BLKBENCH_H
#define KOBOLD_SHELL_BLKBENCH_H

#include <kobold/blkdev.h>

/* argv: blk bench DEV ...; returns the command's exit status. */
int blk_bench(struct gendisk *disk, int argc, char **argv);

#endif
