/* resource_test.c: ranges requested, refused on overlap, allocated in gaps and given back. */
#include <kobold/errno.h>
#include <kobold/ioport.h>
#include <kobold/ktest.h>
#include <kobold/string.h>

static void resource_request_refuses_overlap(struct ktest *t)
{
	struct resource root = { .start = 0, .end = 0xffff, .name = "io" };
	struct resource a = { .start = 0x100, .end = 0x1ff, .name = "a" };
	struct resource b = { .start = 0x1f0, .end = 0x20f, .name = "b" };
	struct resource c = { .start = 0x0, .end = 0xff, .name = "c" };
	struct resource far = { .start = 0xfff0, .end = 0x1000f, .name = "far" };

	KTEST_EXPECT_EQ(t, request_resource(&root, &a), 0);
	KTEST_EXPECT_EQ(t, request_resource(&root, &b), -EBUSY);
	KTEST_EXPECT_EQ(t, request_resource(&root, &c), 0);
	KTEST_EXPECT_EQ(t, request_resource(&root, &far), -EINVAL);
	KTEST_EXPECT_TRUE(t, root.child == &c && c.sibling == &a && !a.sibling);
	KTEST_EXPECT_EQ(t, release_resource(&a), 0);
	KTEST_EXPECT_EQ(t, release_resource(&a), -EINVAL);
	KTEST_EXPECT_EQ(t, request_resource(&root, &b), 0);
}

/* pci_request_region's use: a driver's claim is the BAR's whole range, below the BAR. */
static void resource_a_drivers_claim_inside_a_bar(struct ktest *t)
{
	struct resource root = { .start = 0, .end = 0xffffffffu, .name = "mem" };
	struct resource bar = { .start = 0xfea00000u, .end = 0xfeafffffu, .name = "0000:00:04.0" };
	struct resource edu = { .start = 0xfea00000u, .end = 0xfeafffffu, .name = "edu" };
	struct resource again = edu;
	char buf[128];

	KTEST_EXPECT_EQ(t, request_resource(&root, &bar), 0);
	KTEST_EXPECT_EQ(t, request_resource(&bar, &edu), 0);
	KTEST_EXPECT_EQ(t, request_resource(&bar, &again), -EBUSY); /* a reload without a release */
	resource_tree_show(&root, buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "fea00000-feafffff : 0000:00:04.0\n  fea00000-feafffff : edu\n");
	KTEST_EXPECT_EQ(t, release_resource(&edu), 0);
	KTEST_EXPECT_EQ(t, request_resource(&bar, &again), 0);
	KTEST_EXPECT_TRUE(t, bar.child == &again && !again.sibling);
}

static void resource_allocate_reuses_what_was_released(struct ktest *t)
{
	struct resource root = { .start = 0, .end = 0xffff, .name = "io" };
	struct resource fw = { .start = 0xc000, .end = 0xc03f, .name = "fw" };
	struct resource r[4] = { { .name = "r0" }, { .name = "r1" }, { .name = "r2" }, { .name = "r3" } };

	request_resource(&root, &fw);
	KTEST_EXPECT_EQ(t, allocate_resource(&root, &r[0], 0x80, 0xc000, 0xffff, 0x80, false), 0);
	KTEST_EXPECT_EQ(t, r[0].start, 0xc080);
	KTEST_EXPECT_EQ(t, allocate_resource(&root, &r[1], 0x40, 0xc000, 0xffff, 0x40, false), 0);
	KTEST_EXPECT_EQ(t, r[1].start, 0xc040); /* the gap below r0 */
	release_resource(&r[0]);
	for (int i = 0; i < 1000; i++) { /* a thousand cycles end where they began */
		KTEST_EXPECT_EQ(t, allocate_resource(&root, &r[2], 0x80, 0xc000, 0xffff, 0x80, false), 0);
		KTEST_EXPECT_EQ(t, r[2].start, 0xc080);
		release_resource(&r[2]);
	}
	KTEST_EXPECT_EQ(t, allocate_resource(&root, &r[3], 0x10000, 0xc000, 0xffff, 0x10000, false),
			-EBUSY);
}

static void resource_allocate_top_down(struct ktest *t)
{
	struct resource root = { .start = 0, .end = 0xffffffffu, .name = "mem" };
	struct resource fw = { .start = 0xfebf0000u, .end = 0xfebfffffu, .name = "fw" };
	struct resource a = { .name = "a" }, b = { .name = "b" };

	request_resource(&root, &fw);
	KTEST_EXPECT_EQ(t, allocate_resource(&root, &a, 0x1000, 0xe0000000u, 0xfebeffffu, 0x1000, true), 0);
	KTEST_EXPECT_EQ(t, a.start, 0xfebef000u);
	KTEST_EXPECT_EQ(t, allocate_resource(&root, &b, 0x4000, 0xe0000000u, 0xfebeffffu, 0x4000, true), 0);
	KTEST_EXPECT_EQ(t, b.start, 0xfebe8000u);
	KTEST_EXPECT_EQ(t, a.end, 0xfebeffffu);
}

static void resource_show_as_proc_ioports(struct ktest *t)
{
	struct resource root = { .start = 0, .end = 0xffff, .name = "io" };
	struct resource a = { .start = 0x3f8, .end = 0x3ff, .name = "serial" };
	struct resource b = { .start = 0xc000, .end = 0xc07f, .name = "0000:00:04.0" };
	struct resource sub = { .start = 0xc000, .end = 0xc01f, .name = "virtio" };
	struct resource mem = { .start = 0, .end = 0xffffffffu, .name = "mem" };
	struct resource bar = { .start = 0xfebf1000u, .end = 0xfebf1fffu, .name = "0000:00:03.0" };
	char buf[256];

	request_resource(&root, &b);
	request_resource(&root, &a);
	request_resource(&b, &sub);
	resource_tree_show(&root, buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "03f8-03ff : serial\nc000-c07f : 0000:00:04.0\n  c000-c01f : virtio\n");
	request_resource(&mem, &bar);
	resource_tree_show(&mem, buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "febf1000-febf1fff : 0000:00:03.0\n");
}

static const struct ktest_case resource_cases[] = {
	KTEST_CASE(resource_request_refuses_overlap),
	KTEST_CASE(resource_a_drivers_claim_inside_a_bar),
	KTEST_CASE(resource_allocate_reuses_what_was_released),
	KTEST_CASE(resource_allocate_top_down),
	KTEST_CASE(resource_show_as_proc_ioports),
	KTEST_END,
};

static const struct ktest_suite resource_suite = {
	.name = "resource",
	.cases = resource_cases,
};
KTEST_SUITE(resource_suite);
