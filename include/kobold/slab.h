/* slab.h: kmalloc and friends; every live byte and object is counted. */
#ifndef KOBOLD_SLAB_H
#define KOBOLD_SLAB_H

#include <kobold/types.h>

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(const void *p);
char *kstrdup(const char *s);
__printf(1, 2) char *kasprintf(const char *fmt, ...);

struct kmem_stats {
	size_t bytes_in_use;
	size_t objects_in_use;
	size_t peak_bytes;
	size_t total_allocs;
	size_t total_frees;
	size_t failures;
};
void kmem_get_stats(struct kmem_stats *st);

/* Fault injection, as Linux's failslab: make the nth allocation from now fail (0: off). */
void kmalloc_fail_nth(unsigned long n);
/*
 * Counts only p's allocations toward the armed failure (NULL: every
 * thread's), as Linux's fault injection with its task filter: a command
 * run under failslab fails in its own thread, not in work beside it.
 */
struct task_struct;
void kmalloc_fail_task(const struct task_struct *p);
/* ... and none of p's (NULL: no thread left out). */
void kmalloc_fail_skip(const struct task_struct *p);
/* Allocations still to go before the armed failure (0: none armed, or it happened). */
unsigned long kmalloc_fail_pending(void);
/* Failures forced so far. */
unsigned long kmalloc_fail_injected(void);

/* Call-chain entries kept per object (the allocating call first). */
#define KMALLOC_TRACK 3
/*
 * Check every object now: red zones of live ones, poison of free ones, and the
 * lists' links. Each damage is reported (object, allocation and free sites, a
 * backtrace) and repaired. Returns the number of damaged objects.
 */
int kmem_check(unsigned int *objects_checked);

/* Visit every live object with its size and the code address that allocated it. */
void kmem_for_each_live(void (*fn)(const void *obj, size_t size, const void *caller, void *arg),
			void *arg);

#endif
