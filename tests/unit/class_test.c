/* class_test.c: classes and class devices as the LWN article describes them. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

struct tcd {
	struct class_device cd;
	int own_releases;
	char version[16];
};

static int class_releases;

static void kt_class_release(struct class_device *cd __unused)
{
	class_releases++; /* the test frees */
}

static int kt_class_hotplug(struct class_device *cd, char **envp, int num_envp,
			    char *buffer, int buffer_size)
{
	int i = 0, len = 0;

	return add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				   "DEVNAME=%s", cd->class_id);
}

static ssize_t show_version(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n",
			 ((struct tcd *)class_get_devdata(cd))->version);
}

static ssize_t store_version(struct class_device *cd, const char *buf, size_t count)
{
	strscpy(((struct tcd *)class_get_devdata(cd))->version, buf, 16);
	return (ssize_t)count;
}
static CLASS_DEVICE_ATTR(version, S_IRUGO | S_IWUSR, show_version, store_version);
static CLASS_DEVICE_ATTR(extra, S_IRUGO, show_version, NULL);

static struct class_device_attribute kt_cd_attrs[] = {
	__ATTR(ro_default, S_IRUGO, show_version, NULL),
	__ATTR_NULL,
};

static struct class kt_class = {
	.name = "ktest_class",
	.class_dev_attrs = kt_cd_attrs,
	.hotplug = kt_class_hotplug,
	.release = kt_class_release,
};

static struct class kt_bare = { .name = "ktest_bare" };

static struct bus_type kt_cbus = { .name = "ktest_cbus" };
static struct device_driver kt_cdrv = { .name = "ktcdrv", .bus = &kt_cbus };

static void tcd_own_release(struct class_device *cd)
{
	container_of(cd, struct tcd, cd)->own_releases++;
}

static void kfree_device(struct device *dev)
{
	kfree(dev);
}

static struct tcd *tcd_new(struct class *cls, const char *id)
{
	struct tcd *c = kzalloc(sizeof(*c));

	if (!c)
		return NULL;
	c->cd.class = cls;
	strscpy(c->cd.class_id, id, BUS_ID_SIZE);
	strscpy(c->version, "1.0", sizeof(c->version));
	class_set_devdata(&c->cd, c);
	return c;
}

static int class_init(struct ktest *t __unused)
{
	class_releases = 0;
	return class_register(&kt_class);
}

static void class_exit(struct ktest *t __unused)
{
	class_unregister(&kt_class);
}

static void class_device_directory_and_attributes(struct ktest *t)
{
	struct tcd *c = tcd_new(&kt_class, "ktcd0");
	struct sysfs_dirent *dir, *sd;
	char buf[64];
	int n = 0;

	KTEST_ASSERT_TRUE(t, c);
	c->cd.devt = MKDEV(250, 7);
	KTEST_ASSERT_EQ(t, class_device_register(&c->cd), 0);
	KTEST_ASSERT_EQ(t, class_device_create_file(&c->cd, &class_device_attr_version), 0);
	KTEST_ASSERT_EQ(t, class_device_create_file(&c->cd, &class_device_attr_extra), 0);
	t_cat("/sys/class/ktest_class/ktcd0/dev", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "250:7\n");
	KTEST_EXPECT_EQ(t, t_echo("/sys/class/ktest_class/ktcd0/version", "2.5"), 3);
	t_cat("/sys/class/ktest_class/ktcd0/version", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "2.5\n");
	KTEST_EXPECT_EQ(t, t_echo("/sys/class/ktest_class/ktcd0/extra", "x"), -EACCES);
	KTEST_EXPECT_EQ(t, t_cat("/sys/class/ktest_class/ktcd0/uevent", buf, sizeof(buf)), -EACCES);
	t_uevent("/sys/class/ktest_class/ktcd0/uevent", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "MAJOR=250\nMINOR=7\nDEVNAME=ktcd0\n");
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/class/ktest_class/ktcd0", true, &dir), 0);
	for (sd = sysfs_dirent_first_child(dir); sd; sd = sysfs_dirent_next(sd))
		n++;
	KTEST_EXPECT_EQ(t, n, 5); /* dev extra ro_default uevent version */
	class_device_remove_file(&c->cd, &class_device_attr_extra);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktcd0/extra"), -ENOENT);
	class_device_unregister(&c->cd); /* "version" was never removed: it goes too */
	KTEST_EXPECT_TRUE(t, sysfs_dirent_removed(dir));
	KTEST_EXPECT_TRUE(t, sysfs_dirent_first_child(dir) == NULL);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktcd0"), -ENOENT);
	sysfs_put(dir);
	KTEST_EXPECT_EQ(t, class_releases, 1); /* the class's release: none of its own */
	kfree(c);
}

