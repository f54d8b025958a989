/* init.h: the subsystems that kmain starts, in the order it starts them. */
#ifndef KOBOLD_INIT_H
#define KOBOLD_INIT_H

/* The block class, /sys/block and major numbers (block/genhd.c). */
int genhd_init(void);
/* The memory devices, char major 1 (drivers/char/mem.c). */
int chr_dev_init(void);
/* The BIOS's COM ports (before paging), then ttyS0..3 as char devices (serial_tty.c). */
void serial_probe_bios_ports(void);
int serial_tty_init(void);
/* Crashes on purpose when booted with lkdtm.crash=... (drivers/misc/lkdtm.c). */
void lkdtm_run(void);

#endif
