/*
 * udev_fuzz.h: what the udev fuzz targets check alike: a rules file of any
 * bytes parses within its bounds, an event's results stay bounded, and the
 * rules and the event free every byte they took.
 */
#ifndef FUZZ_UDEV_FUZZ_H
#define FUZZ_UDEV_FUZZ_H

#include <kobold/slab.h>
#include <kobold/udev.h>

#include <stdlib.h>

/* A parse never fails as a whole, whatever the bytes: bad rules are skipped. */
static inline void fz_parse_rules(struct udev_rules *rules, const char *text, size_t len)
{
	udev_rules_init(rules);
	if (udev_rules_parse(rules, "fuzz.rules", text, len) || rules->nr_rules > UDEV_RULES_MAX)
		abort();
}

/* The event's results within their limits; then both freed, to the byte of before. */
static inline void fz_check_and_free(struct udev_rules *rules, struct udev_event *ev,
				     const struct kmem_stats *before)
{
	struct kmem_stats after;

	if (ev->nr_links > UDEV_LINKS_MAX || ev->nr_run > UDEV_RUN_MAX ||
	    ev->nr_env > UDEV_ENV_MAX || ev->mode > 07777)
		abort();
	udev_event_free(ev);
	udev_rules_free(rules);
	kmem_get_stats(&after);
	if (after.bytes_in_use != before->bytes_in_use)
		abort();
}

#endif
