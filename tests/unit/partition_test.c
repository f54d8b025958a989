/*
 * partition_test.c: the MBR and GPT parsers against good and hostile tables
 * (overlaps, beyond the disk, looping EBR chains, damaged CRCs, absurd sizes,
 * and a few thousand mutated tables), and partitions as kobjects below a disk.
 */
#include <kobold/crc32.h>
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/genhd.h>
#include <kobold/init.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "../../block/partitions/check.h"
#include "devmodel_helpers.h"

#define IMG_SECTORS 2048 /* a 1 MiB disk */
#define SECT 512

static u8 *img;
static int read_calls;

static int img_read(void *data, u64 sector, u8 *buf)
{
	read_calls++;
	if (sector >= IMG_SECTORS)
		return -EIO; /* a parser that asks past the end is answered, not crashed */
	memcpy(buf, img + sector * SECT, SECT);
	return 0;
}

static void init_state(struct parsed_partitions *s, int limit)
{
	memset(s, 0, sizeof(*s));
	*s = (struct parsed_partitions){ .name = "tp", .capacity = IMG_SECTORS, .limit = limit, .read_sector = img_read };
}

static void put_le32(u8 *p, u32 v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (u8)(v >> (8 * i));
}

static void put_le64(u8 *p, u64 v)
{
	put_le32(p, (u32)v);
	put_le32(p + 4, (u32)(v >> 32));
}

static void mbr_entry(u64 sector, int i, u8 type, u32 start, u32 size)
{
	u8 *p = img + sector * SECT + 0x1be + 16 * i;

	p[4] = type;
	put_le32(p + 8, start);
	put_le32(p + 12, size);
	img[sector * SECT + 510] = 0x55;
	img[sector * SECT + 511] = 0xaa;
}

static int pt_init(struct ktest *t)
{
	img = kzalloc(IMG_SECTORS * SECT);
	read_calls = 0;
	return img ? 0 : -1;
}

static void pt_exit(struct ktest *t)
{
	kfree(img);
}

static struct parsed_partitions *parse(int limit, int *ret)
{
	struct parsed_partitions *s = kzalloc(sizeof(*s));

	if (s) {
		init_state(s, limit);
		*ret = check_partition(s);
	}
	return s;
}

static void mbr_primaries_and_logicals(struct ktest *t)
{
	struct parsed_partitions *s;
	int ret;

	mbr_entry(0, 0, 0x83, 64, 512);
	mbr_entry(0, 1, 0x05, 1024, 1000);
	mbr_entry(1024, 0, 0x83, 1, 100); /* tp5 at 1025 */
	mbr_entry(1024, 1, 0x05, 200, 2); /* next EBR at 1224 */
	mbr_entry(1224, 0, 0x83, 1, 50);  /* tp6 at 1225 */
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[1].from, 64);
	KTEST_EXPECT_EQ(t, s->parts[1].size, 512);
	KTEST_EXPECT_EQ(t, s->parts[2].size, 2); /* the extended one: 1 KiB, as Linux */
	KTEST_EXPECT_EQ(t, s->parts[5].from, 1025);
	KTEST_EXPECT_EQ(t, s->parts[6].from, 1225);
	KTEST_EXPECT_EQ(t, s->parts[6].size, 50);
	KTEST_EXPECT_STREQ(t, s->line, " tp: tp1 tp2 < tp5 tp6 >");
	kfree(s);
}

