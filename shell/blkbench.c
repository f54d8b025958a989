/*
 * blkbench.c: `blk bench DEV ... [--depth N] [--verify] [--refill]`: reads
 * or writes through the asynchronous block API with N blocks in flight,
 * each in a buffer of its own (a block larger than the disk's max_sectors
 * goes as several requests, as Linux splits a direct read). --verify
 * writes, or checks, a pattern that names each sector (32-bit word i of
 * sector s holds s * 128 + i); --refill zeros each block before writing it,
 * as `dd if=/dev/zero` makes its data. Ctrl-C stops submitting and waits
 * for what is in flight. Requests go out in batches: each is submitted
 * with rq->more, and the device is told once, when the bench has to wait
 * (blk_commit). With the disk's queue/io_poll set it polls for
 * completions instead of sleeping.
 */
#include "blkbench.h"

#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/shell.h>
#include <kobold/signal.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define BENCH_MAX_BS_KIB 4096
#define BENCH_MAX_DEPTH 128
#define WORDS_PER_SECTOR (SECTOR_SIZE / 4)

struct bench_slot {
	struct request *parts; /* the block's requests */
	u8 *buf;
	u64 sector;
	volatile unsigned int pending; /* parts in flight */
	struct bench *bench;
	bool unchecked; /* a read whose data --verify has not looked at yet */
};

struct bench {
	struct gendisk *disk;
	bool write, rnd, verify, refill;
	u64 bs_kib, total_mib, bs; /* bs in sectors */
	u64 start, capacity;	   /* a partition's place on the disk, or the whole disk */
	const char *name;	   /* "vda", "vda1" */
	unsigned int depth;
	u32 part_sectors; /* the disk's max_sectors, or the whole block */
	unsigned int nr_parts;
	struct bench_slot *slots;
	volatile unsigned int in_flight;
	volatile int err; /* the first error a request ended with */
	u64 bad_sector;	  /* where --verify found other data */
	bool mismatch;
};

static u32 bench_rand(u32 *state)
{
	*state = *state * 1103515245u + 12345u; /* an LCG is random enough for offsets */
	return *state >> 8;
}

static void pattern_fill(u32 *p, u64 sector, u64 count)
{
	for (u64 s = 0; s < count; s++)
		for (u32 i = 0; i < WORDS_PER_SECTOR; i++)
			*p++ = (u32)((sector + s) * WORDS_PER_SECTOR + i);
}

/* The first sector of the slot's data that does not hold its pattern. */
static bool pattern_check(struct bench *b, struct bench_slot *slot)
{
	const u32 *p = (const u32 *)slot->buf;

	for (u64 s = 0; s < b->bs; s++)
		for (u32 i = 0; i < WORDS_PER_SECTOR; i++)
			if (*p++ != (u32)((slot->sector + s) * WORDS_PER_SECTOR + i)) {
				b->bad_sector = slot->sector + s;
				return false;
			}
	return true;
}

/* From the disk's interrupt: a part is done; with the last, the slot is free again. */
static void bench_end_io(struct request *rq)
{
	struct bench_slot *slot = rq->end_io_data;
	struct bench *b = slot->bench;

	if (rq->error && !b->err)
		b->err = rq->error;
	if (--slot->pending)
		return;
	slot->unchecked = !b->err && b->verify && !b->write;
	b->in_flight--;
}

/* Until a slot is free: the batch goes to the device, then we sleep or poll. */
static int wait_for_slot(struct bench *b)
{
	struct gendisk *d = b->disk;

	if (b->in_flight < b->depth)
		return 0;
	blk_commit(d);
	if (!blk_polling(d))
		return wait_event_interruptible(d->wait, b->in_flight < b->depth);
	blk_poll_irq(d, false);
	while (b->in_flight >= b->depth && !signal_pending())
		blk_poll(d);
	blk_poll_irq(d, true);
	return b->in_flight < b->depth ? 0 : -EINTR;
}

/* A free slot, waiting for a completion if all are in flight; checks its last read. */
static struct bench_slot *get_slot(struct bench *b, int *err)
{
	struct bench_slot *slot = NULL;

	*err = wait_for_slot(b);
	if (*err)
		return NULL;
	for (unsigned int i = 0; i < b->depth && !slot; i++)
		if (!b->slots[i].pending)
			slot = &b->slots[i];
	if (slot->unchecked && !pattern_check(b, slot))
		b->mismatch = true;
	slot->unchecked = false;
	return slot;
}

