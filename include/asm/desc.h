/* desc.h: segment selectors and the CPU's descriptor tables (GDT, IDT). */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10

#ifndef __ASSEMBLER__
void gdt_init(void);
void idt_init(void);
void idt_load(void); /* the table idt_init filled, on another CPU */
#endif

#endif
