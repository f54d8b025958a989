/*
 * blk_aio_test.c: a block node's aio_read/aio_write (fs/block_dev.c): a
 * transfer goes out as max_sectors pieces through blk_submit and its kiocb
 * completes once, after the last piece, whatever their order; an error in
 * one piece is the kiocb's result; a piece the driver refuses stops the
 * rest; bad offsets and sizes are refused at once, without a completion.
 * Host only: the "interrupt" is the shim's idle hook.
 */
#include <kobold/aio.h>
#include <kobold/blkdev.h>
#include <kobold/genhd.h>
#include <kobold/errno.h>
#include <kobold/init.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#ifdef KOBOLD_HOST

#define AIO_HELD_MAX 32
#define AIO_MAX_SECTORS 8

extern void (*host_idle_hook)(void); /* tests/host/shim.c */
extern const struct file_operations def_blk_fops;

static struct {
	struct gendisk *disk;
	struct request *held[AIO_HELD_MAX];
	unsigned int nr_held, calls;
	u64 bad_sector;	     /* completes with -EIO; ~0: none */
	unsigned int refuse; /* the driver refuses its refuse-th call (1: the first); 0: none */
	bool end_at_once;    /* each piece ends inside submit, as an interrupt might */
	int completions;
	ssize_t res;
	struct block_device bdev; /* what open() puts in the file: the whole disk */
	struct file file;
	struct kiocb iocb;
	bool registered_here;
} aio;

static int aio_submit(struct gendisk *disk, struct request *rq)
{
	if (++aio.calls == aio.refuse)
		return -EIO;
	if (aio.end_at_once) {
		blk_end_request(rq, 0);
		return 0;
	}
	aio.held[aio.nr_held++] = rq;
	return 0;
}

static const struct block_device_operations aio_fops = { .submit = aio_submit };

/* One interrupt ends every held piece, the newest first. */
static void aio_idle(void)
{
	while (aio.nr_held) {
		struct request *rq = aio.held[--aio.nr_held];
		u64 end = rq->sector + rq->nr_sectors;

		blk_end_request(rq, aio.bad_sector >= rq->sector && aio.bad_sector < end ? -EIO : 0);
	}
}

static void aio_done(struct kiocb *iocb, ssize_t res)
{
	aio.completions++;
	aio.res = res;
}

static int aio_init(struct ktest *t)
{
	memset(&aio, 0, sizeof(aio));
	aio.bad_sector = ~0ull;
	if (block_class.subsys.kobj.state != KOBJ_STATE_ADDED) {
		if (genhd_init())
			return -1;
		aio.registered_here = true;
	}
	aio.disk = alloc_disk();
	if (!aio.disk)
		return -1;
	strscpy(aio.disk->disk_name, "aio0", sizeof(aio.disk->disk_name));
	aio.disk->major = 242;
	aio.disk->fops = &aio_fops;
	aio.disk->max_sectors = AIO_MAX_SECTORS;
	set_capacity(aio.disk, 1000);
	aio.bdev = (struct block_device){ .bd_disk = aio.disk };
	aio.file = (struct file){ .f_op = &def_blk_fops, .f_flags = O_RDWR, .private_data = &aio.bdev };
	aio.iocb = (struct kiocb){ .ki_filp = &aio.file, .ki_complete = aio_done };
	host_idle_hook = aio_idle;
	return add_disk(aio.disk);
}

static void aio_exit(struct ktest *t)
{
	host_idle_hook = NULL;
	if (aio.disk && aio.disk->registered)
		del_gendisk(aio.disk);
	put_disk(aio.disk);
	if (aio.registered_here) {
		kset_unregister(&block_subsys);
		class_unregister(&block_class);
	}
}

/* Runs the "interrupt" until the kiocb has completed (or nothing is held). */
static void aio_wait(void)
{
	while (!aio.completions && aio.nr_held)
		aio_idle();
}

static void a_read_goes_out_in_pieces_and_completes_once(struct ktest *t)
{
	u8 *buf = kmalloc(20 * SECTOR_SIZE);

	KTEST_ASSERT_TRUE(t, buf != NULL);
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, (char *)buf, 20 * SECTOR_SIZE, 40 * SECTOR_SIZE),
			-EIOCBQUEUED);
	KTEST_EXPECT_EQ(t, aio.completions, 0); /* nothing ends while it is submitted */
	KTEST_EXPECT_EQ(t, aio.calls, 3);	/* 8 + 8 + 4 sectors */
	KTEST_EXPECT_EQ(t, aio.held[2]->sector, 56);
	KTEST_EXPECT_EQ(t, aio.held[2]->nr_sectors, 4);
	KTEST_EXPECT_TRUE(t, aio.held[2]->buffer == buf + 16 * SECTOR_SIZE);
	aio_wait();
	KTEST_EXPECT_EQ(t, aio.completions, 1);
	KTEST_EXPECT_EQ(t, aio.res, 20 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, aio.disk->stats.in_flight, 0);
	kfree(buf);
}

