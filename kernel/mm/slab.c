/*
 * slab.c: kmalloc. Small objects come from power-of-two size classes carved
 * out of pages; large ones take whole pages. Every object carries a header
 * (size, call site, links into the list of live objects) and red zones on
 * both sides; freed memory is poisoned, and the poison is checked when the
 * object is handed out again, so overruns and use-after-free get reported.
 */
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <asm/io.h>
#include <kobold/kallsyms.h>

#define MAGIC_LIVE 0x4b4d414cu	/* "LAMK" */
#define MAGIC_FREE 0x46524545u	/* "EERF" */
#define POISON_FREE 0x6b	/* as Linux's slab */
#define POISON_NEW 0xa5		/* fresh kmalloc memory is never zero by chance */
#define REDZONE 0xbb
#define REDZONE_LEN 8
#define MIN_SHIFT 6		/* 64-byte smallest class */
#define NR_CLASSES 6		/* 64 ... 2048 */
#define CLASS_PAGES 0xffff

struct kmalloc_hdr {
	u32 magic;
	u32 size;			/* bytes asked for */
	const void *caller;
	u16 cls;
	u16 npages;
	struct kmalloc_hdr *prev, *next;	/* live list, or free list */
	u8 redzone[REDZONE_LEN];
};

static struct kmalloc_hdr *free_list[NR_CLASSES];
static struct kmalloc_hdr *live;
static struct kmem_stats stats;
static unsigned long fail_countdown;

static size_t class_size(int cls) { return (size_t)1 << (cls + MIN_SHIFT); }
static u8 *payload(struct kmalloc_hdr *h) { return (u8 *)(h + 1); }

static int size_to_class(size_t total)
{
	for (int c = 0; c < NR_CLASSES; c++)
		if (total <= class_size(c))
			return c;
	return -1;
}

static bool refill(int cls)
{
	u8 *page = alloc_pages(1);
	size_t sz = class_size(cls);

	if (!page)
		return false;
	for (size_t off = 0; off + sz <= PAGE_SIZE; off += sz) {
		struct kmalloc_hdr *h = (void *)(page + off);

		h->magic = MAGIC_FREE;
		h->cls = (u16)cls;
		h->size = 0;
		memset(payload(h), POISON_FREE, sz - sizeof(*h));
		h->next = free_list[cls];
		free_list[cls] = h;
	}
	return true;
}

static void report_corruption(struct kmalloc_hdr *h, const char *what)
{
	const char *name;
	u32 off, size;

	printk(KERN_ERR "BUG: kmalloc: %s in object %p (%u bytes)\n", what, payload(h), h->size);
	if (h->caller && ksym_lookup((u32)h->caller, &name, &off, &size))
		printk(KERN_ERR "  allocated at %s+0x%x/0x%x\n", name, off, size);
	dump_stack();
}

/* Every byte after the object's last use must still hold the free poison. */
static void check_poison(struct kmalloc_hdr *h)
{
	size_t n = class_size(h->cls) - sizeof(*h);
	u8 *p = payload(h);

	for (size_t i = 0; i < n; i++) {
		if (p[i] != POISON_FREE) {
			report_corruption(h, "write after free");
			return;
		}
	}
}

static struct kmalloc_hdr *take_object(size_t total)
{
	int cls = size_to_class(total);
	struct kmalloc_hdr *h;
	unsigned int np;

	if (cls < 0) {
		np = (unsigned int)(ALIGN_UP(total, PAGE_SIZE) / PAGE_SIZE);
		h = alloc_pages(np);
		if (h) {
			h->cls = CLASS_PAGES;
			h->npages = (u16)np;
		}
		return h;
	}
	if (!free_list[cls] && !refill(cls))
		return NULL;
	h = free_list[cls];
	free_list[cls] = h->next;
	check_poison(h);
	return h;
}

static void *kmalloc_caller(size_t size, const void *caller)
{
	size_t total = sizeof(struct kmalloc_hdr) + size + REDZONE_LEN;
	struct kmalloc_hdr *h = NULL;
	unsigned long flags = local_irq_save();

	if (fail_countdown && --fail_countdown == 0)
		goto fail;
	if (size > (1u << 28) || !(h = take_object(total)))
		goto fail;
	h->magic = MAGIC_LIVE;
	h->size = (u32)size;
	h->caller = caller;
	memset(h->redzone, REDZONE, REDZONE_LEN);
	memset(payload(h), POISON_NEW, size);
	memset(payload(h) + size, REDZONE, REDZONE_LEN);
	h->prev = NULL;
	h->next = live;
	if (live)
		live->prev = h;
	live = h;
	stats.bytes_in_use += size;
	stats.objects_in_use++;
	stats.total_allocs++;
	stats.peak_bytes = max(stats.peak_bytes, stats.bytes_in_use);
	local_irq_restore(flags);
	return payload(h);
fail:
	stats.failures++;
	local_irq_restore(flags);
	return NULL;
}

void *kmalloc(size_t size) { return kmalloc_caller(size, __builtin_return_address(0)); }

void *kzalloc(size_t size)
{
	void *p = kmalloc_caller(size, __builtin_return_address(0));

	if (p)
		memset(p, 0, size);
	return p;
}

static bool redzones_intact(struct kmalloc_hdr *h)
{
	for (int i = 0; i < REDZONE_LEN; i++)
		if (h->redzone[i] != REDZONE || payload(h)[h->size + i] != REDZONE)
			return false;
	return true;
}

void kfree(const void *p)
{
	struct kmalloc_hdr *h;
	unsigned long flags;

	if (!p)
		return;
	h = (struct kmalloc_hdr *)p - 1;
	if (h->magic != MAGIC_LIVE) {
		printk(KERN_ERR "BUG: kfree(%p): %s\n", p,
		       h->magic == MAGIC_FREE ? "double free" : "not a kmalloc object");
		dump_stack();
		return;
	}
	if (!redzones_intact(h))
		report_corruption(h, "red zone overwritten (buffer overflow)");
	flags = local_irq_save();
	if (h->prev)
		h->prev->next = h->next;
	else
		live = h->next;
	if (h->next)
		h->next->prev = h->prev;
	stats.bytes_in_use -= h->size;
	stats.objects_in_use--;
	stats.total_frees++;
	h->magic = MAGIC_FREE;
	if (h->cls == CLASS_PAGES) {
		free_pages(h, h->npages);
	} else {
		memset(payload(h), POISON_FREE, class_size(h->cls) - sizeof(*h));
		h->next = free_list[h->cls];
		free_list[h->cls] = h;
	}
	local_irq_restore(flags);
}

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc_caller(n, __builtin_return_address(0));

	if (p)
		memcpy(p, s, n);
	return p;
}

char *kasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = kmalloc_caller((size_t)n + 1, __builtin_return_address(0));
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void kmem_get_stats(struct kmem_stats *st) { *st = stats; }
void kmalloc_fail_nth(unsigned long n) { fail_countdown = n; }

/* Walk the live objects: red zones checked, each reported to fn with its site. */
void kmem_for_each_live(void (*fn)(const void *obj, size_t size, const void *caller, void *arg),
			void *arg)
{
	for (struct kmalloc_hdr *h = live; h; h = h->next) {
		if (!redzones_intact(h))
			report_corruption(h, "red zone overwritten (buffer overflow)");
		fn(payload(h), h->size, h->caller, arg);
	}
}
