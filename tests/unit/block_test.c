/* block_test.c: the block layer's checks, splitting, counters and the block class. */
#include <kobold/blkdev.h>
#include <kobold/errno.h>
#include <kobold/init.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>

#include "devmodel_helpers.h"

#define FAKE_SECTORS 100
#define MAX_SEEN 8

struct fake_disk {
	int calls;
	int fail_with;	 /* complete every request with this error */
	int refuse_with; /* return this from submit without completing */
	struct request seen[MAX_SEEN];
	u8 *buf_base;
};

static struct fake_disk fake;
static bool registered_here;

static int fake_submit(struct gendisk *disk, struct request *rq)
{
	if (fake.calls < MAX_SEEN)
		fake.seen[fake.calls] = *rq;
	fake.calls++;
	if (fake.refuse_with)
		return fake.refuse_with;
	blk_end_request(rq, fake.fail_with);
	return 0;
}

static const struct block_device_operations fake_fops = { .submit = fake_submit };

static int block_suite_init(struct ktest *t)
{
	memset(&fake, 0, sizeof(fake));
	registered_here = false;
	if (block_class.subsys.kobj.state != KOBJ_STATE_ADDED) {
		if (genhd_init())
			return -1;
		registered_here = true;
	}
	return 0;
}

static void block_suite_exit(struct ktest *t)
{
	if (registered_here) {
		kset_unregister(&block_subsys);
		class_unregister(&block_class);
	}
}

static struct gendisk *make_disk(const char *name, u32 max_sectors)
{
	struct gendisk *d = alloc_disk();

	if (!d)
		return NULL;
	strscpy(d->disk_name, name, sizeof(d->disk_name));
	d->major = 240;
	d->first_minor = 3;
	d->fops = &fake_fops;
	d->max_sectors = max_sectors;
	set_capacity(d, FAKE_SECTORS);
	return d;
}

static void remove_disk(struct gendisk *d)
{
	if (d->registered)
		del_gendisk(d);
	put_disk(d);
}

static void checks_bounds_before_the_driver(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	u8 buf[2 * SECTOR_SIZE];

	KTEST_ASSERT_TRUE(t, d != NULL);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, FAKE_SECTORS - 1, 1, buf), 0);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, FAKE_SECTORS - 1, 2, buf), -EINVAL);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, FAKE_SECTORS, 1, buf), -EINVAL);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, 0, 0, buf), -EINVAL);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_WRITE, ~0ULL, 2, buf), -EINVAL);
	KTEST_EXPECT_EQ(t, fake.calls, 1);
	remove_disk(d);
}

static void read_only_refuses_writes_only(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	u8 buf[SECTOR_SIZE];

	KTEST_ASSERT_TRUE(t, d != NULL);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	set_disk_ro(d, true);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_WRITE, 0, 1, buf), -EROFS);
	KTEST_EXPECT_EQ(t, fake.calls, 0);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, 0, 1, buf), 0);
	KTEST_EXPECT_EQ(t, fake.calls, 1);
	remove_disk(d);
}

static void large_transfers_split_at_max_sectors(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 8);
	u8 *buf = kzalloc(20 * SECTOR_SIZE);

	KTEST_ASSERT_TRUE(t, d && buf);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, 10, 20, buf), 0);
	KTEST_EXPECT_EQ(t, fake.calls, 3);
	KTEST_EXPECT_EQ(t, fake.seen[0].sector, 10);
	KTEST_EXPECT_EQ(t, fake.seen[0].nr_sectors, 8);
	KTEST_EXPECT_EQ(t, fake.seen[1].sector, 18);
	KTEST_EXPECT_PTR_EQ(t, fake.seen[1].buffer, buf + 8 * SECTOR_SIZE);
	KTEST_EXPECT_EQ(t, fake.seen[2].sector, 26);
	KTEST_EXPECT_EQ(t, fake.seen[2].nr_sectors, 4);
	KTEST_EXPECT_EQ(t, d->stats.ios[0], 3);
	KTEST_EXPECT_EQ(t, d->stats.sectors[0], 20);
	KTEST_EXPECT_EQ(t, d->stats.in_flight, 0);
	kfree(buf);
	remove_disk(d);
}

static void driver_errors_reach_the_caller(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	u8 buf[SECTOR_SIZE];

	KTEST_ASSERT_TRUE(t, d != NULL);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	fake.fail_with = -EIO;
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, 0, 1, buf), -EIO);
	KTEST_EXPECT_EQ(t, d->stats.errors, 1);
	KTEST_EXPECT_EQ(t, d->stats.ios[0], 0);
	fake.fail_with = 0;
	fake.refuse_with = -EBUSY;
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_WRITE, 0, 1, buf), -EBUSY);
	KTEST_EXPECT_EQ(t, d->stats.in_flight, 0);
	remove_disk(d);
}

