/*
 * atomic.h: atomic_t, an int changed only by whole read-modify-write
 * instructions, as Linux 2.6's include/asm-i386/atomic.h: each operation is
 * one instruction with the lock prefix, so another CPU (or an interrupt)
 * sees the value before or after it, never half of it. The host build uses
 * the compiler's __atomic builtins, which are the same instructions on x86.
 */
#ifndef KOBOLD_ATOMIC_H
#define KOBOLD_ATOMIC_H

#include <kobold/types.h>

typedef struct {
	volatile int counter;
} atomic_t;

#define ATOMIC_INIT(i) { (i) }

static inline int atomic_read(const atomic_t *v) { return v->counter; }
static inline void atomic_set(atomic_t *v, int i) { v->counter = i; }

#ifdef KOBOLD_HOST
static inline void atomic_add(int i, atomic_t *v) { __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline void atomic_sub(int i, atomic_t *v) { __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST); }
static inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);
}
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	__atomic_compare_exchange_n(&v->counter, &old, new, false, __ATOMIC_SEQ_CST,
				    __ATOMIC_SEQ_CST);
	return old;
}
#else
static inline void atomic_add(int i, atomic_t *v)
{
	__asm__ volatile("lock; addl %1, %0" : "+m"(v->counter) : "ir"(i) : "memory");
}

static inline void atomic_sub(int i, atomic_t *v)
{
	__asm__ volatile("lock; subl %1, %0" : "+m"(v->counter) : "ir"(i) : "memory");
}

/* xadd leaves the old value in the register: the new one is old + i. */
static inline int atomic_add_return(int i, atomic_t *v)
{
	int old = i;

	__asm__ volatile("lock; xaddl %0, %1" : "+r"(old), "+m"(v->counter) : : "memory");
	return old + i;
}

/* Sets new if the value is old; returns the value found (old: it was set). */
static inline int atomic_cmpxchg(atomic_t *v, int old, int new)
{
	int prev;

	__asm__ volatile("lock; cmpxchgl %2, %1"
			 : "=a"(prev), "+m"(v->counter)
			 : "r"(new), "0"(old)
			 : "memory");
	return prev;
}
#endif

static inline void atomic_inc(atomic_t *v) { atomic_add(1, v); }
static inline void atomic_dec(atomic_t *v) { atomic_sub(1, v); }
static inline int atomic_sub_return(int i, atomic_t *v) { return atomic_add_return(-i, v); }
static inline int atomic_inc_return(atomic_t *v) { return atomic_add_return(1, v); }
static inline int atomic_dec_return(atomic_t *v) { return atomic_add_return(-1, v); }
/* True if the decrement reached zero: the last reference, say. */
static inline bool atomic_dec_and_test(atomic_t *v) { return atomic_add_return(-1, v) == 0; }

/* Adds a unless the value is u; true if it added (2.6.15's atomic_add_unless). */
static inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v), old;

	while (c != u && (old = atomic_cmpxchg(v, c, c + a)) != c)
		c = old;
	return c != u;
}
#define atomic_inc_not_zero(v) atomic_add_unless((v), 1, 0)

#endif