static void mbr_refuses_what_cannot_be(struct ktest *t)
{
	struct parsed_partitions *s;
	u32 seq = log_seq();
	int ret;

	mbr_entry(0, 0, 0x83, 100, 200);
	mbr_entry(0, 1, 0x83, 150, 100);	 /* overlaps tp1 */
	mbr_entry(0, 2, 0x83, IMG_SECTORS, 10);	 /* starts past the end */
	mbr_entry(0, 3, 0x83, 2000, 0xffffffff); /* runs past the end */
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[1].size, 200);
	KTEST_EXPECT_EQ(t, s->parts[2].size, 0);
	KTEST_EXPECT_EQ(t, s->parts[3].size, 0);
	KTEST_EXPECT_EQ(t, s->parts[4].from, 2000);
	KTEST_EXPECT_EQ(t, s->parts[4].size, 48); /* cut at the end, as Linux */
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: tp2 overlaps tp1: skipped"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: tp4: sectors 2000+4294967295 run past the end of the disk (2048): truncated to 48"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: tp3: sectors 2048+10 beyond the end of the disk (2048): skipped"));
	kfree(s);
	img[0x1be] = 0x29; /* boot indicator of a FAT boot sector: no table at all */
	s = parse(16, &ret);
	KTEST_EXPECT_EQ(t, ret, 0);
	kfree(s);
	memset(img, 0, SECT); /* no signature */
	s = parse(16, &ret);
	KTEST_EXPECT_EQ(t, ret, 0);
	kfree(s);
}

static void mbr_extended_loops_and_limits(struct ktest *t)
{
	struct parsed_partitions *s;
	u32 seq = log_seq();
	int ret;

	mbr_entry(0, 0, 0x05, 100, 1000);
	mbr_entry(100, 0, 0x83, 1, 10);
	mbr_entry(100, 1, 0x05, 50, 2);
	mbr_entry(150, 0, 0x83, 1, 10);
	mbr_entry(150, 1, 0x05, 0 + 50, 2); /* links back to itself */
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[5].from, 101);
	KTEST_EXPECT_EQ(t, s->parts[5].size, 10); /* inside the extended stub's 2 sectors: kept */
	KTEST_EXPECT_EQ(t, s->parts[6].from, 151);
	KTEST_EXPECT_EQ(t, s->parts[6].size, 10);
	KTEST_EXPECT_EQ(t, s->parts[7].size, 0);
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: extended partition chain loops back: stopped"));
	kfree(s);
	mbr_entry(150, 1, 0x05, 5000, 2); /* beyond the extended partition */
	s = parse(16, &ret);
	KTEST_EXPECT_TRUE(t, log_search(seq, "link beyond the extended partition: stopped"));
	kfree(s);
	/* A long, legal chain: more logicals than a 6-minor disk has room for. */
	for (u32 i = 0; i < 8; i++) {
		mbr_entry(100 + 20 * i, 0, 0x83, 1, 5);
		mbr_entry(100 + 20 * i, 1, i < 7 ? 0x05 : 0, 20 * (i + 1), 2);
	}
	seq = log_seq();
	s = parse(6, &ret);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[5].size, 5);
	KTEST_EXPECT_TRUE(t, log_seq() - seq <= 2); /* the table's line and one message, once a disk */
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: partition 6: more partitions than the disk has minors (5): skipped, and any after it"));
	kfree(s);
	img[100 * SECT + 510] = 0; /* an EBR without its signature ends the chain */
	s = parse(16, &ret);
	KTEST_EXPECT_EQ(t, s->parts[5].size, 0);
	kfree(s);
}

/* A link past the disk's end ends its chain: the primaries and the logicals before it stay. */
static void mbr_extended_past_the_end_keeps_the_good_ones(struct ktest *t)
{
	struct parsed_partitions *s;
	u32 seq = log_seq();
	int ret;

	mbr_entry(0, 0, 0x83, 64, 100);
	mbr_entry(0, 1, 0x05, 1024, 5000); /* reaches past the 2048-sector disk */
	mbr_entry(0, 2, 0x0f, 3000, 10);   /* starts past it */
	mbr_entry(1024, 0, 0x83, 1, 100);
	mbr_entry(1024, 1, 0x05, 1500, 2); /* inside the extended entry, past the disk */
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[1].size, 100);
	KTEST_EXPECT_EQ(t, s->parts[2].size, 2);
	KTEST_EXPECT_EQ(t, s->parts[3].size, 0);
	KTEST_EXPECT_EQ(t, s->parts[5].from, 1025);
	KTEST_EXPECT_EQ(t, s->parts[5].size, 100);
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: extended partition link to sector 2524, beyond the end of the disk: stopped"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: extended partition at sector 3000 unreadable (Input/output error): stopped"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: tp3: sectors 3000+2 beyond the end of the disk (2048): skipped"));
	kfree(s);
}