static void removed_disk_fails_with_enodev(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	u8 buf[SECTOR_SIZE];

	KTEST_ASSERT_TRUE(t, d != NULL);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	del_gendisk(d);
	KTEST_EXPECT_EQ(t, blk_rw(d, REQ_OP_READ, 0, 1, buf), -ENODEV);
	KTEST_EXPECT_EQ(t, fake.calls, 0);
	KTEST_EXPECT_TRUE(t, get_gendisk_by_name("fake0") == NULL);
	put_disk(d);
}

static void dynamic_majors_are_distinct(struct ktest *t)
{
	int a = register_blkdev(0, "testa"), b = register_blkdev(0, "testb");

	KTEST_EXPECT_TRUE(t, a > 0 && b > 0 && a != b);
	KTEST_EXPECT_EQ(t, register_blkdev((unsigned int)a, "testc"), -EBUSY);
	KTEST_EXPECT_EQ(t, register_blkdev(0, ""), -EINVAL);
	KTEST_EXPECT_EQ(t, register_blkdev(999, "big"), -EINVAL);
	unregister_blkdev((unsigned int)b, "testb");
	unregister_blkdev((unsigned int)a, "testa");
	KTEST_EXPECT_EQ(t, register_blkdev(0, "testd"), a);
	unregister_blkdev((unsigned int)a, "testd");
}

static void add_disk_fills_the_block_class(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	char buf[128];

	KTEST_ASSERT_TRUE(t, d != NULL);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	KTEST_EXPECT_TRUE(t, t_cat("/sys/class/block/fake0/dev", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, "240:3\n");
	KTEST_EXPECT_TRUE(t, t_cat("/sys/class/block/fake0/size", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, "100\n");
	KTEST_EXPECT_TRUE(t, t_cat("/sys/class/block/fake0/ro", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, "0\n");
	KTEST_EXPECT_TRUE(t, t_cat("/sys/class/block/fake0/removable", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, "0\n");
	KTEST_EXPECT_EQ(t, t_uevent("/sys/class/block/fake0/uevent", buf, sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "MAJOR=240\nMINOR=3\nDEVNAME=fake0\nDEVTYPE=disk\n");
	del_gendisk(d);
	KTEST_EXPECT_EQ(t, t_cat("/sys/class/block/fake0/dev", buf, sizeof(buf)), -ENOENT);
	put_disk(d);
}

/* /sys/block/NAME: a link to the class device, made and removed with the disk. */
static void sys_block_links_each_disk(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	char buf[128];

	KTEST_ASSERT_TRUE(t, d != NULL);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/block"), 0);
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	KTEST_EXPECT_TRUE(t, t_readlink("/sys/block/fake0", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, "../class/block/fake0");
	KTEST_EXPECT_TRUE(t, t_cat("/sys/block/fake0/size", buf, sizeof(buf)) > 0);
	KTEST_EXPECT_STREQ(t, buf, "100\n");
	del_gendisk(d);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/block/fake0"), -ENOENT);
	put_disk(d);
}

static void a_disk_with_a_parent_links_to_it(struct ktest *t)
{
	struct gendisk *d = make_disk("fake0", 0);
	struct device *parent = root_device_register("fakebus0");
	struct sysfs_dirent *sd;
	char target[128];

	KTEST_ASSERT_TRUE(t, d && parent);
	d->driverfs_dev = parent;
	KTEST_ASSERT_EQ(t, add_disk(d), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/class/block/fake0/device", false, &sd), 0);
	KTEST_EXPECT_TRUE(t, sysfs_readlink(sd, target, sizeof(target)) > 0);
	KTEST_EXPECT_STREQ(t, target, "../../../devices/fakebus0");
	sysfs_put(sd);
	remove_disk(d);
	root_device_unregister(parent);
}

static const struct ktest_case block_cases[] = {
	KTEST_CASE(checks_bounds_before_the_driver),
	KTEST_CASE(read_only_refuses_writes_only),
	KTEST_CASE(large_transfers_split_at_max_sectors),
	KTEST_CASE(driver_errors_reach_the_caller),
	KTEST_CASE(removed_disk_fails_with_enodev),
	KTEST_CASE(dynamic_majors_are_distinct),
	KTEST_CASE(add_disk_fills_the_block_class),
	KTEST_CASE(sys_block_links_each_disk),
	KTEST_CASE(a_disk_with_a_parent_links_to_it),
	KTEST_END,
};

static const struct ktest_suite block_suite = {
	.name = "block",
	.cases = block_cases,
	.init = block_suite_init,
	.exit = block_suite_exit,
};
KTEST_SUITE(block_suite);
