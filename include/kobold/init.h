/* init.h: the subsystems that kmain starts, in the order it starts them. */
#ifndef KOBOLD_INIT_H
#define KOBOLD_INIT_H

#include <kobold/types.h>

/* The block class, /sys/block and major numbers (block/genhd.c). */
int genhd_init(void);
/* The memory devices, char major 1 (drivers/char/mem.c). */
int chr_dev_init(void);
/* The BIOS's COM ports (before paging), then ttyS0..3 as char devices (serial_tty.c). */
void serial_probe_bios_ports(void);
bool serial_has_com1(void); /* the BIOS reported COM1: ttyS0 will be a console */
int serial_tty_init(void);
/* The BIOS data area, copied before paging_init unmaps page 0 (kernel/pc_devices.c). */
void pc_bda_copy(void);
/* The PC's legacy devices on the platform bus (kernel/pc_devices.c). */
void pc_devices_init(void);
/* The legacy drivers, built in: each registers its driver, which binds to its device. */
int serial8250_init(void);	     /* drivers/tty/8250.c */
int i8042_init(void);		     /* drivers/input/serio/i8042.c: the serio bus too */
bool i8042_controller_present(void); /* something answers at port 0x64 */
void i8042_pulse_reset(void);	     /* restart the machine (machine_restart) */
int atkbd_init(void);		     /* drivers/input/atkbd.c */
int rtc_cmos_init(void);	     /* drivers/rtc/rtc-cmos.c */
int vga_init(void);		     /* drivers/video/vgacon.c */
int virtio_rng_init(void);	     /* drivers/char/hw_random/virtio-rng.c */
/* Crashes on purpose when booted with lkdtm.crash=... (drivers/misc/lkdtm.c). */
void lkdtm_run(void);

#endif
