/* ioport.h: resources, the I/O ports, memory and IRQs a device owns (Linux's <linux/ioport.h>). */
#ifndef KOBOLD_IOPORT_H
#define KOBOLD_IOPORT_H

#include <kobold/types.h>

/* Resource flags, Linux's values: /sys/.../resource shows them. */
#define IORESOURCE_IO 0x00000100
#define IORESOURCE_MEM 0x00000200
#define IORESOURCE_IRQ 0x00000400
#define IORESOURCE_PREFETCH 0x00002000
#define IORESOURCE_READONLY 0x00004000
#define IORESOURCE_SIZEALIGN 0x00040000
#define IORESOURCE_MEM_64 0x00100000

struct resource {
	u64 start, end; /* inclusive; start == end == 0 when unused */
	unsigned long flags;
};

static inline u64 resource_size(const struct resource *r)
{
	return r->end - r->start + 1;
}

#endif
