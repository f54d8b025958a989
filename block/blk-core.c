/*
 * blk-core.c: requests. Every transfer is checked here, once, before a
 * driver sees it (past the end: -EINVAL; a write to a read-only disk:
 * -EROFS; a removed disk: -ENODEV), counted for the disk's stat file, and
 * handed to the driver without waiting for it (blk_submit), unless the
 * disk already has queue_depth requests in flight: then the submitter
 * sleeps on the disk's wait queue until one completes. blk_rw is the
 * synchronous form: it splits, submits and waits.
 */
#include <kobold/blkdev.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
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
	st->sectors[dir] += rq->nr_sectors;
	if (rq->merged) {
		st->merges[dir]++; /* its time is the request's it rode in */
		return;
	}
	st->ios[dir]++;
	st->ticks[dir] += (unsigned long)((now - rq->start_ns) / NS_PER_MS);
}

/* Completes rq: the counters, done, end_io (which may free rq), then the disk's waiters. */
static void end_request(struct request *rq, int error, bool accounted)
{
	struct gendisk *d = rq->disk;
	unsigned long flags;

	spin_lock_irqsave(&d->queue_lock, flags);
	rq->error = error;
	if (accounted)
		account_done(rq);
	rq->done = true;
	spin_unlock_irqrestore(&d->queue_lock, flags);
	if (rq->end_io)
		rq->end_io(rq);
	wake_up(&d->wait);
}

void blk_end_request(struct request *rq, int error)
{
	if (WARN(rq->done, "blk_end_request: request for %s ended twice", rq->disk->disk_name))
		return;
	end_request(rq, error, true);
}

void blk_wait(struct request *rq)
{
	blk_wait_event(rq->disk, rq->done);
}

void blk_commit(struct gendisk *d)
{
	if (d->fops->commit)
		d->fops->commit(d);
}

int blk_poll(struct gendisk *d)
{
	return d->fops->poll ? d->fops->poll(d) : 0;
}

void blk_poll_irq(struct gendisk *d, bool on)
{
	if (d->fops->poll_irq)
		d->fops->poll_irq(d, on);
}

/*
 * Linux 2.6's get_request_wait: sleeps while the disk's queue is full,
 * after announcing what was batched (else nothing would complete).
 */
static int get_request_wait(struct gendisk *d)
{
	blk_wait_event(d, d->dead || !d->queue_depth || d->stats.in_flight < d->queue_depth);
	return d->dead ? -ENODEV : 0;
}

void blk_submit(struct request *rq)
{
	struct gendisk *d = rq->disk;
	int err = blk_check(d, rq->op, rq->sector, rq->op == REQ_OP_FLUSH ? 0 : rq->nr_sectors);
	unsigned long flags;

	rq->done = false;
	rq->error = 0;
	rq->merged = false;
	if (!err)
		err = get_request_wait(d);
	if (err) {
		end_request(rq, err, false);
		goto out;
	}
	spin_lock_irqsave(&d->queue_lock, flags);
	account_start(rq);
	spin_unlock_irqrestore(&d->queue_lock, flags);
	err = d->fops->submit(d, rq);
	if (err && !rq->done)
		blk_end_request(rq, err); /* refused: it never reached the device */
out:
	if (err && rq->more && d)
		blk_commit(d); /* the batch before it must not wait for a request that never comes */
}

/* Requests blk_rw keeps on its stack: 1 MiB in 128 KiB pieces needs no allocation. */
#define BLK_RW_STACK_RQS 8

int blk_rw(struct gendisk *d, enum req_op op, u64 sector, u64 count, void *buf)
{
	struct request stack_rqs[BLK_RW_STACK_RQS], *rqs = stack_rqs;
	u32 n, i, max;
	int err = blk_check(d, op, sector, count);

	if (err)
		return err;
	max = d->max_sectors ? d->max_sectors : (u32)min(count, (u64)UINT32_MAX);
	n = op == REQ_OP_FLUSH ? 1 : (u32)((count + max - 1) / max);
	if (n > BLK_RW_STACK_RQS)
		rqs = kmalloc(n * sizeof(*rqs));
	if (!rqs)
		return -ENOMEM;
	memset(rqs, 0, n * sizeof(*rqs));
	for (i = 0; i < n; i++) {
		struct request *rq = &rqs[i];
		u64 done = (u64)i * max;

		rq->op = op;
		rq->disk = d;
		rq->sector = sector + done;
		rq->nr_sectors = op == REQ_OP_FLUSH ? 0 : (u32)min(count - done, (u64)max);
		rq->buffer = buf ? (u8 *)buf + done * SECTOR_SIZE : NULL;
		rq->more = i + 1 < n; /* one notification for the pieces */
		blk_submit(rq);
		if (rq->done && rq->error)
			break;
	}
	n = i < n ? i + 1 : n; /* after a refusal, wait only for what went out */
	for (i = 0; i < n; i++) {
		blk_wait(&rqs[i]);
		if (rqs[i].error && !err)
			err = rqs[i].error;
	}
	if (rqs != stack_rqs)
		kfree(rqs);
	return err;
}
