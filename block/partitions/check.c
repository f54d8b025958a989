/*
 * check.c: reading a disk's partition table (Linux 2.6's fs/partitions/check.c,
 * its parser half): each parser in turn, then the partitions that cannot be
 * are dropped with a message, so that nothing is registered that should not be.
 */
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/string.h>

#include "check.h"

void partition_line(struct parsed_partitions *state, const char *text)
{
	int room = (int)sizeof(state->line) - state->line_len;

	if (room > 1)
		state->line_len += scnprintf(state->line + state->line_len, (size_t)room, "%s",
					     text);
}

void put_partition(struct parsed_partitions *state, int n, u64 from, u64 size)
{
	char name[48];

	if (n < 1 || n >= state->limit || n >= PARSED_MAX_PARTS) {
		pr_warn("%s: partition %d: more partitions than the disk has minors (%d): skipped\n",
			state->name, n, state->limit - 1);
		return;
	}
	state->parts[n].from = from;
	state->parts[n].size = size;
	scnprintf(name, sizeof(name), " %s%d", state->name, n);
	partition_line(state, name);
}

static bool beyond_disk(const struct parsed_partitions *state, int n)
{
	u64 from = state->parts[n].from, size = state->parts[n].size;

	return from >= state->capacity || size > state->capacity - from;
}

static int overlapping(const struct parsed_partitions *state, int n)
{
	u64 a = state->parts[n].from, a_end = a + state->parts[n].size;

	for (int i = 1; i < n; i++) {
		u64 b = state->parts[i].from, b_end = b + state->parts[i].size;

		if (state->parts[i].size && !state->parts[i].container &&
		    !state->parts[n].container && a < b_end && b < a_end)
			return i;
	}
	return 0;
}

/* Drops, with a message each, partitions past the end and those overlapping an earlier one. */
static void drop_impossible(struct parsed_partitions *state)
{
	for (int n = 1; n < PARSED_MAX_PARTS; n++) {
		int other;

		if (!state->parts[n].size)
			continue;
		if (beyond_disk(state, n)) {
			pr_warn("%s: %s%d: sectors %llu+%llu beyond the end of the disk (%llu): skipped\n",
				state->name, state->name, n,
				(unsigned long long)state->parts[n].from,
				(unsigned long long)state->parts[n].size,
				(unsigned long long)state->capacity);
			state->parts[n].size = 0;
		} else if ((other = overlapping(state, n))) {
			pr_warn("%s: %s%d overlaps %s%d: skipped\n", state->name, state->name, n,
				state->name, other);
			state->parts[n].size = 0;
		}
	}
}

int check_partition(struct parsed_partitions *state)
{
	static int (*const parsers[])(struct parsed_partitions *) = {
		efi_partition,
		msdos_partition,
	};
	int ret = 0;

	memset(state->parts, 0, sizeof(state->parts));
	state->line_len = 0;
	partition_line(state, " ");
	partition_line(state, state->name);
	partition_line(state, ":");
	for (size_t i = 0; i < ARRAY_SIZE(parsers) && !ret; i++)
		ret = parsers[i](state);
	if (ret < 0) {
		pr_warn(" %s: unable to read partition table\n", state->name);
		return ret;
	}
	if (ret > 0) {
		pr_info("%s\n", state->line);
		drop_impossible(state);
	}
	return ret;
}
