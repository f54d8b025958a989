/*
 * efi.c: the GUID partition table (UEFI 2.x §5.3; Linux 2.6's
 * fs/partitions/efi.c): a protective MBR in sector 0, a header in sector 1
 * (and its backup in the last sector), and an array of 128-byte entries.
 * Header and array carry CRC-32s; a table that fails any check is not used.
 */
#include <kobold/crc32.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "check.h"

#define GPT_HEADER_SIGNATURE "EFI PART"
#define GPT_HEADER_MIN 92 /* the fields of UEFI 2.x's header */
#define GPT_ENTRY_SIZE 128
#define GPT_MAX_ENTRIES 128 /* what 16 KiB holds, as every tool writes */
#define EFI_PMBR_OSTYPE 0xee

struct gpt_header {
	u64 my_lba, alternate_lba, first_usable_lba, last_usable_lba, entries_lba;
	u32 num_entries, entries_crc;
};

/* Sector 0 must be a protective MBR: a signature and an entry of type 0xEE. */
static int has_pmbr(struct parsed_partitions *state, u8 *sect)
{
	int err = state->read_sector(state->data, 0, sect);

	if (err)
		return err;
	if (sect[510] != 0x55 || sect[511] != 0xaa)
		return 0;
	for (int i = 0; i < 4; i++)
		if (sect[0x1be + 16 * i + 4] == EFI_PMBR_OSTYPE)
			return 1;
	return 0;
}

static const char *check_header(const u8 *s, u64 lba, u64 capacity, struct gpt_header *h)
{
	u32 size = get_le32(s + 12);
	u8 copy[PARSED_SECTOR];

	if (memcmp(s, GPT_HEADER_SIGNATURE, 8) != 0)
		return "no signature";
	if (size < GPT_HEADER_MIN || size > PARSED_SECTOR)
		return "header size out of range";
	memcpy(copy, s, size);
	memset(copy + 16, 0, 4); /* the CRC is of the header with its own field zero */
	if (crc32(copy, size) != get_le32(s + 16))
		return "header CRC mismatch";
	*h = (struct gpt_header){ get_le64(s + 24), get_le64(s + 32), get_le64(s + 40),
				  get_le64(s + 48), get_le64(s + 72), get_le32(s + 80),
				  get_le32(s + 88) };
	if (h->my_lba != lba)
		return "header in the wrong sector";
	if (h->first_usable_lba > h->last_usable_lba || h->last_usable_lba >= capacity)
		return "usable sectors beyond the disk";
	if (get_le32(s + 84) != GPT_ENTRY_SIZE)
		return "entry size is not 128";
	if (h->num_entries > GPT_MAX_ENTRIES)
		return "more than 128 entries";
	if (h->entries_lba < 2 || h->entries_lba >= capacity ||
	    (u64)h->num_entries * GPT_ENTRY_SIZE / PARSED_SECTOR + 1 > capacity - h->entries_lba)
		return "entries beyond the disk";
	return NULL;
}

/*
 * The entry array, its CRC checked, into *out: 0, 1 if damaged or
 * unreadable (said), -ENOMEM. No memory says nothing about the table, so
 * it is an error of its own: the caller must not take the backup for it.
 */
static int read_entries(struct parsed_partitions *state, const struct gpt_header *h, u8 **out)
{
	size_t bytes = (size_t)h->num_entries * GPT_ENTRY_SIZE;
	size_t sectors = (bytes + PARSED_SECTOR - 1) / PARSED_SECTOR;
	u8 *buf = kzalloc(sectors ? sectors * PARSED_SECTOR : 1);
	int err;

	if (!buf)
		return -ENOMEM;
	for (size_t i = 0; i < sectors; i++) {
		err = state->read_sector(state->data, h->entries_lba + i, buf + i * PARSED_SECTOR);
		if (err)
			goto bad;
	}
	if (crc32(buf, bytes) == h->entries_crc) {
		*out = buf;
		return 0;
	}
	err = 1;
	pr_warn("%s: GPT: partition entries CRC mismatch\n", state->name);
bad:
	kfree(buf);
	return err == -ENOMEM ? err : 1;
}

/* A header at lba and its entries, both valid, into *entries: 0, 1 if not (said why), -ENOMEM. */
static int find_gpt_at(struct parsed_partitions *state, u8 *sect, u64 lba, struct gpt_header *h,
		       u8 **entries)
{
	const char *why;
	int err = state->read_sector(state->data, lba, sect);

	if (err)
		return err == -ENOMEM ? err : 1;
	why = check_header(sect, lba, state->capacity, h);
	if (why) {
		pr_warn("%s: GPT: %s header at sector %llu: %s\n", state->name,
			lba == 1 ? "primary" : "alternate", (unsigned long long)lba, why);
		return 1;
	}
	return read_entries(state, h, entries);
}

static bool guid_is_zero(const u8 *g)
{
	for (int i = 0; i < 16; i++)
		if (g[i])
			return false;
	return true;
}

static void put_entries(struct parsed_partitions *state, const struct gpt_header *h,
			const u8 *entries)
{
	for (u32 i = 0; i < h->num_entries; i++) {
		const u8 *e = entries + i * GPT_ENTRY_SIZE;
		u64 start = get_le64(e + 32), end = get_le64(e + 40);

		if (guid_is_zero(e))
			continue; /* an unused entry */
		if (start < h->first_usable_lba || end > h->last_usable_lba || start > end) {
			pr_warn("%s: GPT: entry %u outside the usable sectors: skipped\n",
				state->name, i + 1);
			continue;
		}
		put_partition(state, (int)i + 1, start, end - start + 1);
	}
}

int efi_partition(struct parsed_partitions *state)
{
	u8 *sect = kmalloc(PARSED_SECTOR), *entries = NULL;
	struct gpt_header h;
	int ret;

	if (!sect)
		return -ENOMEM;
	ret = has_pmbr(state, sect);
	if (ret <= 0 || state->capacity < 3)
		goto out;
	ret = find_gpt_at(state, sect, 1, &h, &entries);
	if (ret == 1) {
		ret = find_gpt_at(state, sect, state->capacity - 1, &h, &entries);
		if (ret == 0)
			pr_warn("%s: Primary GPT is invalid, using alternate GPT.\n", state->name);
	}
	if (ret < 0)
		goto out; /* no memory: the tables may well be good */
	if (ret == 1) {
		ret = 0;
		pr_warn("%s: GPT: no valid table: partitions ignored\n", state->name);
		goto out;
	}
	put_entries(state, &h, entries);
	kfree(entries);
	ret = 1;
out:
	kfree(sect);
	return ret;
}
