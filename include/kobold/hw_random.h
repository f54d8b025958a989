/*
 * hw_random.h: hardware random number generators (Linux's <linux/hw_random.h>):
 * each source registers a struct hwrng; the core shows them in the misc
 * device hw_random (10:183): rng_available lists them, rng_current picks one.
 */
#ifndef KOBOLD_HW_RANDOM_H
#define KOBOLD_HW_RANDOM_H

#include <kobold/list.h>
#include <kobold/types.h>

struct hwrng {
	const char *name; /* "virtio_rng.0" */
	/* Up to max bytes into data; waits for them if wait. Bytes read or -errno. */
	int (*read)(struct hwrng *rng, void *data, size_t max, bool wait);
	void *priv;
	struct list_head list; /* the core's */
};

int hwrng_register(struct hwrng *rng);
void hwrng_unregister(struct hwrng *rng);
/* From the current source (as a read of /dev/hwrng): bytes read, or -ENODEV with none. */
int hwrng_read(void *buf, size_t len);

#endif
