/*
 * kref.h: a reference count with a release callback, as Linux's kref, on
 * an atomic_t (2.6's): a get and a put on two CPUs, or a put in a thread
 * preempted halfway, still count exactly, and only the put that reaches
 * zero runs release.
 */
#ifndef KOBOLD_KREF_H
#define KOBOLD_KREF_H

#include <kobold/atomic.h>
#include <kobold/printk.h>

struct kref {
	atomic_t refcount;
};

static inline void kref_init(struct kref *kref) { atomic_set(&kref->refcount, 1); }

static inline unsigned int kref_read(const struct kref *kref)
{
	int n = atomic_read(&kref->refcount);

	return n > 0 ? (unsigned int)n : 0;
}

/* Taking a reference on something already released is a use-after-free. */
static inline void kref_get(struct kref *kref)
{
	if (WARN_ON(atomic_read(&kref->refcount) <= 0))
		return;
	atomic_inc(&kref->refcount);
}

/* Drop a reference; release runs at the last one. Returns 1 if it ran. */
static inline int kref_put(struct kref *kref, void (*release)(struct kref *kref))
{
	if (WARN_ON(atomic_read(&kref->refcount) <= 0))
		return 0;
	if (!atomic_dec_and_test(&kref->refcount))
		return 0;
	release(kref);
	return 1;
}

#endif
