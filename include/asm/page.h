/*
 * page.h: the kernel's place in the address space, as Linux i386's 3G/1G
 * split: user space below PAGE_OFFSET, the kernel and all of low memory
 * mapped from PAGE_OFFSET up, device memory in the ioremap area above it.
 */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#define PAGE_SIZE 4096 /* as kobold/mm.h */
#define PAGE_SHIFT 12
#define PAGE_OFFSET 0xC0000000
#define LOWMEM_SIZE 0x38000000 /* 896 MiB of RAM mapped at PAGE_OFFSET, as Linux's MAXMEM */
#define LOWMEM_PDES (LOWMEM_SIZE >> 22)
#define VMALLOC_START 0xF8800000 /* the ioremap area: 8 MiB past low memory's end */
#define VMALLOC_END 0xFF800000	 /* 8 MiB of guard below the top */

#ifndef __ASSEMBLER__
#include <kobold/types.h>

/* A low-memory virtual address to its physical one, and back. */
#define __pa(x) ((unsigned long)(x) - PAGE_OFFSET)
#define __va(x) ((void *)((unsigned long)(x) + PAGE_OFFSET))

static inline unsigned long virt_to_phys(const volatile void *addr) { return __pa(addr); }
static inline void *phys_to_virt(unsigned long addr) { return __va(addr); }

/* The page directory every CPU uses (boot.S fills it, paging_init trims it). */
extern u32 swapper_pg_dir[1024];
#endif

#endif
