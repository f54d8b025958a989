/* dma-mapping.h: buffers a device reaches by DMA (Linux 2.6's <linux/dma-mapping.h>, coherent part). */
#ifndef KOBOLD_DMA_MAPPING_H
#define KOBOLD_DMA_MAPPING_H

#include <kobold/gfp.h>
#include <kobold/types.h>

struct device;

typedef u32 dma_addr_t; /* a bus address: i386's, 32 bits */

#define DMA_BIT_MASK(n) (((n) == 64) ? ~0ull : ((1ull << (n)) - 1))

/*
 * size bytes of zeroed, physically contiguous memory that the CPU and the
 * device see alike (x86 snoops its caches), below dev->coherent_dma_mask
 * (0: 32 bits); the device's address in *handle. NULL if there is none.
 */
void *dma_alloc_coherent(struct device *dev, size_t size, dma_addr_t *handle, gfp_t gfp);
void dma_free_coherent(struct device *dev, size_t size, void *vaddr, dma_addr_t handle);

#endif
