/* err.h: errors carried in pointers (ERR_PTR), as Linux's include/linux/err.h. */
#ifndef KOBOLD_ERR_H
#define KOBOLD_ERR_H

#include <kobold/types.h>

#define MAX_ERRNO 4095 /* the top page of the address space is never a pointer */

#define IS_ERR_VALUE(x) unlikely((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)

static inline void *ERR_PTR(long error)
{
	return (void *)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

#endif
