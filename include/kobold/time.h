/* time.h: jiffies, busy-wait delays and the clock's set-up. */
#ifndef KOBOLD_TIME_H
#define KOBOLD_TIME_H

#include <kobold/types.h>

#define HZ 1000
#define USER_HZ 100 /* the tick user space sees: times(), /proc's clock ticks */

extern volatile unsigned long jiffies;
extern u32 tsc_khz; /* the TSC's rate, calibrated against the PIT at boot */
void time_init(void);
/* The wall clock at boot, in seconds since 1970 (/proc/stat's btime). */
unsigned long boot_time_seconds(void);
/* /sys/devices/system/timer/timer0, the PIT. */
int time_init_device(void);
void mdelay(unsigned int ms);
void udelay(unsigned int us);

#endif
