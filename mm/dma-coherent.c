/*
 * dma-coherent.c: coherent DMA buffers (2.6 i386's dma_alloc_coherent in
 * arch/i386/kernel/pci-dma.c). On a PC the bus address is the physical one
 * and the caches are snooped, so a buffer is whole pages of low memory; a
 * device that reaches less than 32 bits (edu's 28) gets them only if they
 * lie below its mask: Kobold has one zone, and no ZONE_DMA to retry in.
 */
#include <kobold/dma-mapping.h>

#include <asm/page.h>
#include <kobold/device.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/string.h>

static unsigned int dma_pages(size_t size) { return (unsigned int)((size + PAGE_SIZE - 1) / PAGE_SIZE); }

void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp)
{
	u64 mask = dev && dev->coherent_dma_mask ? dev->coherent_dma_mask : 0xffffffffull;
	unsigned int pages = dma_pages(size);
	void *buf;

	if (!size)
		return NULL;
	buf = alloc_pages(pages);
	if (!buf)
		return NULL;
	if ((u64)virt_to_phys(buf) + pages * PAGE_SIZE - 1 > mask) {
		pr_warn("dma_alloc_coherent: %#lx is beyond the mask %#llx\n", virt_to_phys(buf),
			(unsigned long long)mask);
		free_pages(buf, pages);
		return NULL;
	}
	memset(buf, 0, pages * PAGE_SIZE);
	*handle = (dma_addr_t)virt_to_phys(buf);
	return buf;
}

void dma_free_coherent(struct device *dev, size_t size, void *vaddr, dma_addr_t handle)
{
	if (vaddr)
		free_pages(vaddr, dma_pages(size));
}
