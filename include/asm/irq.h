/* irq.h: the two 8259 PICs and interrupt handlers, shared lines included. */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <asm/ptrace.h>

#define NR_IRQS 16
#define IRQ_BASE 32	/* IRQ n arrives as vector IRQ_BASE + n */

enum irqreturn { IRQ_NONE, IRQ_HANDLED };
typedef enum irqreturn (*irq_handler_t)(int irq, void *dev);

/* Several handlers may share a line; each must check whether its device asked. */
int request_irq(int irq, irq_handler_t handler, const char *name, void *dev);
void free_irq(int irq, void *dev);
void pic_init(void);
void irq_dispatch(int irq);
unsigned long irq_count(int irq);

#endif
