/* platform_test.c: the platform bus: names, matching, resources, and the bind/unbind files. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/platform_device.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static int probes, removes;
static int probe_error;

static int kt_probe(struct platform_device *pdev)
{
	probes++;
	return probe_error;
}

static int kt_remove(struct platform_device *pdev)
{
	removes++;
	return 0;
}

static struct platform_driver kt_driver = {
	.probe = kt_probe,
	.remove = kt_remove,
	.driver = { .name = "ktplat" },
};

#define DRV "/sys/bus/platform/drivers/ktplat"

static int plat_init(struct ktest *t)
{
	probes = removes = probe_error = 0;
	return 0;
}

static void platform_names_and_matching(struct ktest *t)
{
	struct platform_device *a = platform_device_alloc("ktplat", -1);
	struct platform_device *b = platform_device_alloc("ktplat", 3);
	struct platform_device *o = platform_device_alloc("ktother", 0);
	char buf[96];

	KTEST_ASSERT_TRUE(t, a && b && o);
	KTEST_ASSERT_EQ(t, platform_device_add(a), 0);
	KTEST_ASSERT_EQ(t, platform_device_add(b), 0);
	KTEST_ASSERT_EQ(t, platform_device_add(o), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/platform/ktplat/uevent"), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/platform/ktplat.3/uevent"), 0);
	KTEST_ASSERT_EQ(t, platform_driver_register(&kt_driver), 0);
	KTEST_EXPECT_EQ(t, probes, 2); /* both of its name, not ktother.0 */
	KTEST_EXPECT_TRUE(t, o->dev.driver == NULL);
	t_readlink("/sys/devices/platform/ktplat.3/driver", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../bus/platform/drivers/ktplat");
	t_readlink("/sys/bus/platform/devices/ktplat.3", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../devices/platform/ktplat.3");
	KTEST_EXPECT_EQ(t, t_lookup(DRV "/bind"), 0);
	KTEST_EXPECT_EQ(t, t_lookup(DRV "/unbind"), 0);
	platform_device_unregister(b);
	KTEST_EXPECT_EQ(t, removes, 1);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/platform/ktplat.3"), -ENOENT);
	platform_driver_unregister(&kt_driver);
	KTEST_EXPECT_EQ(t, removes, 2);
	platform_device_unregister(a);
	platform_device_unregister(o);
}

static void platform_bind_and_unbind_files(struct ktest *t)
{
	struct platform_device *a = platform_device_alloc("ktplat", 0);
	struct platform_device *o = platform_device_alloc("ktother", -1);
	static const char binary[] = { 'k', 't', 0, (char)0xff, '\n' };

	KTEST_ASSERT_TRUE(t, a && o);
	KTEST_ASSERT_EQ(t, platform_device_add(a), 0);
	KTEST_ASSERT_EQ(t, platform_device_add(o), 0);
	KTEST_ASSERT_EQ(t, platform_driver_register(&kt_driver), 0);
	KTEST_EXPECT_EQ(t, t_echo(DRV "/unbind", "ktplat.0\n"), 9);
	KTEST_EXPECT_EQ(t, removes, 1);
	KTEST_EXPECT_TRUE(t, a->dev.driver == NULL);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/platform/ktplat.0/driver"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_echo(DRV "/unbind", "ktplat.0"), -ENODEV); /* not bound */
	KTEST_EXPECT_EQ(t, t_echo(DRV "/unbind", "nosuch"), -ENODEV);
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "ktplat.0\n\n"), -ENODEV); /* one newline only */
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "ktplat"), -ENODEV);	  /* a prefix is no name */
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "ktother"), -ENODEV);	  /* no match */
	KTEST_EXPECT_EQ(t, probes, 1);
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "\n"), -ENODEV);
	KTEST_EXPECT_EQ(t, t_write_bytes(DRV "/bind", binary, sizeof(binary)), -ENODEV);
	probe_error = -EIO;
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "ktplat.0"), -EIO); /* probe's error */
	KTEST_EXPECT_TRUE(t, a->dev.driver == NULL);
	probe_error = 0;
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "ktplat.0"), 8);
	KTEST_EXPECT_PTR_EQ(t, a->dev.driver, &kt_driver.driver);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/platform/ktplat.0/driver"), 0);
	KTEST_EXPECT_EQ(t, t_echo(DRV "/bind", "ktplat.0"), -EBUSY); /* bound already */
	platform_driver_unregister(&kt_driver);
	platform_device_unregister(a);
	platform_device_unregister(o);
}

static void platform_resources_and_data(struct ktest *t)
{
	static const struct resource res[] = {
		{ .start = 0x70, .end = 0x71, .flags = IORESOURCE_IO },
		{ .start = 8, .end = 8, .flags = IORESOURCE_IRQ },
	};
	struct platform_device *p = platform_device_register_simple("ktres", -1, res, 2);
	struct platform_device *bad = platform_device_alloc("kt-a-name-far-too-long", 12345);
	int data = 42;

	KTEST_ASSERT_TRUE(t, p && bad);
	KTEST_EXPECT_EQ(t, platform_get_irq(p, 0), 8);
	KTEST_EXPECT_EQ(t, platform_get_irq(p, 1), -ENXIO);
	KTEST_EXPECT_EQ(t, platform_get_resource(p, IORESOURCE_IO, 0)->start, 0x70);
	KTEST_EXPECT_TRUE(t, platform_get_resource(p, IORESOURCE_MEM, 0) == NULL);
	KTEST_EXPECT_EQ(t, platform_device_add_data(p, &data, sizeof(data)), 0);
	KTEST_EXPECT_EQ(t, *(int *)p->dev.platform_data, 42);
	platform_device_unregister(p);			       /* the release frees resources and data */
	KTEST_EXPECT_EQ(t, platform_device_add(bad), -EINVAL); /* longer than BUS_ID_SIZE */
	platform_device_put(bad);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/platform/ktres"), -ENOENT);
}

static const struct ktest_case platform_cases[] = {
	KTEST_CASE(platform_names_and_matching),
	KTEST_CASE(platform_bind_and_unbind_files),
	KTEST_CASE(platform_resources_and_data),
	KTEST_END,
};

static const struct ktest_suite platform_suite = {
	.name = "platform",
	.cases = platform_cases,
	.init = plat_init,
};
KTEST_SUITE(platform_suite);
