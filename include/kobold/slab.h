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

/* Visit every live object with its size and the code address that allocated it. */
void kmem_for_each_live(void (*fn)(const void *obj, size_t size, const void *caller, void *arg),
			void *arg);

#endif
