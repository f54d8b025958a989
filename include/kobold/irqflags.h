/* irqflags.h: interrupts off and back on around a short critical section. */
#ifndef KOBOLD_IRQFLAGS_H
#define KOBOLD_IRQFLAGS_H

#include <kobold/types.h>

#ifdef KOBOLD_HOST
/* The host test binary has no interrupts: nothing to hold off. */
static inline unsigned long local_irq_save(void) { return 0; }
static inline void local_irq_restore(unsigned long flags) { (void)flags; }
static inline void local_irq_disable(void) {}
static inline void local_irq_enable(void) {}
static inline bool irqs_disabled(void) { return false; }
static inline unsigned long raw_local_irq_save(void) { return 0; }
static inline void raw_local_irq_restore(unsigned long flags) { (void)flags; }
static inline void raw_local_irq_disable(void) {}
static inline void raw_local_irq_enable(void) {}
#else
#include <asm/io.h>

/* True while this CPU takes no interrupts (EFLAGS.IF clear). */
static inline bool irqs_disabled(void)
{
	unsigned long flags;

	__asm__ volatile("pushfl; popl %0" : "=r"(flags));
	return !(flags & 0x200);
}
#endif

#endif
