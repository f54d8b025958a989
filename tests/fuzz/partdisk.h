/*
 * partdisk.h: the made-up disk the partition fuzz targets parse. The input
 * is a header (capacity in sectors, the disk's minors, flags, which read
 * and which allocation fail) and sectors that repeat to fill the capacity,
 * so that a table, its extended boot records and a GPT's backup far out
 * fit in a few kilobytes. tests/fuzz/partition_seeds.py writes the seeds.
 */
#ifndef FUZZ_PARTDISK_H
#define FUZZ_PARTDISK_H

#include <kobold/crc32.h>
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include <stdint.h>
#include <stdlib.h>

#include "../../block/partitions/check.h"

#define PD_HEADER 8
#define PD_FIX_CRC 1	  /* flags: make the GPT headers' and entries' CRCs right */
#define PD_READ_ENOMEM 2  /* flags: read number fail_read answers -ENOMEM */
#define PD_KMALLOC_FAIL 4 /* flags: allocation number fail_alloc fails */

struct pd_disk {
	u8 *img;
	size_t nsect;
	u64 capacity;
	unsigned int reads, fail_read;
};

static u8 *pd_sector(struct pd_disk *d, u64 sector)
{
	return d->img + (sector % d->nsect) * PARSED_SECTOR;
}

static int pd_read(void *data, u64 sector, u8 *buf)
{
	struct pd_disk *d = data;

	if (d->fail_read && ++d->reads == d->fail_read)
		return -ENOMEM;
	if (sector >= d->capacity)
		return -EIO;
	memcpy(buf, pd_sector(d, sector), PARSED_SECTOR);
	return 0;
}

static u32 pd_le32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static void pd_put_le32(u8 *p, u32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (u8)(v >> (8 * i));
}

/* The header at lba gets the CRCs of its entries and of itself, as a tool writes them. */
static void pd_fix_gpt(struct pd_disk *d, u64 lba)
{
	u8 *h = pd_sector(d, lba), *entries;
	u64 entries_lba = (u64)pd_le32(h + 72) | (u64)pd_le32(h + 76) << 32;
	u32 n = pd_le32(h + 80), size = pd_le32(h + 12);

	if (n > 128 || size < 92 || size > PARSED_SECTOR)
		return;
	entries = calloc(1, 128 * 128);
	if (!entries)
		return;
	for (u32 i = 0; i < (n * 128 + PARSED_SECTOR - 1) / PARSED_SECTOR; i++)
		memcpy(entries + i * PARSED_SECTOR, pd_sector(d, entries_lba + i), PARSED_SECTOR);
	pd_put_le32(h + 88, crc32(entries, n * 128));
	pd_put_le32(h + 16, 0);
	pd_put_le32(h + 16, crc32(h, size));
	free(entries);
}

/* What a parser hands back is inside the disk, numbered below its limit, disjoint but for containers. */
static void pd_check(const struct parsed_partitions *s)
{
	if (s->line_len >= (int)sizeof(s->line))
		abort();
	for (int n = 1; n < PARSED_MAX_PARTS; n++) {
		if (!s->parts[n].size)
			continue;
		if (n >= s->limit || s->parts[n].from + s->parts[n].size > s->capacity)
			abort();
		for (int m = 1; m < n; m++)
			if (s->parts[m].size && !s->parts[m].container && !s->parts[n].container &&
			    s->parts[m].from < s->parts[n].from + s->parts[n].size &&
			    s->parts[n].from < s->parts[m].from + s->parts[m].size)
				abort();
	}
}

/* Parses the input's disk with parser (or check_partition's whole run, then checked). */
static int pd_run(const uint8_t *data, size_t size, int (*parser)(struct parsed_partitions *))
{
	static struct parsed_partitions s;
	struct pd_disk d = { 0 };
	size_t body = size > PD_HEADER ? size - PD_HEADER : 0;
	u8 flags;

	if (size < PD_HEADER)
		return 0;
	d.capacity = pd_le32(data) ? pd_le32(data) : 1;
	flags = data[5];
	d.nsect = body ? (body + PARSED_SECTOR - 1) / PARSED_SECTOR : 1;
	d.img = calloc(d.nsect, PARSED_SECTOR);
	if (!d.img)
		return 0;
	memcpy(d.img, data + PD_HEADER, body);
	if (flags & PD_FIX_CRC) {
		pd_fix_gpt(&d, 1);
		pd_fix_gpt(&d, d.capacity - 1);
	}
	if (flags & PD_READ_ENOMEM)
		d.fail_read = data[6] + 1u;
	memset(&s, 0, sizeof(s));
	s = (struct parsed_partitions){ .name = "fz", .capacity = d.capacity, .limit = 1 + data[4] % PARSED_MAX_PARTS, .read_sector = pd_read, .data = &d };
	if (flags & PD_KMALLOC_FAIL)
		kmalloc_fail_nth(data[7] + 1u);
	if (parser) {
		s.next = 5;
		parser(&s);
	} else if (check_partition(&s) > 0) {
		pd_check(&s);
	}
	kmalloc_fail_nth(0);
	free(d.img);
	return 0;
}

#endif
