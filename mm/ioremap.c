/*
 * ioremap.c: device memory (PCI BARs, the APICs) mapped uncached into the
 * ioremap area, VMALLOC_START..VMALLOC_END, a page at a time, as Linux's
 * ioremap maps it into the vmalloc area. The legacy ISA hole below 1 MiB
 * (VGA text memory, the BIOS's tables) is in low memory already, and comes
 * back as phys_to_virt, as 2.6 i386's __ioremap returns it.
 */
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/proc_fs.h>
#include <kobold/smp.h>
#include <kobold/string.h>

#define PTE_PRESENT 0x001
#define PTE_WRITE 0x002
#define PTE_PWT 0x008
#define PTE_PCD 0x010
#define ISA_START 0xa0000ul
#define ISA_END 0x100000ul
#define VMALLOC_PAGES ((VMALLOC_END - VMALLOC_START) >> PAGE_SHIFT)

extern u32 vmalloc_page_tables[][1024];
static u32 vm_used[VMALLOC_PAGES / 32]; /* bit set: the page is mapped */
static u16 vm_npages[VMALLOC_PAGES];	/* at a mapping's first page: its length */

static bool vm_page_used(unsigned long i) { return vm_used[i / 32] & (1u << (i % 32)); }

static u32 *vm_pte(unsigned long i) { return &vmalloc_page_tables[i / 1024][i % 1024]; }

static inline void flush_tlb_one(unsigned long addr)
{
	__asm__ volatile("invlpg (%0)" : : "r"(addr) : "memory");
}

/* First fit: the first run of @n free pages, or -1. */
static long vm_find(unsigned long n)
{
	unsigned long run = 0;

	for (unsigned long i = 0; i < VMALLOC_PAGES; i++) {
		run = vm_page_used(i) ? 0 : run + 1;
		if (run == n)
			return (long)(i + 1 - n);
	}
	return -1;
}

void __iomem *ioremap(unsigned long phys, unsigned long size)
{
	unsigned long first = phys & ~(PAGE_SIZE - 1ul), n;
	unsigned long flags;
	long start;

	if (!size || phys + size - 1 < phys)
		return NULL;
	if (phys >= ISA_START && phys + size <= ISA_END)
		return phys_to_virt(phys);
	n = (phys + size - first + PAGE_SIZE - 1) >> PAGE_SHIFT;
	if (n > 0xffff)
		return NULL;
	flags = local_irq_save();
	start = vm_find(n);
	if (start < 0) {
		local_irq_restore(flags);
		pr_err("ioremap: no room for %lu pages at %#lx\n", n, phys);
		return NULL;
	}
	for (unsigned long i = 0; i < n; i++) {
		unsigned long p = (unsigned long)start + i;

		vm_used[p / 32] |= 1u << (p % 32);
		*vm_pte(p) = (u32)(first + i * PAGE_SIZE) | PTE_PRESENT | PTE_WRITE | PTE_PCD | PTE_PWT;
	}
	vm_npages[start] = (u16)n;
	local_irq_restore(flags);
	return (void __iomem *)(VMALLOC_START + ((unsigned long)start << PAGE_SHIFT) +
				(phys - first));
}

struct tlb_range {
	unsigned long first, n; /* pages of the ioremap area */
};

static void flush_tlb_range(void *info)
{
	const struct tlb_range *r = info;

	for (unsigned long i = r->first; i < r->first + r->n; i++)
		flush_tlb_one(VMALLOC_START + (i << PAGE_SHIFT));
}

/*
 * The other CPUs forget the old translations before the pages can be
 * mapped again (an IPI each, waited for, as Linux's flush_tlb_kernel_range).
 * With interrupts off no IPI can be waited for; no caller unmaps so today.
 */
static void flush_tlb_others(struct tlb_range *r, unsigned long flags)
{
	unsigned int cpu;

	if (!(flags & X86_EFLAGS_IF))
		return;
	for_each_online_cpu(cpu) if (cpu != smp_processor_id())
		smp_call_function_single(cpu, flush_tlb_range, r, true);
}

void iounmap(volatile void __iomem *addr)
{
	unsigned long va = (unsigned long)addr, flags;
	struct tlb_range r;

	if (va < VMALLOC_START || va >= VMALLOC_END)
		return; /* NULL, or the ISA hole's low-memory address */
	r.first = (va - VMALLOC_START) >> PAGE_SHIFT;
	flags = local_irq_save();
	r.n = vm_npages[r.first];
	if (WARN(!r.n, "iounmap: %#lx was not mapped", va)) {
		local_irq_restore(flags);
		return;
	}
	vm_npages[r.first] = 0;
	for (unsigned long i = r.first; i < r.first + r.n; i++)
		*vm_pte(i) = 0;
	flush_tlb_range(&r);
	local_irq_restore(flags);
	flush_tlb_others(&r, flags);
	flags = local_irq_save();
	for (unsigned long i = r.first; i < r.first + r.n; i++)
		vm_used[i / 32] &= ~(1u << (i % 32));
	local_irq_restore(flags);
}

/*
 * /proc/vmallocinfo as Linux 2.6.24 added it, one line per mapping (Kobold
 * keeps no caller to show): the area, its size (Linux's adds a guard page
 * that Kobold's mappings do not have), the physical address, "ioremap".
 */
size_t proc_show_vmallocinfo(char *buf, size_t size)
{
	unsigned long flags = local_irq_save();
	size_t n = 0;

	for (unsigned long i = 0; i < VMALLOC_PAGES; i++) {
		unsigned long va = VMALLOC_START + (i << PAGE_SHIFT), len;

		if (!vm_npages[i])
			continue;
		len = (unsigned long)vm_npages[i] << PAGE_SHIFT;
		n += scnprintf(buf + n, size - n, "0x%08lx-0x%08lx %8lu phys=%lx ioremap\n", va,
			       va + len, len, (unsigned long)(*vm_pte(i) & ~(PAGE_SIZE - 1)));
	}
	local_irq_restore(flags);
	return n;
}