/*
 * 2.6.15's links: "device" to the device and "CLASS:ID" back from it; no
 * "driver" link (2.6.12 removed it). The events name the device behind it
 * (PHYSDEVPATH, PHYSDEVBUS, PHYSDEVDRIVER, 2.6.10 on).
 */
static void class_device_links_to_device_and_back(struct ktest *t)
{
	struct device *dev = kzalloc(sizeof(*dev));
	struct tcd *c = tcd_new(&kt_class, "ktcd1");
	struct t_events ev;
	char buf[96];

	KTEST_ASSERT_TRUE(t, dev && c);
	KTEST_ASSERT_EQ(t, bus_register(&kt_cbus), 0);
	KTEST_ASSERT_EQ(t, driver_register(&kt_cdrv), 0);
	strscpy(dev->bus_id, "ktphys", BUS_ID_SIZE);
	dev->bus = &kt_cbus;
	dev->release = kfree_device;
	KTEST_ASSERT_EQ(t, device_register(dev), 0); /* no match(): binds to ktcdrv */
	KTEST_ASSERT_TRUE(t, dev->driver == &kt_cdrv);
	c->cd.dev = dev;
	t_events_start(&ev);
	KTEST_ASSERT_EQ(t, class_device_register(&c->cd), 0);
	t_readlink("/sys/class/ktest_class/ktcd1/device", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../devices/ktphys");
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktcd1/driver"), -ENOENT);
	t_readlink("/sys/devices/ktphys/ktest_class:ktcd1", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../class/ktest_class/ktcd1");
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktcd1/device/subsystem"), 0);
	KTEST_EXPECT_TRUE(t, t_event_has(&ev, 0, "ACTION=add|DEVPATH=/class/ktest_class/ktcd1|"
						 "SUBSYSTEM=ktest_class|SEQNUM="));
	KTEST_EXPECT_TRUE(t, t_event_has(&ev, 0, "|PHYSDEVPATH=/devices/ktphys|"
						 "PHYSDEVBUS=ktest_cbus|PHYSDEVDRIVER=ktcdrv|"));
	class_device_unregister(&c->cd);
	t_events_stop(&ev);
	KTEST_EXPECT_TRUE(t, t_event_has(&ev, 1, "ACTION=remove|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&ev, 1, "|PHYSDEVPATH=/devices/ktphys|"));
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktcd1"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktphys/ktest_class:ktcd1"), -ENOENT);
	device_unregister(dev);
	driver_unregister(&kt_cdrv);
	bus_unregister(&kt_cbus);
	kfree(c);
}

/* 2.6.15's class_device.parent (51d172d5f3a): the child's directory is inside its parent's. */
static void class_device_inside_its_parent(struct ktest *t)
{
	struct tcd *p = tcd_new(&kt_class, "ktpar"), *c = tcd_new(&kt_class, "ktkid");
	struct t_events ev;

	KTEST_ASSERT_TRUE(t, p && c);
	p->cd.release = tcd_own_release;
	c->cd.release = tcd_own_release;
	c->cd.parent = &p->cd;
	KTEST_ASSERT_EQ(t, class_device_register(&p->cd), 0);
	t_events_start(&ev);
	KTEST_ASSERT_EQ(t, class_device_register(&c->cd), 0);
	t_events_stop(&ev);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktpar/ktkid/uevent"), 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_class/ktkid"), -ENOENT);
	KTEST_EXPECT_TRUE(t, t_event_has(&ev, 0, "ACTION=add|DEVPATH=/class/ktest_class/ktpar/ktkid|"
						 "SUBSYSTEM=ktest_class|"));
	class_device_unregister(&c->cd);
	class_device_unregister(&p->cd);
	KTEST_EXPECT_EQ(t, c->own_releases + p->own_releases, 2);
	kfree(c);
	kfree(p);
}

