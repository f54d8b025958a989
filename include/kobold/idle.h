/* idle.h: halting an idle CPU, and the time it has spent halted (kernel/idle.c). */
#ifndef KOBOLD_IDLE_H
#define KOBOLD_IDLE_H

#include <kobold/types.h>

void default_idle(void);
u64 idle_time_ns(void);

#endif
