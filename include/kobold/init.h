/* init.h: the subsystems that kmain starts, in the order it starts them. */
#ifndef KOBOLD_INIT_H
#define KOBOLD_INIT_H

/* The block class, /sys/block and major numbers (block/genhd.c). */
int genhd_init(void);
/* Crashes on purpose when booted with lkdtm.crash=... (drivers/misc/lkdtm.c). */
void lkdtm_run(void);

#endif