/* Two extended entries: the second chain's logicals number on from the first's, as Linux. */
static void mbr_two_extended_chains_number_on(struct ktest *t)
{
	struct parsed_partitions *s;
	int ret;

	mbr_entry(0, 0, 0x05, 100, 400);
	mbr_entry(0, 1, 0x05, 600, 400);
	mbr_entry(100, 0, 0x83, 1, 10);
	mbr_entry(100, 1, 0x05, 50, 2);
	mbr_entry(150, 0, 0x83, 1, 10);
	mbr_entry(600, 0, 0x83, 1, 20);
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[5].from, 101);
	KTEST_EXPECT_EQ(t, s->parts[6].from, 151);
	KTEST_EXPECT_EQ(t, s->parts[7].from, 601);
	KTEST_EXPECT_EQ(t, s->parts[7].size, 20);
	KTEST_EXPECT_STREQ(t, s->line, " tp: tp1 < tp5 tp6 > tp2 < tp7 >");
	kfree(s);
}

/* A GPT of n entries at LBA 2 (first usable 34, last usable 2014), backup at the end. */
static void gpt_write_header(u64 lba, u64 alt, u64 entries_lba, u32 n, u32 ecrc)
{
	u8 *h = img + lba * SECT;

	memset(h, 0, SECT);
	memcpy(h, "EFI PART", 8);
	put_le32(h + 8, 0x10000);
	put_le32(h + 12, 92);
	put_le64(h + 24, lba);
	put_le64(h + 32, alt);
	put_le64(h + 40, 34);
	put_le64(h + 48, IMG_SECTORS - 34);
	put_le64(h + 72, entries_lba);
	put_le32(h + 80, n);
	put_le32(h + 84, 128);
	put_le32(h + 88, ecrc);
	put_le32(h + 16, crc32(h, 92));
}

static void gpt_entry(int i, u64 first, u64 last)
{
	u8 *e = img + 2 * SECT + 128 * i;

	memset(e, 0, 128);
	e[0] = 0xaf; /* a non-zero type GUID */
	put_le64(e + 32, first);
	put_le64(e + 40, last);
}

static void gpt_finish(u32 n)
{
	u32 ecrc = crc32(img + 2 * SECT, n * 128);

	memcpy(img + (IMG_SECTORS - 33) * SECT, img + 2 * SECT, 32 * SECT);
	gpt_write_header(1, IMG_SECTORS - 1, 2, n, ecrc);
	gpt_write_header(IMG_SECTORS - 1, 1, IMG_SECTORS - 33, n, ecrc);
	mbr_entry(0, 0, 0xee, 1, IMG_SECTORS - 1);
}

static void gpt_good_and_backup(struct ktest *t)
{
	struct parsed_partitions *s;
	u32 seq = log_seq();
	int ret;

	gpt_entry(0, 34, 533);
	gpt_entry(2, 600, 699); /* entry 3: partition 3, as Linux numbers them */
	gpt_finish(128);
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[1].from, 34);
	KTEST_EXPECT_EQ(t, s->parts[1].size, 500);
	KTEST_EXPECT_EQ(t, s->parts[2].size, 0);
	KTEST_EXPECT_EQ(t, s->parts[3].size, 100);
	KTEST_EXPECT_STREQ(t, s->line, " tp: tp1 tp3");
	kfree(s);
	img[SECT + 40] ^= 1; /* the primary header's CRC no longer holds */
	s = parse(16, &ret);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[3].size, 100);
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: GPT: primary header at sector 1: header CRC mismatch"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "Primary GPT is invalid, using alternate GPT."));
	kfree(s);
	img[(IMG_SECTORS - 33) * SECT + 33] ^= 1; /* and the backup's entries are damaged */
	s = parse(16, &ret);
	KTEST_EXPECT_EQ(t, ret, 0); /* the protective MBR keeps msdos out too */
	for (int n = 1; n < PARSED_MAX_PARTS; n++)
		KTEST_EXPECT_EQ(t, s->parts[n].size, 0);
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: GPT: partition entries CRC mismatch"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: GPT: no valid table: partitions ignored"));
	kfree(s);
}

