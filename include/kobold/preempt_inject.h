/*
 * preempt_inject.h: injected preemption (kernel/preempt_inject.c). With the
 * boot option preempt_inject=POINT[+POINT...][,every=N][,seed=S], each
 * named point forces a switch to another thread on a pseudo-random one of
 * every N passes, drawn from a generator seeded with S: on one CPU, the
 * same commands then interleave the same way each run, so a race shows
 * every time. The points: kobject_put (before and after the put),
 * spin_unlock, sysfs_lookup.
 */
#ifndef KOBOLD_PREEMPT_INJECT_H
#define KOBOLD_PREEMPT_INJECT_H

#include <kobold/types.h>

enum preempt_point {
	PI_KOBJECT_PUT,
	PI_SPIN_UNLOCK,
	PI_SYSFS_LOOKUP,
	PI_NR_POINTS,
};

#ifdef KOBOLD_HOST
static inline void preempt_point(enum preempt_point p) { (void)p; }
#else
extern unsigned int preempt_inject_mask; /* a bit per point asked for */
void __preempt_point(enum preempt_point p);
/* A place where a switch may be injected: costs one test when the option is off. */
static inline void preempt_point(enum preempt_point p)
{
	if (__builtin_expect(preempt_inject_mask != 0, 0) && (preempt_inject_mask & (1u << p)))
		__preempt_point(p);
}
#endif

/* Per point: its name, how often it was passed and how many switches it forced. */
struct preempt_point_stat {
	const char *name;
	unsigned long hits, switches;
};
const struct preempt_point_stat *preempt_inject_stats(void);
/* Reads the boot option (from kmain, before the scheduler starts); false if it is bad. */
bool preempt_inject_init(void);

#endif
