/*
 * blk_async_test.c: blk_submit with a driver that completes later, as an
 * interrupt would: each request ends exactly once, in any order, a full
 * queue makes the submitter wait, errors reach only the requests they hit,
 * and a disk removed under a waiting submitter fails it. Host only: the
 * "interrupt" is the shim's idle hook, run where the kernel would halt.
 */
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/init.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#ifdef KOBOLD_HOST

#define NR_RQS 12
#define HELD_MAX 16

extern void (*host_idle_hook)(void); /* tests/host/shim.c */

static struct {
	struct gendisk *disk;
	struct request *held[HELD_MAX]; /* accepted, not yet completed */
	unsigned int nr_held, most_held, calls;
	u64 bad_sector;	     /* completes with -EIO; ~0: none */
	bool remove_on_idle; /* the "interrupt" is a hot-remove */
} drv;

static struct request rqs[NR_RQS];
static bool registered_here;
static int ends[NR_RQS];

static int held_submit(struct gendisk *disk, struct request *rq)
{
	drv.calls++;
	drv.held[drv.nr_held++] = rq;
	drv.most_held = max(drv.most_held, drv.nr_held);
	return 0;
}

static const struct block_device_operations held_fops = { .submit = held_submit };

/* Fails what the device held, as virtio_blk's remove does after its reset. */
static void hot_remove(void)
{
	del_gendisk(drv.disk);
	while (drv.nr_held)
		blk_end_request(drv.held[--drv.nr_held], -ENODEV);
}

/* One interrupt: the newest request completes first, so the order is not the submitter's. */
static void idle(void)
{
	struct request *rq;

	if (drv.remove_on_idle) {
		hot_remove();
		return;
	}
	if (!drv.nr_held)
		return;
	rq = drv.held[--drv.nr_held];
	blk_end_request(rq, rq->sector == drv.bad_sector ? -EIO : 0);
}

static void count_end(struct request *rq)
{
	ends[rq - rqs]++;
}

static int async_init(struct ktest *t)
{
	memset(&drv, 0, sizeof(drv));
	memset(rqs, 0, sizeof(rqs));
	memset(ends, 0, sizeof(ends));
	drv.bad_sector = ~0ull;
	registered_here = false;
	if (block_class.subsys.kobj.state != KOBJ_STATE_ADDED) {
		if (genhd_init())
			return -1;
		registered_here = true;
	}
	drv.disk = alloc_disk();
	if (!drv.disk)
		return -1;
	strscpy(drv.disk->disk_name, "held0", sizeof(drv.disk->disk_name));
	drv.disk->major = 241;
	drv.disk->fops = &held_fops;
	drv.disk->queue_depth = 4;
	set_capacity(drv.disk, 1000);
	host_idle_hook = idle;
	return add_disk(drv.disk);
}

static void async_exit(struct ktest *t)
{
	host_idle_hook = NULL;
	if (drv.disk && drv.disk->registered)
		del_gendisk(drv.disk);
	put_disk(drv.disk);
	if (registered_here) {
		kset_unregister(&block_subsys);
		class_unregister(&block_class);
	}
}

static void submit_all(u8 *buf)
{
	for (int i = 0; i < NR_RQS; i++) {
		rqs[i] = (struct request){ .op = REQ_OP_READ, .disk = drv.disk, .sector = (u64)i, .nr_sectors = 1, .buffer = buf, .end_io = count_end };
		blk_submit(&rqs[i]);
	}
}

static void drain(void)
{
	for (int i = 0; i < NR_RQS; i++)
		blk_wait(&rqs[i]);
}

static void each_request_ends_once_in_any_order(struct ktest *t)
{
	u8 buf[SECTOR_SIZE];

	submit_all(buf);
	drain();
	for (int i = 0; i < NR_RQS; i++) {
		KTEST_EXPECT_EQ(t, ends[i], 1);
		KTEST_EXPECT_EQ(t, rqs[i].error, 0);
	}
	KTEST_EXPECT_EQ(t, drv.calls, NR_RQS);
	KTEST_EXPECT_EQ(t, drv.disk->stats.ios[0], NR_RQS);
	KTEST_EXPECT_EQ(t, drv.disk->stats.in_flight, 0);
}

static void a_full_queue_makes_the_submitter_wait(struct ktest *t)
{
	u8 buf[SECTOR_SIZE];

	submit_all(buf);
	KTEST_EXPECT_EQ(t, drv.most_held, 4); /* never more than queue_depth at the driver */
	drain();
	KTEST_EXPECT_EQ(t, drv.nr_held, 0);
}

static void an_error_reaches_only_its_request(struct ktest *t)
{
	u8 buf[SECTOR_SIZE];

	drv.bad_sector = 5;
	submit_all(buf);
	drain();
	for (int i = 0; i < NR_RQS; i++) {
		KTEST_EXPECT_EQ(t, rqs[i].error, i == 5 ? -EIO : 0);
		KTEST_EXPECT_EQ(t, ends[i], 1);
	}
	KTEST_EXPECT_EQ(t, drv.disk->stats.errors, 1);
	KTEST_EXPECT_EQ(t, drv.disk->stats.ios[0], NR_RQS - 1);
}

static void removal_fails_held_and_waiting_requests(struct ktest *t)
{
	u8 buf[SECTOR_SIZE];

	drv.remove_on_idle = true; /* the submitter of the fifth finds the queue full */
	submit_all(buf);
	drain();
	for (int i = 0; i < NR_RQS; i++) {
		KTEST_EXPECT_EQ(t, rqs[i].error, -ENODEV);
		KTEST_EXPECT_EQ(t, ends[i], 1);
	}
	KTEST_EXPECT_EQ(t, drv.calls, 4); /* nothing reached the driver after the removal */
	KTEST_EXPECT_EQ(t, drv.disk->stats.in_flight, 0);
}

static const struct ktest_case blk_async_cases[] = {
	KTEST_CASE(each_request_ends_once_in_any_order),
	KTEST_CASE(a_full_queue_makes_the_submitter_wait),
	KTEST_CASE(an_error_reaches_only_its_request),
	KTEST_CASE(removal_fails_held_and_waiting_requests),
	KTEST_END,
};

static const struct ktest_suite blk_async_suite = {
	.name = "blk_async",
	.cases = blk_async_cases,
	.init = async_init,
	.exit = async_exit,
};
KTEST_SUITE(blk_async_suite);

#endif /* KOBOLD_HOST */