static int gpt_header_refused(struct ktest *t, int field, u64 value, const char *why)
{
	struct parsed_partitions *s;
	u32 seq = log_seq();
	u8 *h = img + SECT;
	int ret, parts = 0;

	gpt_entry(0, 34, 533);
	gpt_finish(128);
	if (field == 12 || field == 80 || field == 84)
		put_le32(h + field, (u32)value);
	else
		put_le64(h + field, value);
	put_le32(h + 16, 0);
	put_le32(h + 16, crc32(h, field == 12 && value <= SECT && value >= 92 ? value : 92));
	memset(img + (IMG_SECTORS - 1) * SECT, 0, SECT); /* no backup to fall back on */
	s = parse(16, &ret);
	for (int n = 1; s && n < PARSED_MAX_PARTS; n++)
		parts += s->parts[n].size != 0;
	kfree(s);
	if (!log_search(seq, why))
		ktest_fail(t, __FILE__, __LINE__, "no message '%s' for field %d", why, field);
	return parts;
}

/* No memory for the entries is an error of its own: not a bad primary, no backup used. */
static void gpt_no_memory_is_not_a_bad_table(struct ktest *t)
{
	struct parsed_partitions *s = kzalloc(sizeof(*s));
	u32 seq = log_seq();
	int ret;

	KTEST_ASSERT_TRUE(t, s);
	gpt_entry(0, 34, 533);
	gpt_finish(128);
	init_state(s, 16);
	kmalloc_fail_nth(2); /* efi_partition's sector, then its entries: the entries fail */
	ret = check_partition(s);
	kmalloc_fail_nth(0);
	KTEST_EXPECT_EQ(t, ret, -ENOMEM);
	KTEST_EXPECT_EQ(t, s->parts[1].size, 0);
	KTEST_EXPECT_FALSE(t, log_search(seq, "Primary GPT is invalid"));
	KTEST_EXPECT_TRUE(t, log_search(seq, " tp: unable to read partition table: Cannot allocate memory"));
	kfree(s);
}

static void gpt_hostile_headers(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 12, 0xffffffff, "header size out of range"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 12, 12, "header size out of range"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 24, 5, "header in the wrong sector"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 48, IMG_SECTORS, "usable sectors beyond the disk"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 40, IMG_SECTORS - 10, "usable sectors beyond the disk"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 84, 8, "entry size is not 128"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 80, 129, "more than 128 entries"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 80, 0xffffffff, "more than 128 entries"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 72, IMG_SECTORS - 2, "entries beyond the disk"), 0);
	KTEST_EXPECT_EQ(t, gpt_header_refused(t, 72, ~0ull, "entries beyond the disk"), 0);
}

static void gpt_128_entries_on_a_16_minor_disk(struct ktest *t)
{
	struct parsed_partitions *s;
	u32 seq = log_seq();
	int ret;

	for (int i = 0; i < 128; i++)
		gpt_entry(i, 34 + 10 * (u64)i, 34 + 10 * (u64)i + 9);
	gpt_entry(1, 20, 40); /* before the first usable sector */
	gpt_finish(128);
	s = parse(16, &ret);
	KTEST_ASSERT_TRUE(t, s);
	KTEST_EXPECT_EQ(t, ret, 1);
	KTEST_EXPECT_EQ(t, s->parts[15].size, 10);
	KTEST_EXPECT_EQ(t, s->parts[2].size, 0);
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: GPT: entry 2 outside the usable sectors: skipped"));
	KTEST_EXPECT_TRUE(t, log_seq() - seq <= 3); /* the table's line, entry 2's, and one for the minors */
	KTEST_EXPECT_TRUE(t, log_search(seq, "tp: partition 16: more partitions than the disk has minors (15): skipped"));
	kfree(s);
}

static u32 rnd_state = 12345;

static u32 rnd(void)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return rnd_state >> 4;
}