static void class_device_release_choices(struct ktest *t)
{
	struct tcd *own = tcd_new(&kt_class, "ktown");
	struct tcd *none = NULL;
	unsigned long warns = warn_count;
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, own);
	KTEST_ASSERT_EQ(t, class_register(&kt_bare), 0);
	none = tcd_new(&kt_bare, "ktnone");
	KTEST_ASSERT_TRUE(t, none);
	own->cd.release = tcd_own_release; /* wins over the class's */
	KTEST_ASSERT_EQ(t, class_device_register(&own->cd), 0);
	class_device_get(&own->cd);
	class_device_unregister(&own->cd);
	KTEST_EXPECT_EQ(t, own->own_releases, 0); /* not at unregister: a reference is left */
	class_device_put(&own->cd);
	KTEST_EXPECT_EQ(t, own->own_releases, 1);
	KTEST_EXPECT_EQ(t, class_releases, 0);
	KTEST_ASSERT_EQ(t, class_device_register(&none->cd), 0);
	class_device_unregister(&none->cd);
	KTEST_EXPECT_TRUE(t, log_search(seq, "class_device 'ktnone' does not have a release() function, it is broken and must be fixed."));
	KTEST_EXPECT_TRUE(t, log_search(seq, "Call Trace"));
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	class_device_unregister(&none->cd); /* twice: one more warning, no harm */
	KTEST_EXPECT_EQ(t, warn_count, warns + 2);
	class_unregister(&kt_bare);
	kfree(own);
	kfree(none);
}

static void class_device_bad_names(struct ktest *t)
{
	struct tcd *a = tcd_new(&kt_class, "ktdup"), *b = tcd_new(&kt_class, "ktdup");
	struct tcd *e = tcd_new(&kt_class, "");

	KTEST_ASSERT_TRUE(t, a && b && e);
	KTEST_EXPECT_EQ(t, class_device_register(&a->cd), 0);
	KTEST_EXPECT_EQ(t, class_device_register(&b->cd), -EEXIST);
	KTEST_EXPECT_EQ(t, class_device_register(&e->cd), -EINVAL);
	class_device_put(&b->cd);
	class_device_put(&e->cd);
	class_device_unregister(&a->cd);
	KTEST_EXPECT_EQ(t, class_releases, 3);
	kfree(a);
	kfree(b);
	kfree(e);
}

static void class_device_stale_open_file(struct ktest *t)
{
	struct tcd *c = tcd_new(&kt_class, "ktstale");
	struct sysfs_open_file *of;
	struct sysfs_dirent *sd;
	char buf[16];

	KTEST_ASSERT_TRUE(t, c);
	c->cd.release = tcd_own_release;
	KTEST_ASSERT_EQ(t, class_device_register(&c->cd), 0);
	KTEST_ASSERT_EQ(t, class_device_create_file(&c->cd, &class_device_attr_version), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/class/ktest_class/ktstale/version", true, &sd), 0);
	KTEST_ASSERT_EQ(t, sysfs_open(sd, 0, &of), 0);
	sysfs_put(sd);
	class_device_unregister(&c->cd);
	KTEST_EXPECT_EQ(t, c->own_releases, 0);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&c->cd.kobj), "deleted");
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), -ENODEV);
	KTEST_EXPECT_EQ(t, sysfs_write(of, "3", 1), -ENODEV);
	sysfs_close(of);
	KTEST_EXPECT_EQ(t, c->own_releases, 1);
	kfree(c);
}

static const struct ktest_case class_cases[] = {
	KTEST_CASE(class_device_directory_and_attributes),
	KTEST_CASE(class_device_links_to_device_and_back),
	KTEST_CASE(class_device_inside_its_parent),
	KTEST_CASE(class_device_release_choices),
	KTEST_CASE(class_device_bad_names),
	KTEST_CASE(class_device_stale_open_file),
	KTEST_END,
};

static const struct ktest_suite class_suite = {
	.name = "class",
	.cases = class_cases,
	.init = class_init,
	.exit = class_exit,
};
KTEST_SUITE(class_suite);
