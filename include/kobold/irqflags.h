/* irqflags.h: interrupts off and back on around a short critical section. */
#ifndef KOBOLD_IRQFLAGS_H
#define KOBOLD_IRQFLAGS_H

#ifdef KOBOLD_HOST
/* The host test binary has no interrupts: nothing to hold off. */
static inline unsigned long local_irq_save(void) { return 0; }
static inline void local_irq_restore(unsigned long flags) { (void)flags; }
#else
#include <asm/io.h>
#endif

#endif
