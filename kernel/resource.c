/*
 * resource.c: who owns which I/O ports and which addresses (Linux's
 * kernel/resource.c). Each root holds a tree of resources, each level's
 * children sorted by address and never overlapping; a driver or the PCI
 * core requests a range, and releases it when the device goes, so the
 * range can be handed out again. /proc/ioports and /proc/iomem print it.
 */
#include <kobold/errno.h>
#include <kobold/ioport.h>
#include <kobold/proc_fs.h>
#include <kobold/string.h>

struct resource ioport_resource = { .start = 0, .end = 0xffff, .name = "PCI IO" };
struct resource iomem_resource = { .start = 0, .end = 0xffffffffu, .name = "PCI mem" };

int request_resource(struct resource *root, struct resource *res)
{
	struct resource **p = &root->child;

	if (res->end < res->start || res->start < root->start || res->end > root->end)
		return -EINVAL;
	while (*p && (*p)->end < res->start)
		p = &(*p)->sibling;
	if (*p && (*p)->start <= res->end)
		return -EBUSY; /* the first child that does not end before res overlaps it */
	res->sibling = *p;
	res->parent = root;
	*p = res;
	return 0;
}

int release_resource(struct resource *res)
{
	struct resource **p;

	if (!res->parent)
		return -EINVAL;
	for (p = &res->parent->child; *p; p = &(*p)->sibling) {
		if (*p == res) {
			*p = res->sibling;
			res->parent = res->sibling = NULL;
			return 0;
		}
	}
	return -EINVAL;
}

/* The place for size bytes in the gap [lo, hi], within [min, max]; false if none. */
static bool fit_gap(u64 lo, u64 hi, u64 min, u64 max, u64 size, u64 align, bool top_down,
		    u64 *start)
{
	if (lo < min)
		lo = min;
	if (hi > max)
		hi = max;
	if (lo > hi || hi - lo + 1 < size)
		return false;
	if (top_down)
		*start = (hi - size + 1) & ~(align - 1);
	else
		*start = (lo + align - 1) & ~(align - 1);
	return *start >= lo && *start + size - 1 <= hi && *start + size - 1 >= *start;
}

int allocate_resource(struct resource *root, struct resource *res, u64 size, u64 min, u64 max,
		      u64 align, bool top_down)
{
	u64 lo = root->start, start, found = 0;
	bool ok = false;

	if (!size || !align || (align & (align - 1)))
		return -EINVAL;
	for (struct resource *c = root->child;; c = c->sibling) {
		u64 hi = c ? c->start - 1 : root->end;

		if ((!c || c->start > lo) && fit_gap(lo, hi, min, max, size, align, top_down, &start)) {
			found = start;
			ok = true;
			if (!top_down)
				break;
		}
		if (!c || c->end == root->end)
			break;
		lo = c->end + 1;
	}
	if (!ok)
		return -EBUSY;
	res->start = found;
	res->end = found + size - 1;
	return request_resource(root, res);
}

static size_t show_level(const struct resource *r, int depth, int width, char *buf, size_t size)
{
	size_t n = 0;

	for (; r && n < size; r = r->sibling) {
		n += scnprintf(buf + n, size - n, "%*s%0*llx-%0*llx : %s\n", depth * 2, "", width,
			       (unsigned long long)r->start, width, (unsigned long long)r->end,
			       r->name ? r->name : "<BAD>");
		n += show_level(r->child, depth + 1, width, buf + n, size - n);
	}
	return n;
}

/* As Linux's r_show: two spaces a level, 4 digits for ports and 8 for memory. */
size_t resource_tree_show(const struct resource *root, char *buf, size_t size)
{
	return show_level(root->child, 0, root->end < 0x10000 ? 4 : 8, buf, size);
}

size_t proc_show_ioports(char *buf, size_t size)
{
	return resource_tree_show(&ioport_resource, buf, size);
}

size_t proc_show_iomem(char *buf, size_t size)
{
	return resource_tree_show(&iomem_resource, buf, size);
}
