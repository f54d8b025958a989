/*
 * preempt_inject.c: injected preemption at chosen points, seeded, so that
 * a race between threads reproduces the same way on every run (docs/smp.md
 * shows one: a sysfs reader against rmmod). A point that fires yields the
 * CPU at once if the thread may be preempted there, or else marks it to be
 * switched at its next preempt_enable() (after a spin_unlock, say).
 */
#include <kobold/irqflags.h>
#include <kobold/param.h>
#include <kobold/preempt_inject.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/string.h>

static const char *inject_option;
core_param(preempt_inject, inject_option, charp,
	   "POINT[+POINT...][,every=N][,seed=S]: force a switch at kobject_put, spin_unlock, sysfs_lookup");

unsigned int preempt_inject_mask;
static unsigned int every = 1;
static u32 rng_state = 1;
static struct preempt_point_stat stats[PI_NR_POINTS] = {
	[PI_KOBJECT_PUT] = { "kobject_put" },
	[PI_SPIN_UNLOCK] = { "spin_unlock" },
	[PI_SYSFS_LOOKUP] = { "sysfs_lookup" },
};

const struct preempt_point_stat *preempt_inject_stats(void) { return stats; }

/* xorshift32 (Marsaglia, 2003): a sequence fixed by its seed. */
static u32 next_random(void)
{
	u32 x = rng_state;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	rng_state = x;
	return x;
}

void __preempt_point(enum preempt_point p)
{
	unsigned long flags = local_irq_save();
	bool fire;

	stats[p].hits++;
	fire = next_random() % every == 0;
	if (fire)
		stats[p].switches++;
	local_irq_restore(flags);
	if (!fire || !scheduler_running)
		return;
	if (preempt_count() == 0 && !irqs_disabled())
		yield();
	else
		set_need_resched();
}

/* The text up to the next sep (cut there), or NULL at the end: strsep's job. */
static char *next_field(char **s, char sep)
{
	char *field = *s, *end;

	if (!field)
		return NULL;
	end = strchr(field, sep);
	if (end)
		*end++ = '\0';
	*s = end;
	return field;
}

static bool parse_points(char *s)
{
	for (char *name = next_field(&s, '+'); name; name = next_field(&s, '+')) {
		int p;

		for (p = 0; p < PI_NR_POINTS && strcmp(name, stats[p].name); p++)
			;
		if (p == PI_NR_POINTS)
			return false;
		preempt_inject_mask |= 1u << p;
	}
	return true;
}

static bool parse_option(char *s)
{
	char *field = next_field(&s, ',');
	unsigned long v;

	if (!field || !parse_points(field))
		return false;
	while ((field = next_field(&s, ','))) {
		if (!strncmp(field, "every=", 6) && !kstrtoul(field + 6, 10, &v) && v && v < 1000000)
			every = (unsigned int)v;
		else if (!strncmp(field, "seed=", 5) && !kstrtoul(field + 5, 10, &v) && v && v <= 0xffffffffUL)
			rng_state = (u32)v;
		else
			return false;
	}
	return true;
}

bool preempt_inject_init(void)
{
	char buf[128];
	u32 seed;

	if (!inject_option)
		return true;
	strscpy(buf, inject_option, sizeof(buf));
	if (!parse_option(buf)) {
		preempt_inject_mask = 0;
		pr_err("preempt_inject: bad option \"%s\" (POINT[+POINT...][,every=N][,seed=S]); off\n",
		       inject_option);
		return false;
	}
	seed = rng_state;
	pr_info("preempt_inject: %s, one pass in %u on average, seed %u\n", inject_option, every,
		seed);
	return true;
}