/* What a parser hands back is always inside the disk, numbered within limit, disjoint (but for extended containers). */
static void check_invariants(struct ktest *t, struct parsed_partitions *s, int limit)
{
	for (int n = 1; n < PARSED_MAX_PARTS; n++) {
		if (!s->parts[n].size)
			continue;
		KTEST_EXPECT_TRUE(t, n < limit);
		KTEST_EXPECT_TRUE(t, s->parts[n].from + s->parts[n].size <= IMG_SECTORS);
		for (int m = 1; m < n && !s->parts[n].container; m++)
			KTEST_EXPECT_TRUE(t, !s->parts[m].size || s->parts[m].container ||
						     s->parts[m].from + s->parts[m].size <= s->parts[n].from ||
						     s->parts[n].from + s->parts[n].size <= s->parts[m].from);
	}
}

/* Random MBR/EBR chains and GPTs with valid CRCs over random fields: no crash, no overread. */
static void mutated_tables_never_crash(struct ktest *t)
{
	struct parsed_partitions *s = kzalloc(sizeof(*s));
	static const u8 types[] = { 0, 0x83, 0x05, 0x0f, 0x85, 0xee };

	KTEST_ASSERT_TRUE(t, s);
	for (int iter = 0; iter < 3000 && !t->failures; iter++) {
		int limit = 2 + (int)(rnd() % 70);

		memset(img, 0, 40 * SECT);
		memset(img + (IMG_SECTORS - 40) * SECT, 0, 40 * SECT);
		if (iter % 2) {
			for (int e = 0; e < 40; e++)
				mbr_entry(rnd() % 40, (int)(rnd() % 4), types[rnd() % 6],
					  rnd() % 3 ? rnd() % 64 : rnd(), rnd() % 3 ? rnd() % 3000 : rnd());
		} else {
			for (int i = 0; i < 128; i++)
				gpt_entry(i, rnd() % 2 ? rnd() % 2100 : rnd(), rnd() % 2100);
			gpt_finish(rnd() % 4 ? 128 : rnd() % 300);
			put_le64(img + SECT + 8 * (3 + rnd() % 4), rnd() % 4 ? rnd() % 2100 : rnd());
			put_le32(img + SECT + 16, 0);
			put_le32(img + SECT + 16, crc32(img + SECT, 92));
		}
		init_state(s, limit);
		if (check_partition(s) > 0)
			check_invariants(t, s, limit);
	}
	kfree(s);
}

/* ---- partitions as kobjects below a disk ---- */

static int mem_submit(struct gendisk *disk, struct request *rq)
{
	u8 *at = img + rq->sector * SECT;

	if (rq->op == REQ_OP_READ)
		memcpy(rq->buffer, at, rq->nr_sectors * SECT);
	else if (rq->op == REQ_OP_WRITE)
		memcpy(at, rq->buffer, rq->nr_sectors * SECT);
	blk_end_request(rq, 0);
	return 0;
}

static const struct block_device_operations mem_fops = { .submit = mem_submit };

static struct gendisk *mem_disk(void)
{
	struct gendisk *d = alloc_disk();

	if (!d)
		return NULL;
	strscpy(d->disk_name, "tpd", sizeof(d->disk_name));
	d->major = 241;
	d->minors = 16;
	d->fops = &mem_fops;
	set_capacity(d, IMG_SECTORS);
	return d;
}

static void tpd_dev_release(struct device *dev)
{
	kfree(dev);
}

