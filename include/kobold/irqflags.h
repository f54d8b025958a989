/* irqflags.h: interrupts off and back on around a short critical section. */
#ifndef KOBOLD_IRQFLAGS_H
#define KOBOLD_IRQFLAGS_H

#include <kobold/types.h>

#ifdef KOBOLD_HOST
/*
 * The host test binary has no interrupts: a flag of its own stands for
 * EFLAGS.IF, so that lockdep's tests see a lock taken with interrupts on
 * or off as the kernel would.
 */
extern unsigned long host_irq_flags;
#define X86_EFLAGS_IF 0x200
static inline unsigned long raw_local_irq_save(void)
{
	unsigned long flags = host_irq_flags;

	host_irq_flags &= ~X86_EFLAGS_IF;
	return flags;
}
static inline void raw_local_irq_restore(unsigned long flags) { host_irq_flags = flags; }
static inline void raw_local_irq_disable(void) { host_irq_flags &= ~X86_EFLAGS_IF; }
static inline void raw_local_irq_enable(void) { host_irq_flags |= X86_EFLAGS_IF; }
static inline unsigned long local_irq_save(void) { return raw_local_irq_save(); }
static inline void local_irq_restore(unsigned long flags) { raw_local_irq_restore(flags); }
static inline void local_irq_disable(void) { raw_local_irq_disable(); }
static inline void local_irq_enable(void) { raw_local_irq_enable(); }
static inline bool irqs_disabled(void) { return !(host_irq_flags & X86_EFLAGS_IF); }
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

/* True if @flags (from local_irq_save) had interrupts off. */
static inline bool irqs_disabled_flags(unsigned long flags) { return !(flags & X86_EFLAGS_IF); }

#endif
