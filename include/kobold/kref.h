/*
 * kref.h: a reference count with a release callback, as Linux's kref.
 * Kobold runs on one CPU and never touches these from interrupts, so a plain
 * int is enough; there is no locking anywhere in the device model.
 */
#ifndef KOBOLD_KREF_H
#define KOBOLD_KREF_H

#include <kobold/printk.h>

struct kref {
	int refcount;
};

static inline void kref_init(struct kref *kref)
{
	kref->refcount = 1;
}

static inline unsigned int kref_read(const struct kref *kref)
{
	return kref->refcount > 0 ? (unsigned int)kref->refcount : 0;
}

/* Taking a reference on something already released is a use-after-free. */
static inline void kref_get(struct kref *kref)
{
	if (WARN_ON(kref->refcount <= 0))
		return;
	kref->refcount++;
}

/* Drop a reference; release runs at the last one. Returns 1 if it ran. */
static inline int kref_put(struct kref *kref, void (*release)(struct kref *kref))
{
	if (WARN_ON(kref->refcount <= 0))
		return 0;
	if (--kref->refcount)
		return 0;
	release(kref);
	return 1;
}

#endif
