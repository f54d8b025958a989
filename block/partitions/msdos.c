/*
 * msdos.c: the PC's partition table (MBR) in sector 0: four primary entries
 * and a chain of extended boot records for logical partitions 5 and up
 * (Linux 2.6's fs/partitions/msdos.c).
 */
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "check.h"

#define MBR_TABLE 0x1be	    /* four 16-byte entries */
#define MBR_SIGNATURE 0x1fe /* 0x55 0xaa */
#define DOS_EXTENDED 0x05
#define WIN98_EXTENDED 0x0f
#define LINUX_EXTENDED 0x85
#define EFI_PMBR_OSTYPE 0xee /* a protective MBR: the disk is GPT's */
#define MAX_EBRS 64	     /* a longer chain is a loop or a hostile table */

struct mbr_entry {
	u8 boot_ind, type;
	u32 start, size; /* in sectors; start relative to the table's sector */
};

static struct mbr_entry mbr_entry(const u8 *sect, int i)
{
	const u8 *p = sect + MBR_TABLE + 16 * i;

	return (struct mbr_entry){ p[0], p[4], get_le32(p + 8), get_le32(p + 12) };
}

static bool is_extended(u8 type)
{
	return type == DOS_EXTENDED || type == WIN98_EXTENDED || type == LINUX_EXTENDED;
}

static bool has_signature(const u8 *sect)
{
	return sect[MBR_SIGNATURE] == 0x55 && sect[MBR_SIGNATURE + 1] == 0xaa;
}

static bool visited(const u64 *seen, int n, u64 sector)
{
	for (int i = 0; i < n; i++)
		if (seen[i] == sector)
			return true;
	return false;
}

/*
 * A link that cannot be followed ends the chain, and the logical partitions
 * found so far are kept, as Linux's parse_extended returns with what it has.
 */
static bool link_ok(struct parsed_partitions *state, const u64 *seen, int hops, u64 ext_start,
		    u64 ext_size, u32 next)
{
	if (next >= ext_size) {
		pr_warn("%s: extended partition link beyond the extended partition: stopped\n",
			state->name);
		return false;
	}
	if (ext_start + next >= state->capacity) {
		pr_warn("%s: extended partition link to sector %llu, beyond the end of the disk: "
			"stopped\n",
			state->name, (unsigned long long)(ext_start + next));
		return false;
	}
	if (visited(seen, hops, ext_start + next)) {
		pr_warn("%s: extended partition chain loops back: stopped\n", state->name);
		return false;
	}
	return true;
}

/* Logical partitions take numbers from state->next: a second chain goes on from the first. */
static int parse_extended(struct parsed_partitions *state, u8 *sect, u64 ext_start,
			  u64 ext_size)
{
	u64 seen[MAX_EBRS], this = ext_start;

	partition_line(state, " <");
	for (int hops = 0; hops < MAX_EBRS; hops++) {
		struct mbr_entry logical, next;
		int err = state->read_sector(state->data, this, sect);

		if (err == -ENOMEM)
			return err;
		if (err) {
			pr_warn("%s: extended partition at sector %llu unreadable (%s): stopped\n",
				state->name, (unsigned long long)this, kstrerror(err));
			goto out;
		}
		seen[hops] = this;
		if (!has_signature(sect))
			goto out;
		logical = mbr_entry(sect, 0);
		next = mbr_entry(sect, 1);
		if (logical.type && logical.size && !is_extended(logical.type))
			put_partition(state, state->next++, this + logical.start, logical.size);
		if (!is_extended(next.type) || !next.start ||
		    !link_ok(state, seen, hops + 1, ext_start, ext_size, next.start))
			goto out;
		this = ext_start + next.start;
	}
	pr_warn("%s: extended partition chain longer than %d: stopped\n", state->name, MAX_EBRS);
out:
	partition_line(state, " >");
	return 0;
}

static bool looks_like_mbr(const u8 *sect)
{
	if (!has_signature(sect))
		return false;
	for (int i = 0; i < 4; i++) {
		u8 b = mbr_entry(sect, i).boot_ind;

		if (b != 0 && b != 0x80)
			return false; /* a FAT boot sector, not a partition table */
	}
	return true;
}

int msdos_partition(struct parsed_partitions *state)
{
	u8 *sect = kmalloc(PARSED_SECTOR);
	struct mbr_entry e[4];
	int err;

	if (!sect)
		return -ENOMEM;
	err = state->read_sector(state->data, 0, sect);
	if (err || !looks_like_mbr(sect))
		goto out;
	for (int i = 0; i < 4; i++)
		e[i] = mbr_entry(sect, i);
	for (int i = 0; i < 4; i++)
		if (e[i].type == EFI_PMBR_OSTYPE)
			goto out; /* efi_partition's, and it found no valid GPT */
	for (int i = 0; i < 4; i++) {
		if (!e[i].type || !e[i].size)
			continue;
		if (!is_extended(e[i].type)) {
			put_partition(state, i + 1, e[i].start, e[i].size);
			continue;
		}
		put_partition(state, i + 1, e[i].start, 2); /* as Linux: 1 KiB for fdisk */
		state->parts[i + 1].container = true;
		err = parse_extended(state, sect, e[i].start, e[i].size);
		if (err)
			goto out;
	}
	err = 1;
out:
	kfree(sect);
	return err;
}
