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
	const char *name;			   /* in /proc/ioports and /proc/iomem */
	struct resource *parent, *sibling, *child; /* the tree, once requested */
};

/* The roots of the two trees: every port, every address (kernel/resource.c). */
extern struct resource ioport_resource, iomem_resource;

/*
 * Puts res below root, among root's children sorted by address; -EBUSY if
 * it overlaps one of them, -EINVAL if it does not fit in root.
 */
int request_resource(struct resource *root, struct resource *res);
/* Takes res out of its tree (its children go with it); -EINVAL if not in one. */
int release_resource(struct resource *res);
/*
 * Finds size bytes aligned to align (a power of two) in [min, max] that no
 * child of root uses, the lowest such place (the highest if top_down), and
 * requests res there. -EBUSY if there is no such place.
 */
int allocate_resource(struct resource *root, struct resource *res, u64 size, u64 min, u64 max,
		      u64 align, bool top_down);
/* The tree below root as /proc/ioports and /proc/iomem print it; its length. */
size_t resource_tree_show(const struct resource *root, char *buf, size_t size);

static inline u64 resource_size(const struct resource *r)
{
	return r->end - r->start + 1;
}

#endif
