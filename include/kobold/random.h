/* random.h: bytes for AT_RANDOM and getrandom (kernel/random.c), and the CPU's AT_HWCAP. */
#ifndef KOBOLD_RANDOM_H
#define KOBOLD_RANDOM_H

#include <kobold/types.h>

void get_random_bytes(void *buf, size_t n);
/* CPUID leaf 1's EDX, as Linux i386 gives it in AT_HWCAP. */
u32 cpu_hwcap(void);

#endif
