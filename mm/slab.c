/*
 * slab.c: kmalloc. Small objects come from power-of-two size classes carved
 * out of pages; large ones take whole pages. Every object carries a header
 * (size, the call chain that allocated it, links into the list of live
 * objects) and red zones on both sides; freed memory is poisoned. The red
 * zones are checked at kfree, the poison when the object is handed out
 * again, and both at kmem_check() (meminfo -c, and each shell prompt), as
 * Linux's SLUB debugging does; what is found is reported and repaired.
 */
#include <asm/page.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <asm/io.h>
#include <kobold/kallsyms.h>

#define MAGIC_LIVE 0x4b4d414cu /* "LAMK" */
#define MAGIC_FREE 0x46524545u /* "EERF" */
#define POISON_FREE 0x6b       /* as Linux's slab */
#define POISON_NEW 0xa5	       /* fresh kmalloc memory is never zero by chance */
#define REDZONE 0xbb
#define REDZONE_LEN 8
#define MIN_SHIFT 6  /* 64-byte smallest class */
#define NR_CLASSES 6 /* 64 ... 2048 */
#define CLASS_PAGES 0xffff
#define LOWEST_OBJECT PAGE_OFFSET /* every object is in low memory's map: a cheap pointer check */

struct kmalloc_hdr {
	u32 magic;
	u32 size;			  /* bytes asked for */
	const void *track[KMALLOC_TRACK]; /* the allocating call chain, caller first */
	u16 cls;
	u16 npages;
	union {
		struct kmalloc_hdr *prev; /* live list */
		const void *freed_by;	  /* free: the caller of kfree */
	};
	struct kmalloc_hdr *next; /* live list, or free list */
	u8 redzone[REDZONE_LEN];
};

struct stack_frame {
	const struct stack_frame *next;
	const void *ret;
};

static struct kmalloc_hdr *free_list[NR_CLASSES];
static struct kmalloc_hdr *live;
static struct kmem_stats stats;
static unsigned long fail_countdown;
static unsigned long fail_injected;	    /* failures forced by kmalloc_fail_nth */
static const struct task_struct *fail_task; /* only its allocations count (NULL: every thread's) */
static const struct task_struct *fail_skip; /* its allocations never count */

static size_t class_size(int cls) { return (size_t)1 << (cls + MIN_SHIFT); }
static u8 *payload(struct kmalloc_hdr *h) { return (u8 *)(h + 1); }
static size_t payload_room(struct kmalloc_hdr *h) { return class_size(h->cls) - sizeof(*h); }

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
		h->freed_by = NULL;
		memset(payload(h), POISON_FREE, sz - sizeof(*h));
		h->next = free_list[cls];
		free_list[cls] = h;
	}
	return true;
}

/* The call chain above the frame of kmalloc's public entry point, on the running thread's stack. */
static void save_track(const void **track, const struct stack_frame *f)
{
	const char *bottom, *top;
	int i = 0;

	current_stack_bounds(&bottom, &top);
	for (; i < KMALLOC_TRACK && (const char *)f >= bottom && (const char *)(f + 1) <= top &&
	       f->ret;
	     i++, f = f->next)
		track[i] = f->ret;
	for (; i < KMALLOC_TRACK; i++)
		track[i] = NULL;
}

static void print_site(const char *what, const void *addr)
{
	const char *name;
	u32 off, size;

	if (ksym_lookup((u32)addr, &name, &off, &size))
		printk(KERN_ERR "  %s %s+0x%x/0x%x\n", what, name, off, size);
	else if (addr)
		printk(KERN_ERR "  %s %p\n", what, addr);
}

static void print_track(const char *label, const void *const *track)
{
	print_site(label, track[0]);
	for (int i = 1; i < KMALLOC_TRACK && track[i]; i++)
		print_site("          from", track[i]);
}

static const char *cache_name(struct kmalloc_hdr *h)
{
	static const char *const names[NR_CLASSES] = {
		"kmalloc-64", "kmalloc-128", "kmalloc-256", "kmalloc-512", "kmalloc-1k", "kmalloc-2k"
	};

	return h->cls < NR_CLASSES ? names[h->cls] : "kmalloc-pages";
}

