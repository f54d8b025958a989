/* irq_regs.h: the registers an interrupt interrupted, per CPU, for code the handler calls (2.6.19's get_irq_regs). */
#ifndef ASM_IRQ_REGS_H
#define ASM_IRQ_REGS_H

#include <asm/ptrace.h>
#include <kobold/smp.h>

extern struct pt_regs *irq_regs[NR_CPUS];

/* NULL outside an interrupt handler. */
static inline struct pt_regs *get_irq_regs(void) { return irq_regs[smp_processor_id()]; }

/* Returns the previous value, for the handler to put back on its way out. */
static inline struct pt_regs *set_irq_regs(struct pt_regs *regs)
{
	struct pt_regs *old = irq_regs[smp_processor_id()];

	irq_regs[smp_processor_id()] = regs;
	return old;
}

#endif
