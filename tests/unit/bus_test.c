/* bus_test.c: buses, drivers and devices: binding both ways, links, events, misuse. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

struct tdev {
	struct device dev;
	int releases;
	bool refuse; /* probe says -EIO */
};

static int probes, removes;

static int kt_match(struct device *dev, struct device_driver *drv __unused)
{
	return strncmp(dev->bus_id, "kt", 2) == 0; /* "nomatch*" stays unbound */
}

static int kt_hotplug(struct device *dev, char **envp, int num_envp, char *buffer,
		      int buffer_size)
{
	int i = 0, len = 0;

	return add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				   "KTEST_BUS_ID=%s", dev->bus_id);
}

static ssize_t version_show(struct bus_type *bus, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s 1.0\n", bus->name);
}
static BUS_ATTR(version, S_IRUGO, version_show, NULL);

static ssize_t id_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", dev->bus_id);
}
static struct device_attribute kt_dev_attrs[] = {
	__ATTR(id, S_IRUGO, id_show, NULL),
	__ATTR_NULL,
};

static struct bus_type kt_bus = {
	.name = "ktest_bus",
	.match = kt_match,
	.hotplug = kt_hotplug,
	.dev_attrs = kt_dev_attrs,
};

static int kt_probe(struct device *dev)
{
	probes++;
	return container_of(dev, struct tdev, dev)->refuse ? -EIO : 0;
}

static int kt_remove(struct device *dev __unused)
{
	removes++;
	return 0;
}

static struct device_driver kt_drv = {
	.name = "ktdrv",
	.bus = &kt_bus,
	.probe = kt_probe,
	.remove = kt_remove,
};

static ssize_t drvinfo_show(struct device_driver *drv, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", drv->name);
}
static DRIVER_ATTR(info, S_IRUGO, drvinfo_show, NULL);

static void tdev_release(struct device *dev)
{
	container_of(dev, struct tdev, dev)->releases++; /* the test frees */
}

static struct tdev *tdev_new(const char *name, struct device *parent)
{
	struct tdev *d = kzalloc(sizeof(*d));

	if (!d)
		return NULL;
	strscpy(d->dev.bus_id, name, BUS_ID_SIZE);
	d->dev.bus = &kt_bus;
	d->dev.parent = parent;
	d->dev.release = tdev_release;
	return d;
}

static int bus_init(struct ktest *t __unused)
{
	probes = removes = 0;
	return bus_register(&kt_bus);
}

static void bus_exit(struct ktest *t __unused)
{
	bus_unregister(&kt_bus);
}

static void bus_device_then_driver_binds(struct ktest *t)
{
	struct tdev *d = tdev_new("ktdev0", NULL);
	char buf[96];

	KTEST_ASSERT_TRUE(t, d);
	KTEST_ASSERT_EQ(t, device_register(&d->dev), 0);
	KTEST_EXPECT_TRUE(t, d->dev.driver == NULL);
	KTEST_ASSERT_EQ(t, driver_register(&kt_drv), 0);
	KTEST_EXPECT_PTR_EQ(t, d->dev.driver, &kt_drv);
	KTEST_EXPECT_EQ(t, probes, 1);
	KTEST_EXPECT_EQ(t, t_readlink("/sys/bus/ktest_bus/devices/ktdev0", buf, sizeof(buf)) > 0, 1);
	KTEST_EXPECT_STREQ(t, buf, "../../../devices/ktdev0");
	t_readlink("/sys/devices/ktdev0/driver", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../bus/ktest_bus/drivers/ktdrv");
	t_readlink("/sys/devices/ktdev0/subsystem", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../bus/ktest_bus");
	t_readlink("/sys/bus/ktest_bus/drivers/ktdrv/ktdev0", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../../devices/ktdev0");
	t_cat("/sys/bus/ktest_bus/devices/ktdev0/id", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "ktdev0\n");
	driver_unregister(&kt_drv); /* unbinds: remove runs, links go */
	KTEST_EXPECT_EQ(t, removes, 1);
	KTEST_EXPECT_TRUE(t, d->dev.driver == NULL);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktdev0/driver"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus/ktest_bus/drivers/ktdrv"), -ENOENT);
	device_unregister(&d->dev);
	KTEST_EXPECT_EQ(t, d->releases, 1);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus/ktest_bus/devices/ktdev0"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktdev0"), -ENOENT);
	kfree(d);
}

static void bus_driver_then_device_binds_and_probe_errors(struct ktest *t)
{
	struct tdev *ok = tdev_new("ktdev1", NULL), *bad = tdev_new("ktdev2", NULL);
	struct tdev *other = tdev_new("nomatch", NULL);
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, ok && bad && other);
	bad->refuse = true;
	KTEST_ASSERT_EQ(t, driver_register(&kt_drv), 0);
	KTEST_ASSERT_EQ(t, driver_create_file(&kt_drv, &driver_attr_info), 0);
	KTEST_ASSERT_EQ(t, device_register(&ok->dev), 0);
	KTEST_ASSERT_EQ(t, device_register(&bad->dev), 0);
	KTEST_ASSERT_EQ(t, device_register(&other->dev), 0);
	KTEST_EXPECT_PTR_EQ(t, ok->dev.driver, &kt_drv);
	KTEST_EXPECT_TRUE(t, bad->dev.driver == NULL); /* probe failed: unbound */
	KTEST_EXPECT_TRUE(t, log_search(seq, "probe of ktdev2 failed with error -5"));
	KTEST_EXPECT_TRUE(t, other->dev.driver == NULL); /* no match: no probe */
	KTEST_EXPECT_EQ(t, probes, 2);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktdev2/driver"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus/ktest_bus/drivers/ktdrv/info"), 0);
	device_unregister(&ok->dev); /* remove runs before the device goes */
	KTEST_EXPECT_EQ(t, removes, 1);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus/ktest_bus/drivers/ktdrv/ktdev1"), -ENOENT);
	device_unregister(&bad->dev);
	device_unregister(&other->dev);
	driver_unregister(&kt_drv);
	KTEST_EXPECT_EQ(t, removes, 1);
	kfree(ok);
	kfree(bad);
	kfree(other);
}