/* More pieces than the kiocb holds: an array of their own, freed at the completion (ASan). */
static void many_pieces_take_an_array_of_their_own(struct ktest *t)
{
	u8 *buf = kmalloc(100 * SECTOR_SIZE);

	KTEST_ASSERT_TRUE(t, buf != NULL);
	KTEST_EXPECT_EQ(t, vfs_aio_write(&aio.iocb, (char *)buf, 100 * SECTOR_SIZE, 0),
			-EIOCBQUEUED);
	KTEST_EXPECT_EQ(t, aio.calls, 13);
	KTEST_EXPECT_TRUE(t, aio.iocb.ki_rqs != aio.iocb.ki_rq);
	aio_wait();
	KTEST_EXPECT_EQ(t, aio.completions, 1);
	KTEST_EXPECT_EQ(t, aio.res, 100 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, aio.disk->stats.ios[1], 13);
	kfree(buf);
}

/* The last piece ends before the submitter has looked at it: the kiocb completes after. */
static void pieces_that_end_during_the_submission(struct ktest *t)
{
	u8 *buf = kmalloc(100 * SECTOR_SIZE);

	KTEST_ASSERT_TRUE(t, buf != NULL);
	aio.end_at_once = true;
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, (char *)buf, 100 * SECTOR_SIZE, 0),
			-EIOCBQUEUED);
	KTEST_EXPECT_EQ(t, aio.calls, 13);
	KTEST_EXPECT_EQ(t, aio.completions, 1);
	KTEST_EXPECT_EQ(t, aio.res, 100 * SECTOR_SIZE);
	kfree(buf);
}

static void an_error_in_one_piece_is_the_result(struct ktest *t)
{
	u8 buf[20 * SECTOR_SIZE];

	aio.bad_sector = 9;
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, (char *)buf, sizeof(buf), 0), -EIOCBQUEUED);
	aio_wait();
	KTEST_EXPECT_EQ(t, aio.completions, 1);
	KTEST_EXPECT_EQ(t, aio.res, -EIO);
}

static void a_refused_piece_stops_the_rest(struct ktest *t)
{
	u8 buf[20 * SECTOR_SIZE];

	aio.refuse = 2;
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, (char *)buf, sizeof(buf), 0), -EIOCBQUEUED);
	KTEST_EXPECT_EQ(t, aio.calls, 2); /* the third never went out */
	aio_wait();
	KTEST_EXPECT_EQ(t, aio.completions, 1);
	KTEST_EXPECT_EQ(t, aio.res, -EIO);
	KTEST_EXPECT_EQ(t, aio.disk->stats.in_flight, 0);
}

static void bad_offsets_are_refused_at_once(struct ktest *t)
{
	char buf[2 * SECTOR_SIZE];

	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, buf, SECTOR_SIZE, 100), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, buf, 100, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, buf, SECTOR_SIZE, 1000 * SECTOR_SIZE), 0);
	KTEST_EXPECT_EQ(t, vfs_aio_write(&aio.iocb, buf, SECTOR_SIZE, 1000 * SECTOR_SIZE), -ENOSPC);
	aio.file.f_flags = O_RDONLY;
	KTEST_EXPECT_EQ(t, vfs_aio_write(&aio.iocb, buf, SECTOR_SIZE, 0), -EINVAL);
	KTEST_EXPECT_EQ(t, aio.calls, 0);
	KTEST_EXPECT_EQ(t, aio.completions, 0);
	/* The last sector: a read across the end is cut there. */
	aio.file.f_flags = O_RDWR;
	KTEST_EXPECT_EQ(t, vfs_aio_read(&aio.iocb, buf, sizeof(buf), 999 * SECTOR_SIZE),
			-EIOCBQUEUED);
	aio_wait();
	KTEST_EXPECT_EQ(t, aio.res, SECTOR_SIZE);
}

static const struct ktest_case blk_aio_cases[] = {
	KTEST_CASE(a_read_goes_out_in_pieces_and_completes_once),
	KTEST_CASE(many_pieces_take_an_array_of_their_own),
	KTEST_CASE(pieces_that_end_during_the_submission),
	KTEST_CASE(an_error_in_one_piece_is_the_result),
	KTEST_CASE(a_refused_piece_stops_the_rest),
	KTEST_CASE(bad_offsets_are_refused_at_once),
	KTEST_END,
};

static const struct ktest_suite blk_aio_suite = {
	.name = "blk_aio",
	.cases = blk_aio_cases,
	.init = aio_init,
	.exit = aio_exit,
};
KTEST_SUITE(blk_aio_suite);

#endif
