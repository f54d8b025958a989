/*
 * desc.h: segment selectors and the CPU's descriptor tables (GDT, IDT, TSS).
 * The user segments and the TLS slots sit where Linux i386 puts them
 * (arch/x86/include/asm/segment.h): TLS entries 6-8, __USER_CS 0x73,
 * __USER_DS 0x7b, the TSS at entry 16; the kernel's own code and data keep
 * entries 1 and 2, which Linux leaves unused.
 */
#ifndef ASM_DESC_H
#define ASM_DESC_H

#define KERNEL_CS 0x08
#define KERNEL_DS 0x10
#define GDT_ENTRY_TLS_MIN 6
#define GDT_ENTRY_TLS_ENTRIES 3
#define GDT_ENTRY_TLS_MAX (GDT_ENTRY_TLS_MIN + GDT_ENTRY_TLS_ENTRIES - 1)
#define GDT_ENTRY_DEFAULT_USER_CS 14
#define GDT_ENTRY_DEFAULT_USER_DS 15
#define GDT_ENTRY_TSS 16
#define GDT_ENTRIES 17
#define __USER_CS (GDT_ENTRY_DEFAULT_USER_CS * 8 + 3) /* 0x73 */
#define __USER_DS (GDT_ENTRY_DEFAULT_USER_DS * 8 + 3) /* 0x7b */
#define TSS_SELECTOR (GDT_ENTRY_TSS * 8)	      /* 0x80 */
#define SYSCALL_VECTOR 0x80

#ifndef __ASSEMBLER__
#include <kobold/types.h>

/* This CPU's own GDT (2.6's per-CPU gdt_page), filled and loaded. */
void gdt_init(void);
void idt_init(void);
void idt_load(void); /* the table idt_init filled, on another CPU */
/* This CPU's TSS (2.6's per-CPU init_tss), loaded with ltr; SSE turned on. */
void tss_init(void);
/* The kernel stack a trap from ring 3 starts on, in this CPU's TSS: the running task's. */
void load_esp0(unsigned long esp0);
/* A task's three TLS descriptors into this CPU's GDT slots 6-8. */
void load_TLS(const u64 tls[GDT_ENTRY_TLS_ENTRIES]);
#endif

#endif
