/*
 * page_alloc.c: the physical page allocator, one bit a page, seeded from the
 * multiboot memory map. Runs of contiguous pages are found first-fit.
 */
#include <asm/page.h>
#include <kobold/ioport.h>
#include <kobold/mm.h>
#include <kobold/multiboot.h>
#include <kobold/printk.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>

#define MAX_PHYS ((u64)LOWMEM_SIZE) /* low memory: what PAGE_OFFSET's map reaches */
#define MAX_PAGES (MAX_PHYS >> PAGE_SHIFT)
#define LOW_LIMIT 0x100000u /* the first MiB: BIOS data, VGA, ROMs */

extern char kernel_start[], kernel_end[];
static u32 used_map[MAX_PAGES / 32]; /* bit set: page not free */
static unsigned long max_pfn, nr_total, nr_free, nr_reserved;
static unsigned long search_hint;
static struct {
	u32 start, end;
} held[8]; /* the multiboot modules' ranges, reserved until unpacked */
static unsigned int nr_held;

static bool page_used(unsigned long pfn) { return used_map[pfn / 32] & (1u << (pfn % 32)); }

static void set_used(unsigned long pfn, bool used)
{
	if (used)
		used_map[pfn / 32] |= 1u << (pfn % 32);
	else
		used_map[pfn / 32] &= ~(1u << (pfn % 32));
}

static void free_range(u64 start, u64 end)
{
	unsigned long pfn = (unsigned long)(ALIGN_UP(start, PAGE_SIZE) >> PAGE_SHIFT);
	unsigned long last = (unsigned long)(min(end, (u64)MAX_PHYS) >> PAGE_SHIFT);

	for (; pfn < last; pfn++) {
		if (!page_used(pfn))
			continue;
		set_used(pfn, false);
		nr_total++;
		nr_free++;
		if (pfn + 1 > max_pfn)
			max_pfn = pfn + 1;
	}
}

static void reserve_range(u32 start, u32 end)
{
	for (u32 pfn = start >> PAGE_SHIFT; pfn < ALIGN_UP(end, PAGE_SIZE) >> PAGE_SHIFT; pfn++) {
		if (page_used(pfn))
			continue;
		set_used(pfn, true);
		nr_free--;
		nr_reserved++;
	}
}

static bool range_free(u32 start, u32 end)
{
	for (u32 pfn = start >> PAGE_SHIFT; pfn < ALIGN_UP(end, PAGE_SIZE) >> PAGE_SHIFT; pfn++)
		if (page_used(pfn))
			return false;
	return true;
}

/*
 * Each module in usable RAM is reserved, and noted: only a noted range goes
 * back to the allocator (free_reserved_range), so a module the boot loader
 * put in memory the map did not give us is never handed out.
 */
static void reserve_modules(const struct multiboot_info *mbi)
{
	const struct multiboot_module *mod = phys_to_virt(mbi->mods_addr);

	if (!(mbi->flags & MULTIBOOT_INFO_MODS))
		return;
	for (u32 i = 0; i < mbi->mods_count && nr_held < ARRAY_SIZE(held); i++) {
		u32 start = mod[i].mod_start, end = mod[i].mod_end;

		if (end <= start || end > MAX_PHYS || !range_free(start, end))
			continue;
		reserve_range(start, end);
		held[nr_held].start = start;
		held[nr_held++].end = end;
	}
}

/* The memory map in /proc/iomem, as 2.6 i386's e820 entries: "System RAM" or "reserved". */
static void note_iomem(const struct multiboot_mmap_entry *e)
{
	static struct resource map[16];
	static int n;
	struct resource *r = &map[n];

	if (n == ARRAY_SIZE(map) || !e->len || e->addr + e->len - 1 > iomem_resource.end)
		return;
	r->start = e->addr;
	r->end = e->addr + e->len - 1;
	r->flags = IORESOURCE_MEM;
	r->name = e->type == MULTIBOOT_MEMORY_AVAILABLE ? "System RAM" : "reserved";
	if (!request_resource(&iomem_resource, r))
		n++;
}

