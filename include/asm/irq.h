/*
 * irq.h: interrupt lines and their handlers, shared lines included. IRQ
 * 0-15 are the ISA lines (the I/O APIC's, or the 8259 pair's); 16 and up
 * are message-signalled (MSI, MSI-X), each a vector of its own at the local
 * APIC, handed out by create_irq().
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <asm/ptrace.h>
#include <kobold/types.h>

#define NR_IRQS_LEGACY 16
#define NR_IRQS 48
#define IRQ_BASE 32 /* IRQ n arrives as vector IRQ_BASE + n */

enum irqreturn {
	IRQ_NONE,
	IRQ_HANDLED,
};
typedef enum irqreturn (*irq_handler_t)(int irq, void *dev);

/* Several handlers may share a line; each must check whether its device asked. */
int request_irq(int irq, irq_handler_t handler, const char *name, void *dev);
void free_irq(int irq, void *dev);
/* The ISA lines on the 8259, or on the I/O APIC when the MADT names one; the local APIC on. */
void init_IRQ(void);
void irq_dispatch(int irq);
unsigned long irq_count(int irq);
/* A free message-signalled IRQ (its vector is IRQ_BASE + irq), or -ENOSPC: MSI-X's, MSI's. */
int create_irq(void);
int create_msi_irq(void);
void destroy_irq(int irq);
static inline unsigned int irq_to_vector(int irq) { return IRQ_BASE + (unsigned int)irq; }
/* A spurious interrupt (8259 IRQ 7/15 or the APIC's spurious vector): counted as ERR. */
void irq_count_spurious(void);
/* An NMI on this CPU (NMI:), a local APIC timer interrupt on this CPU (LOC:). */
void irq_count_nmi(void);
void irq_count_local_timer(void);
/*
 * The CPUs a line may be sent to, as a mask (2.6's irq_affinity[irq]):
 * every line starts on CPU 0's; setting it sends the line to the first
 * online CPU of the mask. -EIO if its controller cannot move it (the 8259,
 * MSI-X), -EINVAL if no CPU of the mask is online or the line has no
 * controller.
 */
unsigned long irq_affinity(unsigned int irq);
int irq_set_affinity(unsigned int irq, unsigned long mask);
/* A driver sent the line to cpu itself (an MSI-X queue's CPU): smp_affinity says so. */
void irq_affinity_set_by_driver(unsigned int irq, unsigned int cpu);
/* True if the line has a controller: /proc/irq has a directory for it. */
bool irq_has_chip(unsigned int irq);
/* A CPU going down: the lines sent to it move to another (2.6's fixup_irqs). */
void fixup_irqs(unsigned int dead_cpu);
/* /proc/interrupts as Linux 2.6 prints it; returns the length written into buf. */
size_t show_interrupts(char *buf, size_t size);

#endif
