/* mm.h: physical pages (from the multiboot memory map) and paging. */
#ifndef KOBOLD_MM_H
#define KOBOLD_MM_H

#include <kobold/types.h>

#define PAGE_SIZE 4096
#define PAGE_SHIFT 12

struct multiboot_info;

void page_alloc_init(const struct multiboot_info *mbi);
/* n physically contiguous pages of low memory, at their address above PAGE_OFFSET; NULL if none. */
void *alloc_pages(unsigned int n);
/* n pages (a power of two) whose address is a multiple of their size: a thread's stack. */
void *alloc_pages_aligned(unsigned int n);
void free_pages(void *addr, unsigned int n);

struct page_stats {
	unsigned long total; /* usable pages the map reported */
	unsigned long free;
	unsigned long reserved; /* kernel image and early structures */
};
void page_get_stats(struct page_stats *st);
/* Gives the whole pages of a module page_alloc_init reserved (an unpacked initramfs) to the allocator. */
void free_reserved_range(unsigned long start, unsigned long end);
/* The physical end of the RAM the allocator manages (all of it in low memory). */
unsigned long lowmem_end(void);

/* The ioremap area's page tables into the kernel's page directory. */
void paging_init(void);
/* Drops boot.S's map at 0: only PAGE_OFFSET and up stay mapped. */
void zap_low_mappings(void);

#endif