static void bus_root_device_and_parents(struct ktest *t)
{
	struct device *root = root_device_register("ktest_root");
	struct tdev *d = tdev_new("ktchild", root);
	char buf[96];

	KTEST_ASSERT_TRUE(t, root && d);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktest_root"), 0);
	KTEST_ASSERT_EQ(t, device_register(&d->dev), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktest_root/ktchild/uevent"), 0);
	t_readlink("/sys/bus/ktest_bus/devices/ktchild", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../devices/ktest_root/ktchild");
	device_unregister(&d->dev);
	root_device_unregister(root);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktest_root"), -ENOENT);
	KTEST_EXPECT_TRUE(t, root_device_register("") == NULL);
	kfree(d);
}

static int append_name(struct device *dev, void *data)
{
	char *buf = data;

	strscpy(buf + strlen(buf), dev->bus_id, 8);
	return 0;
}

static void bus_attributes_and_iteration(struct ktest *t)
{
	struct tdev *a = tdev_new("ktA", NULL), *b = tdev_new("ktB", NULL);
	char buf[32];

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_ASSERT_EQ(t, bus_create_file(&kt_bus, &bus_attr_version), 0);
	t_cat("/sys/bus/ktest_bus/version", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "ktest_bus 1.0\n");
	KTEST_ASSERT_EQ(t, device_register(&b->dev), 0);
	KTEST_ASSERT_EQ(t, device_register(&a->dev), 0);
	buf[0] = '\0';
	bus_for_each_dev(&kt_bus, NULL, buf, append_name);
	KTEST_EXPECT_STREQ(t, buf, "ktBktA"); /* registration order */
	bus_remove_file(&kt_bus, &bus_attr_version);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus/ktest_bus/version"), -ENOENT);
	device_unregister(&a->dev);
	device_unregister(&b->dev);
	kfree(a);
	kfree(b);
}

static void bus_device_events(struct ktest *t)
{
	struct tdev *d = tdev_new("ktev", NULL);
	struct t_events e;
	char buf[128];

	KTEST_ASSERT_TRUE(t, d);
	d->dev.devt = MKDEV(240, 3);
	t_events_start(&e);
	KTEST_ASSERT_EQ(t, device_register(&d->dev), 0);
	KTEST_EXPECT_EQ(t, e.n, 1);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "ACTION=add|DEVPATH=/devices/ktev|SUBSYSTEM=ktest_bus|SEQNUM="));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "|MAJOR=240|MINOR=3|KTEST_BUS_ID=ktev|"));
	t_cat("/sys/devices/ktev/dev", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "240:3\n");
	t_cat("/sys/devices/ktev/uevent", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "MAJOR=240\nMINOR=3\nKTEST_BUS_ID=ktev\n");
	device_unregister(&d->dev);
	KTEST_EXPECT_EQ(t, e.n, 2);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 1, "ACTION=remove|DEVPATH=/devices/ktev|SUBSYSTEM=ktest_bus|"));
	t_events_stop(&e);
	kfree(d);
}

static void bus_misuse_warns(struct ktest *t)
{
	struct device *d = kzalloc(sizeof(*d));
	struct tdev *held = tdev_new("ktheld", NULL);
	unsigned long warns = warn_count;
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, d && held);
	strscpy(d->bus_id, "ktest_norel", BUS_ID_SIZE);
	KTEST_ASSERT_EQ(t, device_register(d), 0);
	device_unregister(d);
	KTEST_EXPECT_TRUE(t, log_search(seq, "Device 'ktest_norel' does not have a release() function, it is broken and must be fixed."));
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	device_unregister(d); /* twice */
	KTEST_EXPECT_EQ(t, warn_count, warns + 2);
	KTEST_ASSERT_EQ(t, device_register(&held->dev), 0);
	bus_unregister(&kt_bus); /* a device remains: refused */
	KTEST_EXPECT_EQ(t, warn_count, warns + 3);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/bus/ktest_bus/devices/ktheld"), 0);
	device_unregister(&held->dev);
	kfree(held);
	kfree(d);
}

static const struct ktest_case bus_cases[] = {
	KTEST_CASE(bus_device_then_driver_binds),
	KTEST_CASE(bus_driver_then_device_binds_and_probe_errors),
	KTEST_CASE(bus_root_device_and_parents),
	KTEST_CASE(bus_attributes_and_iteration),
	KTEST_CASE(bus_device_events),
	KTEST_CASE(bus_misuse_warns),
	KTEST_END,
};

static const struct ktest_suite bus_suite = {
	.name = "bus",
	.cases = bus_cases,
	.init = bus_init,
	.exit = bus_exit,
};
KTEST_SUITE(bus_suite);
