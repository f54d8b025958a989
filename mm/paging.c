/*
 * paging.c: an identity map of the whole 4 GiB address space, in 4 MiB pages
 * but for the first 4 MiB, which has 4 KiB pages so that page 0 can stay
 * unmapped: a NULL dereference then faults instead of reading the IVT.
 */
#include <kobold/mm.h>

#define PTE_PRESENT 0x001
#define PTE_WRITE 0x002
#define PTE_PWT 0x008
#define PTE_PCD 0x010
#define PDE_4M 0x080
#define CR0_WP (1u << 16)
#define CR0_PG (1u << 31)
#define CR4_PSE (1u << 4)
#define MMIO_START 0xc0000000u /* PCI BARs and the APICs live above 3 GiB */

static u32 page_dir[1024] __attribute__((aligned(PAGE_SIZE)));
static u32 first_table[1024] __attribute__((aligned(PAGE_SIZE)));

void paging_init(void)
{
	u32 cr0, cr4;

	for (u32 i = 1; i < 1024; i++)
		first_table[i] = (i * PAGE_SIZE) | PTE_PRESENT | PTE_WRITE;
	page_dir[0] = (u32)first_table | PTE_PRESENT | PTE_WRITE;
	for (u32 i = 1; i < 1024; i++) {
		u32 addr = i << 22;

		page_dir[i] = addr | PTE_PRESENT | PTE_WRITE | PDE_4M;
		if (addr >= MMIO_START)
			page_dir[i] |= PTE_PCD | PTE_PWT; /* device memory: uncached */
	}
	__asm__ volatile("mov %%cr4, %0" : "=r"(cr4));
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4 | CR4_PSE));
	__asm__ volatile("mov %0, %%cr3" : : "r"(page_dir));
	__asm__ volatile("mov %%cr0, %0" : "=r"(cr0));
	__asm__ volatile("mov %0, %%cr0" : : "r"(cr0 | CR0_PG | CR0_WP) : "memory");
}