/* Linux SLUB's report: what, where, whose, and the context that found it. */
static void report_corruption(struct kmalloc_hdr *h, const char *what, const u8 *bad)
{
	printk(KERN_ERR "BUG: kmalloc: %s in object %p (%u bytes, %s)\n", what, payload(h),
	       h->size, cache_name(h));
	if (bad)
		printk(KERN_ERR "  first bad byte at offset %d: 0x%02x\n",
		       (int)(bad - payload(h)), *bad);
	print_track("allocated at", h->track);
	if (h->magic == MAGIC_FREE)
		print_site("freed at", h->freed_by);
	dump_stack();
}

/* The first byte in [p, p + n) that is not c, or NULL. */
static const u8 *find_not(const u8 *p, size_t n, u8 c)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != c)
			return p + i;
	return NULL;
}

/* A free object must still hold the free poison: else report, and poison it again. */
static bool check_poison(struct kmalloc_hdr *h)
{
	const u8 *bad = find_not(payload(h), payload_room(h), POISON_FREE);

	if (!bad)
		return true;
	report_corruption(h, "write after free", bad);
	memset(payload(h), POISON_FREE, payload_room(h));
	printk(KERN_ERR "  FIX %s: poison restored\n", cache_name(h));
	return false;
}

static const u8 *redzone_damage(struct kmalloc_hdr *h)
{
	const u8 *before = find_not(h->redzone, REDZONE_LEN, REDZONE);

	return before ?: find_not(payload(h) + h->size, REDZONE_LEN, REDZONE);
}

/* A live object's red zones must be intact: else report, and restore them. */
static bool check_redzones(struct kmalloc_hdr *h)
{
	const u8 *bad = redzone_damage(h);

	if (!bad)
		return true;
	if (bad < payload(h))
		report_corruption(h, "red zone before the object overwritten (buffer underflow)", bad);
	else
		report_corruption(h, "red zone overwritten (buffer overflow)", bad);
	memset(h->redzone, REDZONE, REDZONE_LEN);
	memset(payload(h) + h->size, REDZONE, REDZONE_LEN);
	printk(KERN_ERR "  FIX %s: red zones restored\n", cache_name(h));
	return false;
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

static void report_injected(size_t size, const void *const *track)
{
	printk(KERN_WARNING "FAULT_INJECTION: forcing a failure: kmalloc(%lu)\n",
	       (unsigned long)size);
	print_track("at", track);
}

static void link_live(struct kmalloc_hdr *h, size_t size, const void *const *track)
{
	h->magic = MAGIC_LIVE;
	h->size = (u32)size;
	memcpy(h->track, track, sizeof(h->track));
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
}

static void *kmalloc_frame(size_t size, const void *frame)
{
	size_t total = sizeof(struct kmalloc_hdr) + size + REDZONE_LEN;
	const void *track[KMALLOC_TRACK];
	struct kmalloc_hdr *h = NULL;
	unsigned long flags = local_irq_save();
	bool injected = fail_countdown && (!fail_task || fail_task == current) &&
			fail_skip != current && --fail_countdown == 0;

	save_track(track, frame);
	if (injected || size > (1u << 28) || !(h = take_object(total))) {
		stats.failures++;
		fail_injected += injected;
		local_irq_restore(flags);
		if (injected)
			report_injected(size, track);
		return NULL;
	}
	link_live(h, size, track);
	local_irq_restore(flags);
	return payload(h);
}

/* Each entry point passes its own frame: the chain above it is the caller's. */
void *kmalloc(size_t size) { return kmalloc_frame(size, __builtin_frame_address(0)); }

void *kzalloc(size_t size)
{
	void *p = kmalloc_frame(size, __builtin_frame_address(0));

	if (p)
		memset(p, 0, size);
	return p;
}

static void unlink_live(struct kmalloc_hdr *h)
{
	if (h->prev)
		h->prev->next = h->next;
	else
		live = h->next;
	if (h->next)
		h->next->prev = h->prev;
	stats.bytes_in_use -= h->size;
	stats.objects_in_use--;
	stats.total_frees++;
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
		if (h->magic == MAGIC_FREE)
			print_site("first freed at", h->freed_by);
		dump_stack();
		return;
	}
	check_redzones(h);
	flags = local_irq_save();
	unlink_live(h);
	h->magic = MAGIC_FREE;
	h->freed_by = __builtin_return_address(0);
	if (h->cls == CLASS_PAGES) {
		free_pages(h, h->npages);
	} else {
		memset(payload(h), POISON_FREE, payload_room(h));
		h->next = free_list[h->cls];
		free_list[h->cls] = h;
	}
	local_irq_restore(flags);
}

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc_frame(n, __builtin_frame_address(0));

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
	p = kmalloc_frame((size_t)n + 1, __builtin_frame_address(0));
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void kmem_get_stats(struct kmem_stats *st) { *st = stats; }

