/*
 * meminfo.c: /proc/meminfo in Linux 2.6's layout, for free(1) and top(1).
 * Kobold has no page cache, buffers or swap: those lines say 0, as they
 * would on a Linux with none; Slab is what kmalloc has handed out.
 */
#include <kobold/mm.h>
#include <kobold/proc_fs.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define PAGE_KB 4

static size_t line(char *buf, size_t size, const char *name, unsigned long kb)
{
	char key[16];

	scnprintf(key, sizeof(key), "%s:", name);
	return scnprintf(buf, size, "%-13s %8lu kB\n", key, kb);
}

size_t proc_show_meminfo(char *buf, size_t size)
{
	struct page_stats p;
	struct kmem_stats k;
	size_t n = 0;

	page_get_stats(&p);
	kmem_get_stats(&k);
	n += line(buf + n, size - n, "MemTotal", p.total * PAGE_KB);
	n += line(buf + n, size - n, "MemFree", p.free * PAGE_KB);
	n += line(buf + n, size - n, "Buffers", 0);
	n += line(buf + n, size - n, "Cached", 0);
	n += line(buf + n, size - n, "SwapCached", 0);
	n += line(buf + n, size - n, "SwapTotal", 0);
	n += line(buf + n, size - n, "SwapFree", 0);
	n += line(buf + n, size - n, "Slab", (unsigned long)(k.bytes_in_use / 1024));
	return n;
}
