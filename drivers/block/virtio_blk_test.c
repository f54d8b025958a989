/*
 * virtio_blk_test.c: `test=virtblk_inflight`: rmmod virtio_blk while reads
 * are in flight on vda. Every request must end exactly once, with 0 (it
 * completed before the reset) or -ENODEV (the reset took it), and the
 * driver's memory must all come back. Kernel only; with no virtio disk
 * (test=all's boot) there is nothing to remove and the case passes.
 * tests/test_asyncblk.py runs it with QEMU throttling the disk, so that the
 * reads are still in the device when the module goes.
 */
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/ktest.h>
#include <kobold/module.h>
#include <kobold/slab.h>

#define NR_INFLIGHT 32
#define INFLIGHT_SECTORS 8

struct inflight {
	struct request rqs[NR_INFLIGHT];
	int ends[NR_INFLIGHT];
	u8 buf[NR_INFLIGHT][INFLIGHT_SECTORS * SECTOR_SIZE];
};

static void inflight_end_io(struct request *rq)
{
	(*(int *)rq->end_io_data)++;
}

static void submit_reads(struct inflight *f, struct gendisk *d)
{
	for (int i = 0; i < NR_INFLIGHT; i++) {
		f->rqs[i] = (struct request){ .op = REQ_OP_READ, .disk = d, .sector = (u64)i * INFLIGHT_SECTORS, .nr_sectors = INFLIGHT_SECTORS, .buffer = f->buf[i], .end_io = inflight_end_io, .end_io_data = &f->ends[i] };
		blk_submit(&f->rqs[i]);
	}
}

static void check_ends(struct ktest *t, struct inflight *f, int *taken)
{
	for (int i = 0; i < NR_INFLIGHT; i++) {
		KTEST_EXPECT_TRUE(t, f->rqs[i].done);
		KTEST_EXPECT_EQ(t, f->ends[i], 1);
		KTEST_EXPECT_TRUE(t, f->rqs[i].error == 0 || f->rqs[i].error == -ENODEV);
		*taken += f->rqs[i].error == -ENODEV;
	}
}

static void rmmod_with_reads_in_flight(struct ktest *t)
{
	struct inflight *f = kzalloc(sizeof(*f));
	struct gendisk *d;
	unsigned long flags;
	int taken = 0, err;

	KTEST_ASSERT_TRUE(t, f != NULL);
	KTEST_ASSERT_EQ(t, module_load("virtio_blk", 0, NULL), 0);
	d = get_gendisk_by_name("vda");
	if (d && d->capacity >= NR_INFLIGHT * INFLIGHT_SECTORS) {
		submit_reads(f, d);
		KTEST_EXPECT_TRUE(t, d->stats.in_flight > 0);
		/*
		 * With interrupts off nothing the device finishes is collected
		 * first: the reset's own drain leaves it in the ring, and the
		 * driver must end it (-ENODEV) with what it never sent.
		 */
		flags = local_irq_save();
		err = module_unload("virtio_blk");
		local_irq_restore(flags);
		KTEST_EXPECT_EQ(t, err, 0);
		check_ends(t, f, &taken); /* no waiting: the removal ended them all */
		ktest_print("    # %d of %d reads ended by the removal\n", taken, NR_INFLIGHT);
		KTEST_EXPECT_TRUE(t, taken > 0);
		KTEST_EXPECT_EQ(t, d->stats.in_flight, 0);
		KTEST_EXPECT_EQ(t, blk_check(d, REQ_OP_READ, 0, 1), -ENODEV);
		put_disk(d); /* the disk's memory goes with it */
	} else {
		put_disk(d);
		KTEST_EXPECT_EQ(t, module_unload("virtio_blk"), 0);
	}
	kfree(f);
}

static const struct ktest_case virtblk_inflight_cases[] = {
	KTEST_CASE(rmmod_with_reads_in_flight),
	KTEST_END,
};

static const struct ktest_suite virtblk_inflight_suite = {
	.name = "virtblk_inflight",
	.cases = virtblk_inflight_cases,
};
KTEST_SUITE(virtblk_inflight_suite);
