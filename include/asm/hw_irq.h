/*
 * hw_irq.h: the interrupt controllers behind the IRQ lines (Linux 2.6's
 * struct hw_interrupt_type, the "handler" of each irq_desc): the 8259 pair
 * (XT-PIC), the I/O APIC (IO-APIC-edge, IO-APIC-level) and MSI-X messages
 * to the local APIC (PCI-MSI-X). The typename is what /proc/interrupts shows.
 */
#ifndef ASM_HW_IRQ_H
#define ASM_HW_IRQ_H

#include <asm/irq.h>

#define IRQ_TYPE_EDGE 0
#define IRQ_TYPE_LEVEL 1 /* as the PCI bus wires INTx# (PCI 3.0 §2.2.6) */

struct hw_interrupt_type {
	const char *typename;
	void (*enable)(unsigned int irq);  /* unmask: the first handler came */
	void (*disable)(unsigned int irq); /* mask: the last handler went */
	bool (*ack)(unsigned int irq);	   /* before the handlers; false: spurious, drop it */
	void (*end)(unsigned int irq);	   /* after the handlers: EOI */
	int (*set_type)(unsigned int irq, unsigned int type);
	void (*set_affinity)(unsigned int irq, unsigned int cpu); /* sends it to that CPU now */
};

/* The controller of a line; its typename names the line in /proc/interrupts. */
void set_irq_chip(unsigned int irq, struct hw_interrupt_type *chip);
/* Edge or level (IRQ_TYPE_*), as the controller of the line can set it. */
int set_irq_type(unsigned int irq, unsigned int type);

/* i8259.c: the legacy pair; IRQ 0-15 as XT-PIC lines, or all masked once the I/O APIC takes over. */
extern struct hw_interrupt_type i8259A_irq_type;
void init_ISA_irqs(void);
void disable_8259A(void);
int i8259_init_sysfs(void);

/* io_apic.c: from the ACPI MADT; false (and the 8259 stays) without one or with noapic. */
bool setup_IO_APIC(void);
int ioapic_init_sysfs(void);

#endif
