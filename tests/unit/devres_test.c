/* devres_test.c: managed resources go, newest first, after remove() or a failed probe(), even under allocation failures. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static char order[128];	 /* what ran, in order */
static int taken, given; /* actions registered (or reset at once) and run */
static int probe_err;	 /* what probe returns after taking everything */

static void note(const char *what)
{
	size_t n = strlen(order);

	scnprintf(order + n, sizeof(order) - n, "%s ", what);
}

static void undo(void *arg)
{
	note(arg);
	given++;
}

/* Takes memory and actions as a driver would; any failure fails the probe. */
static int kt_probe(struct device *dev)
{
	char *a = devm_kzalloc(dev, 32, GFP_KERNEL), *b;
	int err;

	if (!a)
		return -ENOMEM;
	taken++;
	err = devm_add_action_or_reset(dev, undo, "A");
	if (err)
		return err;
	b = devm_kzalloc(dev, 4000, GFP_KERNEL);
	if (!b)
		return -ENOMEM;
	taken++;
	err = devm_add_action_or_reset(dev, undo, "B");
	if (err)
		return err;
	a[0] = b[0] = 'x'; /* ASan: both live until the release */
	return probe_err;
}

static int kt_remove(struct device *dev __unused)
{
	note("remove");
	return 0;
}

static struct bus_type kt_rbus = { .name = "ktest_rbus" };
static struct device_driver kt_rdrv = {
	.name = "ktrdrv",
	.bus = &kt_rbus,
	.probe = kt_probe,
	.remove = kt_remove,
};

static void kfree_dev(struct device *dev)
{
	kfree(dev);
}

static struct device *rdev_new(void)
{
	struct device *dev = kzalloc(sizeof(*dev));

	if (!dev)
		return NULL;
	dev->bus = &kt_rbus;
	dev->release = kfree_dev;
	strscpy(dev->bus_id, "ktres", BUS_ID_SIZE);
	return dev;
}

static int devres_init(struct ktest *t __unused)
{
	order[0] = '\0';
	taken = given = probe_err = 0;
	return bus_register(&kt_rbus);
}

static void devres_exit(struct ktest *t __unused)
{
	bus_unregister(&kt_rbus);
}

static void devres_released_after_remove_newest_first(struct ktest *t)
{
	struct device *dev = rdev_new();

	KTEST_ASSERT_TRUE(t, dev);
	KTEST_ASSERT_EQ(t, driver_register(&kt_rdrv), 0);
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	KTEST_EXPECT_TRUE(t, dev->driver == &kt_rdrv);
	KTEST_EXPECT_STREQ(t, order, "");
	device_unregister(dev);
	KTEST_EXPECT_STREQ(t, order, "remove B A ");
	driver_unregister(&kt_rdrv);
}

static void devres_released_after_a_failed_probe(struct ktest *t)
{
	struct device *dev = rdev_new();

	KTEST_ASSERT_TRUE(t, dev);
	probe_err = -EIO;
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	KTEST_ASSERT_EQ(t, driver_register(&kt_rdrv), 0);
	KTEST_EXPECT_TRUE(t, dev->driver == NULL);
	KTEST_EXPECT_STREQ(t, order, "B A "); /* at once, not at unregister */
	KTEST_EXPECT_TRUE(t, list_empty(&dev->devres_head));
	driver_unregister(&kt_rdrv);
	device_unregister(dev);
	KTEST_EXPECT_STREQ(t, order, "B A ");
}

/* failslab's walk: the nth allocation fails, for every n until none does. */
static void devres_unwinds_under_fault_injection(struct ktest *t)
{
	struct device *dev = rdev_new();
	struct kmem_stats before, after;
	unsigned long n, injected;
	int bound = 0;

	KTEST_ASSERT_TRUE(t, dev);
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	for (n = 1; n < 200; n++) {
		taken = given = 0;
		kmem_get_stats(&before);
		injected = before.failures;
		kmalloc_fail_nth(n);
		if (driver_register(&kt_rdrv) == 0) {
			bound += dev->driver != NULL;
			driver_unregister(&kt_rdrv);
		}
		kmalloc_fail_nth(0);
		kmem_get_stats(&after);
		KTEST_EXPECT_EQ(t, after.objects_in_use, before.objects_in_use);
		KTEST_EXPECT_EQ(t, given, taken); /* every action ran, once */
		KTEST_EXPECT_TRUE(t, list_empty(&dev->devres_head));
		if (after.failures == injected)
			break; /* nothing failed: every path was walked */
	}
	KTEST_EXPECT_TRUE(t, n > 4 && n < 200);
	KTEST_EXPECT_TRUE(t, bound >= 1); /* at least the run without a failure bound it */
	device_unregister(dev);
}

static void devres_kfree_and_remove_action(struct ktest *t)
{
	struct device *dev = rdev_new();
	unsigned long warns = warn_count;
	char *p, *q, other;

	KTEST_ASSERT_TRUE(t, dev);
	KTEST_ASSERT_EQ(t, device_register(dev), 0); /* no driver: devres held by the device */
	p = devm_kzalloc(dev, 16, GFP_KERNEL);
	q = devm_kzalloc(dev, 16, GFP_KERNEL);
	KTEST_ASSERT_TRUE(t, p && q && p[15] == 0);
	devm_kfree(dev, p);
	devm_kfree(dev, &other); /* not managed: a warning, nothing freed */
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	KTEST_ASSERT_EQ(t, devm_add_action(dev, undo, "C"), 0);
	KTEST_ASSERT_EQ(t, devm_add_action(dev, undo, "D"), 0);
	devm_remove_action(dev, undo, "C");
	get_device(dev);
	/* At the release, as later kernels; 2.6.21-3.6 released them in device_del. */
	device_unregister(dev);
	KTEST_EXPECT_STREQ(t, order, "");
	put_device(dev); /* the device's release frees what is left */
	KTEST_EXPECT_STREQ(t, order, "D ");
}

static const struct ktest_case devres_cases[] = {
	KTEST_CASE(devres_released_after_remove_newest_first),
	KTEST_CASE(devres_released_after_a_failed_probe),
	KTEST_CASE(devres_unwinds_under_fault_injection),
	KTEST_CASE(devres_kfree_and_remove_action),
	KTEST_END,
};

static const struct ktest_suite devres_suite = {
	.name = "devres",
	.cases = devres_cases,
	.init = devres_init,
	.exit = devres_exit,
};
KTEST_SUITE(devres_suite);