void kmalloc_fail_nth(unsigned long n)
{
	unsigned long flags = local_irq_save();

	fail_countdown = n;
	local_irq_restore(flags);
}

void kmalloc_fail_task(const struct task_struct *p)
{
	unsigned long flags = local_irq_save();

	fail_task = p;
	local_irq_restore(flags);
}

void kmalloc_fail_skip(const struct task_struct *p)
{
	unsigned long flags = local_irq_save();

	fail_skip = p;
	local_irq_restore(flags);
}

unsigned long kmalloc_fail_pending(void) { return fail_countdown; }
unsigned long kmalloc_fail_injected(void) { return fail_injected; }

/* A list link we may follow: no object lies low or off its class's alignment. */
static bool plausible(const struct kmalloc_hdr *h, u32 magic, size_t align)
{
	return (u32)h >= LOWEST_OBJECT && !((u32)h & (align - 1)) && h->magic == magic;
}

static void report_list(const char *list, const void *after)
{
	printk(KERN_ERR "BUG: kmalloc: %s list corrupted after %p: the rest is not checked\n",
	       list, after);
	dump_stack();
}

/* Live objects: links and red zones. Returns the objects found damaged. */
static unsigned int check_live(unsigned int *checked)
{
	unsigned int bad = 0;

	if (live && !plausible(live, MAGIC_LIVE, 64)) {
		report_list("live", NULL);
		return 1;
	}
	for (struct kmalloc_hdr *h = live; h; h = h->next, (*checked)++) {
		bad += !check_redzones(h);
		if (h->next && !plausible(h->next, MAGIC_LIVE, 64)) {
			report_list("live", payload(h));
			return bad + 1;
		}
	}
	return bad;
}

/* Free objects of one class: links and poison. */
static unsigned int check_free(int cls, unsigned int *checked)
{
	struct kmalloc_hdr **link = &free_list[cls], *prev = NULL;
	unsigned int bad = 0;

	for (; *link; prev = *link, link = &(*link)->next, (*checked)++) {
		if (!plausible(*link, MAGIC_FREE, class_size(cls)) || (*link)->cls != cls) {
			report_list("free", prev ? payload(prev) : NULL);
			*link = NULL; /* leak the rest rather than hand it out */
			return bad + 1;
		}
		bad += !check_poison(*link);
	}
	return bad;
}

int kmem_check(unsigned int *objects_checked)
{
	unsigned int checked = 0, bad;
	unsigned long flags = local_irq_save();

	bad = check_live(&checked);
	for (int c = 0; c < NR_CLASSES; c++)
		bad += check_free(c, &checked);
	local_irq_restore(flags);
	if (objects_checked)
		*objects_checked = checked;
	return (int)bad;
}

/* Walk the live objects: red zones checked, each reported to fn with its call site. */
void kmem_for_each_live(void (*fn)(const void *obj, size_t size, const void *caller, void *arg),
			void *arg)
{
	for (struct kmalloc_hdr *h = live; h; h = h->next) {
		check_redzones(h);
		fn(payload(h), h->size, h->track[0], arg);
	}
}
