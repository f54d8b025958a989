/* wait.h: waiting for something an interrupt handler will do. */
#ifndef KOBOLD_WAIT_H
#define KOBOLD_WAIT_H

#include <kobold/types.h>

/*
 * Returns once *flag is true, idling the CPU between interrupts. In the
 * host build, where completions are synchronous, it only checks.
 */
void wait_for_flag(volatile bool *flag);

#endif
