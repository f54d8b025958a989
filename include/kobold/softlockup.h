/*
 * softlockup.h: the soft-lockup watchdog (kernel/softlockup.c), as Linux
 * 2.6.18's: a watchdog/N thread per CPU notes the time each second; a CPU
 * whose watchdog has not run for softlockup_thresh seconds (10 by default,
 * a boot option here) is running something that does not let it go.
 */
#ifndef KOBOLD_SOFTLOCKUP_H
#define KOBOLD_SOFTLOCKUP_H

#include <kobold/types.h>

/* Starts watchdog/N on each online CPU, and on each that comes up later. */
void softlockup_init(void);
/* From each CPU's timer tick: wakes the watchdog, or says the CPU is locked up. */
void softlockup_tick(void);
/* This CPU is known to be busy on purpose: the count starts again. */
void touch_softlockup_watchdog(void);
/* The seconds after which a CPU counts as locked up. */
unsigned int softlockup_threshold(void);
/* How many lockups this CPU has reported since boot (lkdtm's SOFTLOCKUP waits for one). */
unsigned long softlockup_reports(unsigned int cpu);

#endif