static void submit_one(struct bench *b, struct bench_slot *slot, u64 sector)
{
	unsigned long flags;

	if (b->write && b->verify)
		pattern_fill((u32 *)slot->buf, sector, b->bs);
	else if (b->write && b->refill)
		memset(slot->buf, 0, b->bs * SECTOR_SIZE);
	slot->sector = sector;
	slot->pending = b->nr_parts;
	flags = local_irq_save(); /* the interrupt's end_io decrements it */
	b->in_flight++;
	local_irq_restore(flags);
	for (unsigned int i = 0; i < b->nr_parts; i++) {
		struct request *rq = &slot->parts[i];
		u64 off = (u64)i * b->part_sectors;

		memset(rq, 0, sizeof(*rq));
		rq->op = b->write ? REQ_OP_WRITE : REQ_OP_READ;
		rq->disk = b->disk;
		rq->sector = b->start + sector + off;
		rq->nr_sectors = (u32)min(b->bs - off, (u64)b->part_sectors);
		rq->buffer = slot->buf + off * SECTOR_SIZE;
		rq->end_io = bench_end_io;
		rq->end_io_data = slot;
		rq->more = true; /* announced when we wait (wait_for_slot) */
		blk_submit(rq);
	}
}

/* Keeps depth requests in flight until ios have gone out, an error or Ctrl-C. */
static int bench_loop(struct bench *b, u64 ios)
{
	u64 span = b->capacity / b->bs, pos = 0;
	u32 seed = 12345;
	int err = 0;

	for (u64 i = 0; i < ios && !b->err && !b->mismatch; i++) {
		u64 block = b->rnd ? bench_rand(&seed) % span : pos++ % span;
		struct bench_slot *slot;

		if (signal_pending())
			err = -EINTR;
		slot = err ? NULL : get_slot(b, &err);
		if (!slot)
			break;
		submit_one(b, slot, block * b->bs);
	}
	blk_wait_event(b->disk, b->in_flight == 0); /* drain, even after Ctrl-C */
	for (unsigned int i = 0; i < b->depth; i++)
		if (b->slots[i].unchecked && !pattern_check(b, &b->slots[i]))
			b->mismatch = true;
	return err ? err : b->err;
}

/* A block's buffer in whole pages, page-aligned: see dd_buf_alloc in dd.c. */
static unsigned int buf_pages(struct bench *b)
{
	return (unsigned int)((b->bs * SECTOR_SIZE + PAGE_SIZE - 1) / PAGE_SIZE);
}

static int alloc_slots(struct bench *b)
{
	b->slots = kzalloc(b->depth * sizeof(*b->slots));
	if (!b->slots)
		return -ENOMEM;
	b->part_sectors = b->disk->max_sectors ? b->disk->max_sectors : (u32)b->bs;
	b->nr_parts = (unsigned int)((b->bs + b->part_sectors - 1) / b->part_sectors);
	for (unsigned int i = 0; i < b->depth; i++) {
		struct bench_slot *slot = &b->slots[i];

		slot->bench = b;
		slot->buf = alloc_pages(buf_pages(b));
		if (slot->buf)
			memset(slot->buf, 0, b->bs * SECTOR_SIZE);
		slot->parts = kzalloc(b->nr_parts * sizeof(*slot->parts));
		if (!slot->buf || !slot->parts)
			return -ENOMEM;
	}
	return 0;
}

static void free_slots(struct bench *b)
{
	for (unsigned int i = 0; b->slots && i < b->depth; i++) {
		if (b->slots[i].buf)
			free_pages(b->slots[i].buf, buf_pages(b));
		kfree(b->slots[i].parts);
	}
	kfree(b->slots);
}

static void report(struct bench *b, u64 ios, u64 ns)
{
	u64 bytes = ios * b->bs * SECTOR_SIZE;
	u64 kib_s = bytes * 1000000ULL / 1024 / (ns / 1000 ? ns / 1000 : 1);

	sh_printf("%s %s %s bs=%luK depth=%u: %llu bytes in %lu.%03lu ms, %lu.%02lu MiB/s, %lu IOPS\n",
		  b->name, b->write ? "write" : "read", b->rnd ? "rand" : "seq",
		  (unsigned long)b->bs_kib, b->depth, (unsigned long long)bytes,
		  (unsigned long)(ns / 1000000), (unsigned long)(ns / 1000 % 1000),
		  (unsigned long)(kib_s / 1024), (unsigned long)(kib_s % 1024 * 100 / 1024),
		  (unsigned long)(ios * 1000000000ULL / ns));
	if (b->verify)
		sh_printf("%s: %llu blocks %s the pattern\n", b->name,
			  (unsigned long long)ios, b->write ? "written with" : "checked against");
}

