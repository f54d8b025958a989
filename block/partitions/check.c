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
		if (!state->told_limit)
			pr_warn("%s: partition %d: more partitions than the disk has minors (%d): "
				"skipped, and any after it\n",
				state->name, n, state->limit - 1);
		state->told_limit = true;
		return;
	}
	state->parts[n].from = from;
	state->parts[n].size = size;
	scnprintf(name, sizeof(name), " %s%d", state->name, n);
	partition_line(state, name);
}

static bool starts_beyond_disk(const struct parsed_partitions *state, int n)
{
	return state->parts[n].from >= state->capacity;
}

static bool ends_beyond_disk(const struct parsed_partitions *state, int n)
{
	return state->parts[n].size > state->capacity - state->parts[n].from;
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

/*
 * With a message each: a partition that starts past the end is dropped, one
 * that runs past it is cut at the end (as Linux's rescan_partitions does:
 * tables that camera firmware writes are like that), one that overlaps an
 * earlier one dropped.
 */
static void drop_impossible(struct parsed_partitions *state)
{
	for (int n = 1; n < PARSED_MAX_PARTS; n++) {
		u64 from = state->parts[n].from, size = state->parts[n].size;
		int other;

		if (!size)
			continue;
		if (starts_beyond_disk(state, n)) {
			pr_warn("%s: %s%d: sectors %llu+%llu beyond the end of the disk (%llu): skipped\n",
				state->name, state->name, n, (unsigned long long)from,
				(unsigned long long)size, (unsigned long long)state->capacity);
			state->parts[n].size = 0;
		} else if (ends_beyond_disk(state, n)) {
			state->parts[n].size = state->capacity - from;
			pr_warn("%s: %s%d: sectors %llu+%llu run past the end of the disk (%llu): "
				"truncated to %llu\n",
				state->name, state->name, n, (unsigned long long)from,
				(unsigned long long)size, (unsigned long long)state->capacity,
				(unsigned long long)state->parts[n].size);
		}
		if (state->parts[n].size && (other = overlapping(state, n))) {
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
	state->next = 5;
	state->told_limit = false;
	partition_line(state, " ");
	partition_line(state, state->name);
	partition_line(state, ":");
	for (size_t i = 0; i < ARRAY_SIZE(parsers) && !ret; i++)
		ret = parsers[i](state);
	if (ret < 0) {
		pr_warn(" %s: unable to read partition table: %s\n", state->name, kstrerror(ret));
		return ret;
	}
	if (ret > 0) {
		pr_info("%s\n", state->line);
		drop_impossible(state);
	}
	return ret;
}