/* A partition's events name its disk's device, as 2.6.10's block_hotplug. */
static void partitions_in_sysfs_with_events(struct ktest *t)
{
	struct gendisk *d = mem_disk();
	struct device *dev = kzalloc(sizeof(*dev));
	struct block_device b;
	struct t_events e;
	char buf[160], sect[SECT];

	KTEST_ASSERT_TRUE(t, d && dev);
	strscpy(dev->bus_id, "tpdev", BUS_ID_SIZE);
	dev->release = tpd_dev_release;
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	d->driverfs_dev = dev;
	mbr_entry(0, 0, 0x83, 64, 512);
	mbr_entry(0, 2, 0x83, 600, 100);
	t_events_start(&e);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	KTEST_EXPECT_EQ(t, e.n, 3); /* the disk, then tpd1 and tpd3 */
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 1, "ACTION=add|DEVPATH=/class/block/tpd/tpd1|SUBSYSTEM=block|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 2, "|PHYSDEVPATH=/devices/tpdev|MAJOR=241|MINOR=3|"
						"DEVNAME=tpd3|DEVTYPE=partition|PARTN=3|"));
	t_cat("/sys/class/block/tpd/tpd3/start", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "600\n");
	t_cat("/sys/class/block/tpd3/size", buf, sizeof(buf)); /* through the class's link */
	KTEST_EXPECT_STREQ(t, buf, "100\n");
	t_cat("/sys/class/block/tpd/tpd3/dev", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "241:3\n");
	t_cat("/sys/class/block/tpd/tpd3/partition", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "3\n");
	t_readlink("/sys/class/block/tpd1", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "tpd/tpd1");
	/* I/O on a partition: moved by its start, bounded by its size, counted. */
	KTEST_ASSERT_EQ(t, blkdev_get_by_name("tpd3", &b), 0);
	memset(sect, 'x', SECT);
	KTEST_EXPECT_EQ(t, bdev_rw(&b, REQ_OP_WRITE, 99, 1, sect), 0);
	KTEST_EXPECT_EQ(t, img[699 * SECT], 'x');
	KTEST_EXPECT_EQ(t, bdev_rw(&b, REQ_OP_WRITE, 100, 1, sect), -EINVAL);
	KTEST_EXPECT_EQ(t, bdev_rw(&b, REQ_OP_READ, 99, 2, sect), -EINVAL);
	KTEST_EXPECT_EQ(t, bdev_rw(&b, REQ_OP_READ, ~0ull, 1, sect), -EINVAL);
	t_cat("/sys/class/block/tpd3/stat", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "       0        0        1        1\n");
	/* Held (as by an open file): re-reading is refused; released: allowed. */
	KTEST_EXPECT_EQ(t, rescan_partitions(d), -EBUSY);
	blkdev_put(&b);
	mbr_entry(0, 2, 0, 0, 0);
	KTEST_EXPECT_EQ(t, rescan_partitions(d), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/block/tpd3"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/block/tpd/tpd1/stat"), 0);
	KTEST_EXPECT_EQ(t, blkdev_get_by_name("tpd3", &b), -ENODEV);
	del_gendisk(d); /* the partitions go first */
	KTEST_EXPECT_TRUE(t, t_event_has(&e, e.n - 2, "ACTION=remove|DEVPATH=/class/block/tpd/tpd1|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, e.n - 2, "|PHYSDEVPATH=/devices/tpdev|MAJOR=241|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, e.n - 1, "ACTION=remove|DEVPATH=/class/block/tpd|"));
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/block/tpd1"), -ENOENT);
	t_events_stop(&e);
	put_disk(d);
	device_unregister(dev);
}

static bool block_here;

static int pt_sysfs_init(struct ktest *t)
{
	block_here = false;
	if (block_class.subsys.kobj.state != KOBJ_STATE_ADDED) {
		if (genhd_init())
			return -1;
		block_here = true;
	}
	return pt_init(t);
}

static void pt_sysfs_exit(struct ktest *t)
{
	pt_exit(t);
	if (block_here) {
		kset_unregister(&block_subsys);
		class_unregister(&block_class);
	}
}

static const struct ktest_case partition_cases[] = {
	KTEST_CASE(mbr_primaries_and_logicals),
	KTEST_CASE(mbr_refuses_what_cannot_be),
	KTEST_CASE(mbr_extended_loops_and_limits),
	KTEST_CASE(mbr_extended_past_the_end_keeps_the_good_ones),
	KTEST_CASE(mbr_two_extended_chains_number_on),
	KTEST_CASE(gpt_good_and_backup),
	KTEST_CASE(gpt_no_memory_is_not_a_bad_table),
	KTEST_CASE(gpt_hostile_headers),
	KTEST_CASE(gpt_128_entries_on_a_16_minor_disk),
	KTEST_CASE(mutated_tables_never_crash),
	KTEST_CASE(partitions_in_sysfs_with_events),
	KTEST_END,
};

static const struct ktest_suite partition_suite = {
	.name = "partition",
	.cases = partition_cases,
	.init = pt_sysfs_init,
	.exit = pt_sysfs_exit,
};
KTEST_SUITE(partition_suite);
