/* mm.h: physical pages (from the multiboot memory map) and paging. */
#ifndef KOBOLD_MM_H
#define KOBOLD_MM_H

#include <kobold/types.h>

#define PAGE_SIZE 4096
#define PAGE_SHIFT 12

struct multiboot_info;

void page_alloc_init(const struct multiboot_info *mbi);
/* n physically contiguous pages, identity mapped; NULL if none. */
void *alloc_pages(unsigned int n);
void free_pages(void *addr, unsigned int n);

struct page_stats {
	unsigned long total; /* usable pages the map reported */
	unsigned long free;
	unsigned long reserved; /* kernel image and early structures */
};
void page_get_stats(struct page_stats *st);

void paging_init(void);

#endif
