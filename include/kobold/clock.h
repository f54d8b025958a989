/* clock.h: monotonic time since boot, from the calibrated CPU clock. */
#ifndef KOBOLD_CLOCK_H
#define KOBOLD_CLOCK_H

#include <kobold/types.h>

u64 ktime_get_ns(void);
static inline u64 ktime_get_us(void) { return ktime_get_ns() / 1000; }

#endif