static int parse_num(const char *s, const char *what, u64 *v)
{
	unsigned long long x;

	if (!s || kstrtoull(s, 0, &x)) {
		sh_err("blk: invalid %s '%s'\n", what, s ? s : "");
		return -EINVAL;
	}
	*v = x;
	return 0;
}

static int usage(void)
{
	sh_err("usage: blk bench DEV [read|write] [seq|rand] [BS_KiB 1-%d] [TOTAL_MiB 1-4096] "
	       "[--depth 1-%d] [--verify] [--refill]\n",
	       BENCH_MAX_BS_KIB, BENCH_MAX_DEPTH);
	return -EINVAL;
}

/* The options, anywhere after DEV; the rest in their order. */
static int parse_options(struct bench *b, int *argc, char **argv)
{
	int n = 3;
	u64 depth = 1;

	for (int i = 3; i < *argc; i++) {
		if (!strcmp(argv[i], "--verify")) {
			b->verify = true;
		} else if (!strcmp(argv[i], "--refill")) {
			b->refill = true;
		} else if (!strcmp(argv[i], "--depth")) {
			const char *v = i + 1 < *argc ? argv[++i] : "";
			unsigned long long x;

			if (kstrtoull(v, 10, &x) || x < 1 || x > BENCH_MAX_DEPTH) {
				sh_err("blk: invalid depth '%s' (1-%d)\n", v, BENCH_MAX_DEPTH);
				return -EINVAL;
			}
			depth = x;
		} else if (!strncmp(argv[i], "--", 2)) {
			return usage();
		} else {
			argv[n++] = argv[i];
		}
	}
	b->depth = (unsigned int)depth;
	*argc = n;
	return 0;
}

static int parse_args(struct bench *b, int argc, char **argv)
{
	int i = 3;

	b->bs_kib = 64;
	b->total_mib = 4;
	if (parse_options(b, &argc, argv))
		return -EINVAL;
	if (i < argc && (!strcmp(argv[i], "read") || !strcmp(argv[i], "write")))
		b->write = !strcmp(argv[i++], "write");
	if (i < argc && (!strcmp(argv[i], "seq") || !strcmp(argv[i], "rand")))
		b->rnd = !strcmp(argv[i++], "rand");
	if (i < argc && parse_num(argv[i++], "block size", &b->bs_kib))
		return -EINVAL;
	if (i < argc && parse_num(argv[i++], "total", &b->total_mib))
		return -EINVAL;
	if (i < argc || b->bs_kib == 0 || b->bs_kib > BENCH_MAX_BS_KIB || b->total_mib == 0 ||
	    b->total_mib > 4096)
		return usage();
	if (b->refill && (!b->write || b->verify)) {
		sh_err("blk: --refill makes the data of writes; not with reads or --verify\n");
		return -EINVAL;
	}
	b->bs = b->bs_kib * 2;
	return 0;
}

static int bench_error(struct bench *b, int err)
{
	if (sh_interrupted(err))
		return 130; /* Ctrl-C: the shell says ^C */
	sh_err("blk: %s: %s\n", b->name, kstrerror(err));
	return 1;
}

int blk_bench(struct block_device *bdev, int argc, char **argv)
{
	struct bench b = {
		.disk = bdev->bd_disk,
		.start = bdev->bd_part ? bdev->bd_part->start_sect : 0,
		.capacity = bdev_nr_sectors(bdev),
		.name = bdev->bd_part ? kobject_name(&bdev->bd_part->kobj) : bdev->bd_disk->disk_name,
	};
	u64 ios, start, ns;
	int err;

	if (parse_args(&b, argc, argv))
		return 1;
	if (b.bs > b.capacity)
		return bench_error(&b, -EINVAL);
	ios = b.total_mib * 1024 / b.bs_kib;
	err = alloc_slots(&b);
	if (!err) {
		start = ktime_get_ns();
		err = bench_loop(&b, ios);
		ns = ktime_get_ns() - start;
	}
	free_slots(&b);
	if (!err && b.mismatch) {
		sh_err("blk: %s: sector %llu does not hold the pattern\n", b.name,
		       (unsigned long long)b.bad_sector);
		return 1;
	}
	if (err)
		return bench_error(&b, err);
	report(&b, ios, ns ? ns : 1);
	return 0;
}
