/* gfp.h: allocation flags, so that Linux's calls (devm_kzalloc(..., GFP_KERNEL)) read the same. */
#ifndef KOBOLD_GFP_H
#define KOBOLD_GFP_H

/* Kobold's allocator never sleeps and has one zone: the flags are accepted and ignored. */
typedef unsigned int gfp_t;
#define GFP_KERNEL ((gfp_t)0)
#define GFP_ATOMIC ((gfp_t)0)

#endif
