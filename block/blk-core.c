/*
 * blk-core.c: requests. Every transfer is checked here, once, before a
 * driver sees it (past the end: -EINVAL; a write to a read-only disk:
 * -EROFS; a removed disk: -ENODEV), split into requests the driver can take,
 * sent all at once, and counted for the disk's stat file.
 */
#include <kobold/blkdev.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/wait.h>

#define NS_PER_MS 1000000ULL

int blk_check(struct gendisk *d, enum req_op op, u64 sector, u64 count)
{
	if (!d || d->dead)
		return -ENODEV;
	if (op == REQ_OP_WRITE && d->read_only)
		return -EROFS;
	if (op == REQ_OP_FLUSH)
		return 0;
	if (count == 0 || sector >= d->capacity || count > d->capacity - sector)
		return -EINVAL;
	return 0;
}

/* io_ticks and time_in_queue advance by the time since the last change. */
static void account_busy(struct disk_stats *st, u64 now)
{
	u64 ms_busy = (now - st->busy_since_ns) / NS_PER_MS;

	if (st->in_flight) {
		st->io_ticks += (unsigned long)ms_busy;
		st->time_in_queue += (unsigned long)(ms_busy * st->in_flight);
	}
	if (ms_busy || !st->in_flight)
		st->busy_since_ns = now;
}

static void account_start(struct request *rq)
{
	struct disk_stats *st = &rq->disk->stats;

	rq->start_ns = ktime_get_ns();
	account_busy(st, rq->start_ns);
	st->in_flight++;
}

static void account_done(struct request *rq)
{
	struct disk_stats *st = &rq->disk->stats;
	u64 now = ktime_get_ns();
	int dir = rq->op == REQ_OP_WRITE;

	account_busy(st, now);
	st->in_flight--;
	if (rq->error) {
		st->errors++;
		return;
	}
	if (rq->op == REQ_OP_FLUSH) {
		st->flushes++;
		return;
	}
	st->ios[dir]++;
	st->sectors[dir] += rq->nr_sectors;
	st->ticks[dir] += (unsigned long)((now - rq->start_ns) / NS_PER_MS);
}

void blk_end_request(struct request *rq, int error)
{
	if (WARN(rq->done, "blk_end_request: request for %s ended twice", rq->disk->disk_name))
		return;
	rq->error = error;
	account_done(rq);
	rq->done = true;
	if (rq->end_io)
		rq->end_io(rq);
}

void blk_wait(struct request *rq)
{
	wait_for_flag(&rq->done);
}

static int submit(struct request *rq)
{
	int err;

	account_start(rq);
	err = rq->disk->fops->submit(rq->disk, rq);
	if (err && !rq->done)
		blk_end_request(rq, err);	/* refused: it never reached the device */
	return err;
}

int blk_rw(struct gendisk *d, enum req_op op, u64 sector, u64 count, void *buf)
{
	struct request *rqs;
	u32 n, i, max;
	int err = blk_check(d, op, sector, count);

	if (err)
		return err;
	max = d->max_sectors ? d->max_sectors : (u32)min(count, (u64)UINT32_MAX);
	n = op == REQ_OP_FLUSH ? 1 : (u32)((count + max - 1) / max);
	rqs = kzalloc(n * sizeof(*rqs));
	if (!rqs)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct request *rq = &rqs[i];
		u64 done = (u64)i * max;

		rq->op = op;
		rq->disk = d;
		rq->sector = sector + done;
		rq->nr_sectors = op == REQ_OP_FLUSH ? 0 : (u32)min(count - done, (u64)max);
		rq->buffer = buf ? (u8 *)buf + done * SECTOR_SIZE : NULL;
		if (submit(rq))
			break;
	}
	n = i < n ? i + 1 : n;	/* after a refusal, wait only for what went out */
	for (i = 0; i < n; i++) {
		blk_wait(&rqs[i]);
		if (rqs[i].error && !err)
			err = rqs[i].error;
	}
	kfree(rqs);
	return err;
}
