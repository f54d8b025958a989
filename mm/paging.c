/*
 * paging.c: the kernel's page directory. boot.S maps low memory's 896 MiB
 * twice in 4 MiB pages, at 0 and at PAGE_OFFSET (RAM and the ACPI tables
 * past its end alike). paging_init, first thing in kmain, gives the ioremap
 * area its page tables, once, so the kernel's half of the directory never
 * changes after that; zap_low_mappings (as 2.6 i386's) drops the map at 0,
 * so that a NULL or any other address below PAGE_OFFSET faults: user space
 * will own it.
 */
#include <asm/page.h>
#include <kobold/mm.h>

#define PDE_PRESENT 0x001
#define PDE_WRITE 0x002
#define KERNEL_PDE (PAGE_OFFSET >> 22)
#define VMALLOC_PDE (VMALLOC_START >> 22)
#define VMALLOC_PDES ((VMALLOC_END - VMALLOC_START) >> 22)

u32 swapper_pg_dir[1024] __attribute__((aligned(PAGE_SIZE)));
u32 vmalloc_page_tables[VMALLOC_PDES][1024] __attribute__((aligned(PAGE_SIZE)));

static inline void load_cr3(unsigned long phys)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(phys) : "memory");
}

void paging_init(void)
{
	for (unsigned int i = 0; i < VMALLOC_PDES; i++)
		swapper_pg_dir[VMALLOC_PDE + i] =
			virt_to_phys(vmalloc_page_tables[i]) | PDE_PRESENT | PDE_WRITE;
	load_cr3(virt_to_phys(swapper_pg_dir));
}

void zap_low_mappings(void)
{
	for (unsigned int i = 0; i < KERNEL_PDE; i++)
		swapper_pg_dir[i] = 0;
	load_cr3(virt_to_phys(swapper_pg_dir));
}