void page_alloc_init(const struct multiboot_info *mbi)
{
	u32 p, end = mbi->mmap_addr + mbi->mmap_length;

	memset(used_map, 0xff, sizeof(used_map));
	if (mbi->flags & MULTIBOOT_INFO_MEM_MAP) {
		for (p = mbi->mmap_addr; p < end;) {
			const struct multiboot_mmap_entry *e = phys_to_virt(p);

			if (e->type == MULTIBOOT_MEMORY_AVAILABLE)
				free_range(e->addr, e->addr + e->len);
			note_iomem(e);
			p += e->size + 4;
		}
	} else if (mbi->flags & MULTIBOOT_INFO_MEMORY) {
		free_range(LOW_LIMIT, LOW_LIMIT + (u64)mbi->mem_upper * 1024);
	}
	reserve_range(0, LOW_LIMIT);
	reserve_range(__pa(kernel_start), __pa(kernel_end));
	reserve_modules(mbi);
	pr_info("mm: %lu KiB usable, %lu KiB free after the kernel\n", nr_total * 4, nr_free * 4);
}

/* n free pages in a row, the first a multiple of align pages (align a power of two). */
static void *__alloc_pages(unsigned int n, unsigned long align)
{
	unsigned long i, run = 0;

	if (n == 0 || n > nr_free)
		return NULL;
	for (i = 0; i < max_pfn + n; i++) {
		unsigned long p = (search_hint + i) % max_pfn;

		if (p == 0 || page_used(p)) {
			run = 0; /* a run cannot wrap around the end */
			continue;
		}
		if (run == 0 && (p & (align - 1)))
			continue; /* a run starts aligned */
		run++;
		if (run == n) {
			unsigned long first = p + 1 - n;

			for (unsigned long q = first; q <= p; q++)
				set_used(q, true);
			nr_free -= n;
			if (align == 1)
				search_hint = p + 1;
			return phys_to_virt(first << PAGE_SHIFT);
		}
	}
	return NULL;
}

/* The bitmap and the counts: threads that allocate may be preempted (2.6's zone->lock). */
static DEFINE_SPINLOCK(zone_lock);

void *alloc_pages(unsigned int n)
{
	void *p;

	spin_lock(&zone_lock);
	p = __alloc_pages(n, 1);
	spin_unlock(&zone_lock);
	return p;
}

void *alloc_pages_aligned(unsigned int n)
{
	void *p;

	spin_lock(&zone_lock);
	p = __alloc_pages(n, n);
	spin_unlock(&zone_lock);
	return p;
}

static void __free_pages(void *addr, unsigned int n)
{
	unsigned long pfn = virt_to_phys(addr) >> PAGE_SHIFT;

	for (unsigned int i = 0; i < n; i++) {
		if (WARN(!page_used(pfn + i), "free_pages: page %#lx is already free", pfn + i))
			continue;
		set_used(pfn + i, false);
		nr_free++;
	}
	if (pfn < search_hint)
		search_hint = pfn;
}

void free_pages(void *addr, unsigned int n)
{
	spin_lock(&zone_lock);
	__free_pages(addr, n);
	spin_unlock(&zone_lock);
}

void free_reserved_range(unsigned long start, unsigned long end)
{
	unsigned long pfn = ALIGN_UP(start, PAGE_SIZE) >> PAGE_SHIFT;
	unsigned int i;

	for (i = 0; i < nr_held && (held[i].start != start || held[i].end != end); i++)
		;
	if (i == nr_held)
		return; /* not a range reserve_modules took */
	held[i].start = held[i].end = 0;
	for (; pfn < (end >> PAGE_SHIFT) && pfn < max_pfn; pfn++) {
		if (!page_used(pfn))
			continue;
		set_used(pfn, false);
		nr_free++;
		nr_reserved--;
	}
}

unsigned long lowmem_end(void) { return max_pfn << PAGE_SHIFT; }

void page_get_stats(struct page_stats *st)
{
	st->total = nr_total;
	st->free = nr_free;
	st->reserved = nr_reserved;
}
