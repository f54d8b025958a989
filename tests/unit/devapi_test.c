/* devapi_test.c: the newer class API (class_create, device_create, groups, uevent) beside the article's. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

#define KT_CLASS "ktest_new"
#define KT_VIRT "/sys/devices/virtual/" KT_CLASS

struct kt_priv {
	int level;
	int resets;
};

static ssize_t level_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	return sysfs_emit(buf, "%d\n", ((struct kt_priv *)dev_get_drvdata(dev))->level);
}

static ssize_t level_store(struct device *dev, struct device_attribute *attr __unused,
			   const char *buf, size_t count)
{
	struct kt_priv *p = dev_get_drvdata(dev);
	long v;
	int err = kstrtol(buf, 10, &v);

	if (err)
		return err;
	p->level = (int)v;
	return (ssize_t)count;
}
static DEVICE_ATTR_RW(level);

static ssize_t name_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	int n = sysfs_emit(buf, "%s", dev_name(dev));

	return n + sysfs_emit_at(buf, n, " %s\n", attr->attr.name);
}
static DEVICE_ATTR_RO(name);

static ssize_t reset_store(struct device *dev, struct device_attribute *attr __unused,
			   const char *buf __unused, size_t count)
{
	((struct kt_priv *)dev_get_drvdata(dev))->resets++;
	return (ssize_t)count;
}
static DEVICE_ATTR_WO(reset);

static struct attribute *kt_new_attrs[] = {
	&dev_attr_level.attr,
	&dev_attr_name.attr,
	&dev_attr_reset.attr,
	NULL,
};
ATTRIBUTE_GROUPS(kt_new);

static struct attribute *kt_extra_attrs[] = { &dev_attr_level.attr, NULL };
static const struct attribute_group kt_extra_group = { .name = "extra", .attrs = kt_extra_attrs };
static const struct attribute_group *kt_extra_groups[] = { &kt_extra_group, NULL };

static int uevent_vars; /* how many KTEST_N variables dev_uevent adds; -1: one key */
static int uevent_err;	/* what add_uevent_var returned last */

static int kt_dev_uevent(struct device *dev, struct kobj_uevent_env *env)
{
	int i;

	if (uevent_vars < 0)
		return add_uevent_var(env, "KTEST_KEY=%s", dev_name(dev));
	for (i = 0, uevent_err = 0; i < uevent_vars && !uevent_err; i++)
		uevent_err = add_uevent_var(env, "KTEST_%d=%d", i, i);
	return uevent_err;
}

static char *kt_devnode(struct device *dev, umode_t *mode)
{
	*mode = 0660;
	return kasprintf("ktest/%s", dev_name(dev));
}

static struct class *cls;

static void kfree_dev(struct device *dev)
{
	kfree(dev);
}

static int devapi_init(struct ktest *t __unused)
{
	uevent_vars = -1;
	cls = class_create(NULL, KT_CLASS);
	if (IS_ERR(cls))
		return (int)PTR_ERR(cls);
	cls->dev_groups = kt_new_groups;
	cls->dev_uevent = kt_dev_uevent;
	return 0;
}

static void devapi_exit(struct ktest *t __unused)
{
	class_destroy(cls);
}

static void devapi_device_create_lives_in_devices_virtual(struct ktest *t)
{
	struct kt_priv p = { .level = 3 };
	struct device *dev = device_create(cls, NULL, MKDEV(240, 1), &p, "ktnew%d", 0);
	struct sysfs_dirent *sd;
	char buf[96];

	KTEST_ASSERT_TRUE(t, !IS_ERR(dev));
	KTEST_EXPECT_TRUE(t, dev_get_drvdata(dev) == &p);
	KTEST_EXPECT_STREQ(t, dev_name(dev), "ktnew0");
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, KT_VIRT "/ktnew0", false, &sd), 0);
	KTEST_EXPECT_EQ(t, sysfs_dirent_type(sd), SYSFS_DIR);
	sysfs_put(sd);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/class/" KT_CLASS "/ktnew0", false, &sd), 0);
	KTEST_EXPECT_EQ(t, sysfs_dirent_type(sd), SYSFS_KOBJ_LINK);
	sysfs_put(sd);
	t_readlink("/sys/class/" KT_CLASS "/ktnew0", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../devices/virtual/" KT_CLASS "/ktnew0");
	t_readlink(KT_VIRT "/ktnew0/subsystem", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../../class/" KT_CLASS);
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT "/ktnew0/device"), -ENOENT); /* no parent */
	t_cat("/sys/class/" KT_CLASS "/ktnew0/dev", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "240:1\n");
	t_cat(KT_VIRT "/ktnew0/uevent", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "MAJOR=240\nMINOR=1\nDEVNAME=ktnew0\nKTEST_KEY=ktnew0\n");
	device_destroy(cls, MKDEV(240, 1));
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/" KT_CLASS "/ktnew0"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT), -ENOENT); /* the glue directory went with it */
}

static void devapi_class_member_with_a_parent(struct ktest *t)
{
	struct device *parent = device_create(cls, NULL, 0, NULL, "ktpar");
	struct device *child, *grandchild;
	struct kt_priv p = { 0 };
	char buf[96];

	KTEST_ASSERT_TRUE(t, !IS_ERR(parent));
	child = device_create(cls, parent, 0, &p, "ktchild");
	KTEST_ASSERT_TRUE(t, !IS_ERR(child));
	/* a parent of the same class: no glue directory, as Linux 2.6.25 */
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT "/ktpar/ktchild/level"), 0);
	t_readlink(KT_VIRT "/ktpar/ktchild/device", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../ktpar");
	t_readlink("/sys/class/" KT_CLASS "/ktchild", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../devices/virtual/" KT_CLASS "/ktpar/ktchild");
	device_unregister(child); /* children before their parent */
	device_destroy(cls, 0);	  /* the one left with dev_t 0: ktpar */
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/" KT_CLASS "/ktpar"), -ENOENT);
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT), -ENOENT);
	/* a parent of no class: the <class> glue directory under it */
	parent = kzalloc(sizeof(*parent));
	KTEST_ASSERT_TRUE(t, parent);
	strscpy(parent->bus_id, "ktplain", BUS_ID_SIZE);
	parent->release = kfree_dev;
	KTEST_ASSERT_EQ(t, device_register(parent), 0);
	grandchild = device_create(cls, parent, 0, &p, "ktglued");
	KTEST_ASSERT_TRUE(t, !IS_ERR(grandchild));
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktplain/" KT_CLASS "/ktglued/uevent"), 0);
	t_readlink("/sys/class/" KT_CLASS "/ktglued", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../devices/ktplain/" KT_CLASS "/ktglued");
	t_readlink("/sys/devices/ktplain/" KT_CLASS "/ktglued/device", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "../../../ktplain");
	device_unregister(grandchild);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/devices/ktplain/" KT_CLASS), -ENOENT);
	device_unregister(parent);
}

static void devapi_events_carry_the_class_keys(struct ktest *t)
{
	struct t_events e;
	struct device *dev;

	cls->devnode = kt_devnode;
	t_events_start(&e);
	dev = device_create(cls, NULL, MKDEV(240, 2), NULL, "ktev");
	KTEST_ASSERT_TRUE(t, !IS_ERR(dev));
	KTEST_EXPECT_EQ(t, e.n, 1);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "ACTION=add|DEVPATH=/devices/virtual/" KT_CLASS "/ktev|SUBSYSTEM=" KT_CLASS "|SEQNUM="));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "|MAJOR=240|MINOR=2|DEVNAME=ktest/ktev|DEVMODE=0660|KTEST_KEY=ktev|"));
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktev/uevent", "change"), 6);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 1, "ACTION=change|DEVPATH=/devices/virtual/" KT_CLASS "/ktev|"));
	device_destroy(cls, MKDEV(240, 2));
	KTEST_EXPECT_EQ(t, e.n, 3);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 2, "ACTION=remove|DEVPATH=/devices/virtual/" KT_CLASS "/ktev|SUBSYSTEM=" KT_CLASS "|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 2, "|MAJOR=240|MINOR=2|"));
	t_events_stop(&e);
	cls->devnode = NULL;
}

static void devapi_groups_and_attribute_macros(struct ktest *t)
{
	struct kt_priv p = { .level = 7 };
	struct device *dev = kzalloc(sizeof(*dev));
	struct sysfs_dirent *sd;
	char buf[64];

	KTEST_ASSERT_TRUE(t, dev);
	dev->class = cls;
	dev->groups = kt_extra_groups;
	dev->release = kfree_dev;
	dev_set_drvdata(dev, &p);
	strscpy(dev->bus_id, "ktgrp", BUS_ID_SIZE);
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	t_cat(KT_VIRT "/ktgrp/level", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "7\n");
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktgrp/level", "42"), 2);
	KTEST_EXPECT_EQ(t, p.level, 42);
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktgrp/level", "x"), -EINVAL);
	t_cat(KT_VIRT "/ktgrp/extra/level", buf, sizeof(buf)); /* dev->groups, named */
	KTEST_EXPECT_STREQ(t, buf, "42\n");
	t_cat(KT_VIRT "/ktgrp/name", buf, sizeof(buf));
	KTEST_EXPECT_STREQ(t, buf, "ktgrp name\n");
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktgrp/name", "x"), -EACCES);
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktgrp/reset", "1"), 1);
	KTEST_EXPECT_EQ(t, p.resets, 1);
	KTEST_EXPECT_EQ(t, t_cat(KT_VIRT "/ktgrp/reset", buf, sizeof(buf)), -EACCES);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, KT_VIRT "/ktgrp/level", true, &sd), 0);
	KTEST_EXPECT_EQ(t, sysfs_dirent_mode(sd), 0644);
	sysfs_put(sd);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, KT_VIRT "/ktgrp/reset", true, &sd), 0);
	KTEST_EXPECT_EQ(t, sysfs_dirent_mode(sd), 0200);
	sysfs_put(sd);
	device_remove_file(dev, &dev_attr_name);
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT "/ktgrp/name"), -ENOENT);
	KTEST_EXPECT_EQ(t, device_create_file(dev, &dev_attr_name), 0);
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT "/ktgrp/name"), 0);
	device_unregister(dev);
}

static int dev_releases;

static void counted_release(struct device *dev)
{
	dev_releases++;
	kfree(dev);
}

/* class->dev_release for devices without their own; the class outlives them. */
static void devapi_release_after_the_last_reference(struct ktest *t)
{
	struct class *c2 = class_create(NULL, "ktest_short");
	struct device *dev = kzalloc(sizeof(*dev));
	struct sysfs_open_file *of;
	struct sysfs_dirent *sd;
	char buf[16];

	KTEST_ASSERT_TRUE(t, !IS_ERR(c2) && dev);
	dev_releases = 0;
	c2->dev_release = counted_release;
	dev->class = c2;
	strscpy(dev->bus_id, "ktshort", BUS_ID_SIZE);
	KTEST_ASSERT_EQ(t, device_register(dev), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/class/ktest_short/ktshort/uevent", true, &sd), 0);
	KTEST_ASSERT_EQ(t, sysfs_open(sd, 0, &of), 0);
	sysfs_put(sd);
	device_unregister(dev);
	class_destroy(c2); /* the open file still holds the device, which holds the class */
	KTEST_EXPECT_EQ(t, dev_releases, 0);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&c2->subsys.kobj), "deleted");
	KTEST_EXPECT_EQ(t, sysfs_read(of, buf, sizeof(buf)), -ENODEV);
	sysfs_close(of); /* device released, then the class freed: the leak check agrees */
	KTEST_EXPECT_EQ(t, dev_releases, 1);
}

static char icalls[128];

static void inote(const char *what, const char *name)
{
	size_t n = strlen(icalls);

	scnprintf(icalls + n, sizeof(icalls) - n, "%s%s ", what, name);
}

static const char *fail_dev;
static int i_add(struct class_device *cd)
{
	inote("+cd:", cd->class_id);
	return 0;
}
static void i_remove(struct class_device *cd)
{
	inote("-cd:", cd->class_id);
}
static int i_add_dev(struct device *dev)
{
	inote("+dev:", dev_name(dev));
	return fail_dev && strcmp(dev_name(dev), fail_dev) == 0 ? -EIO : 0;
}
static void i_remove_dev(struct device *dev)
{
	inote("-dev:", dev_name(dev));
}

static void free_cd(struct class_device *cd)
{
	kfree(cd);
}

/* One interface follows both kinds of member: add/remove and add_dev/remove_dev. */
static void devapi_interface_sees_both_kinds(struct ktest *t)
{
	struct class_interface intf = { .class = cls, .add = i_add, .remove = i_remove, .add_dev = i_add_dev, .remove_dev = i_remove_dev };
	struct class_device *cd = kzalloc(sizeof(*cd));
	struct device *a, *b;

	icalls[0] = '\0';
	fail_dev = NULL;
	KTEST_ASSERT_TRUE(t, cd);
	cd->class = cls;
	cd->release = free_cd;
	strscpy(cd->class_id, "ktold", BUS_ID_SIZE);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	a = device_create(cls, NULL, MKDEV(240, 10), NULL, "ktnewa");
	KTEST_ASSERT_TRUE(t, !IS_ERR(a));
	KTEST_ASSERT_EQ(t, class_interface_register(&intf), 0);
	b = device_create(cls, NULL, MKDEV(240, 11), NULL, "ktnewb");
	KTEST_ASSERT_TRUE(t, !IS_ERR(b));
	device_destroy(cls, MKDEV(240, 10));
	class_interface_unregister(&intf);
	KTEST_EXPECT_STREQ(t, icalls, "+cd:ktold +dev:ktnewa +dev:ktnewb -dev:ktnewa -cd:ktold -dev:ktnewb ");
	/* a failing add_dev undoes the interface for both kinds */
	icalls[0] = '\0';
	fail_dev = "ktnewb";
	KTEST_EXPECT_EQ(t, class_interface_register(&intf), -EIO);
	KTEST_EXPECT_STREQ(t, icalls, "+cd:ktold +dev:ktnewb -cd:ktold -dev:ktnewb ");
	device_destroy(cls, MKDEV(240, 11));
	class_device_unregister(cd);
}

static void devapi_uevent_buffer_limits(struct ktest *t)
{
	struct kobj_uevent_env *env = kzalloc(sizeof(*env));
	unsigned long warns = warn_count;
	struct t_events e;
	struct device *dev;
	static char big[UEVENT_BUFFER_SIZE];
	int i;

	KTEST_ASSERT_TRUE(t, env);
	for (i = 0; i < UEVENT_NUM_ENVP; i++)
		KTEST_ASSERT_EQ(t, add_uevent_var(env, "K%d=v", i), 0);
	KTEST_EXPECT_EQ(t, add_uevent_var(env, "ONE=more"), -ENOMEM); /* too many keys */
	KTEST_EXPECT_EQ(t, env->envp_idx, UEVENT_NUM_ENVP);
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	memset(env, 0, sizeof(*env));
	memset(big, 'x', sizeof(big));
	big[UEVENT_BUFFER_SIZE - 3] = '\0'; /* "A=" and this fill the buffer with its NUL */
	KTEST_EXPECT_EQ(t, add_uevent_var(env, "A=%s", big), 0);
	KTEST_EXPECT_EQ(t, env->buflen, UEVENT_BUFFER_SIZE);
	KTEST_EXPECT_EQ(t, add_uevent_var(env, "B"), -ENOMEM); /* buffer size too small */
	KTEST_EXPECT_EQ(t, env->envp_idx, 1);
	KTEST_EXPECT_EQ(t, warn_count, warns + 2);
	kfree(env);
	/* in an event: the four core keys, MAJOR and MINOR take their share, no event is sent */
	uevent_vars = 100;
	t_events_start(&e);
	dev = device_create(cls, NULL, MKDEV(240, 3), NULL, "ktfull");
	KTEST_ASSERT_TRUE(t, !IS_ERR(dev));
	KTEST_EXPECT_EQ(t, uevent_err, -ENOMEM);
	KTEST_EXPECT_EQ(t, e.n, 0);
	uevent_vars = NUM_ENVP - 1 - 4 - 3; /* every slot: ends in NULL, as 2.6.15's array */
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktfull/uevent", "change"), 6);
	KTEST_EXPECT_EQ(t, uevent_err, 0);
	KTEST_EXPECT_EQ(t, e.n, 1);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "|KTEST_0=0|"));
	uevent_vars++; /* one more does not fit */
	KTEST_EXPECT_EQ(t, t_echo(KT_VIRT "/ktfull/uevent", "change"), -ENOMEM);
	KTEST_EXPECT_EQ(t, uevent_err, -ENOMEM);
	KTEST_EXPECT_EQ(t, e.n, 1);
	device_destroy(cls, MKDEV(240, 3));
	t_events_stop(&e);
	uevent_vars = -1;
}

static void devapi_bad_input_is_refused(struct ktest *t)
{
	struct device *dev = kzalloc(sizeof(*dev)), *a;
	static struct bus_type kt_nbus = { .name = "ktest_nbus" };
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, dev);
	KTEST_EXPECT_EQ(t, PTR_ERR(device_create(NULL, NULL, 0, NULL, "x")), -ENODEV);
	KTEST_EXPECT_EQ(t, PTR_ERR(device_create(cls, NULL, 0, NULL, "a_name_far_too_long_for_bus_id")),
			-ENAMETOOLONG);
	KTEST_EXPECT_TRUE(t, log_search(seq, "device_create: a_name_far_too_long: error -36"));
	KTEST_EXPECT_EQ(t, PTR_ERR(device_create(cls, NULL, 0, NULL, "%s", "")), -EINVAL);
	a = device_create(cls, NULL, 0, NULL, "ktdup");
	KTEST_ASSERT_TRUE(t, !IS_ERR(a));
	KTEST_EXPECT_EQ(t, PTR_ERR(device_create(cls, NULL, 0, NULL, "ktdup")), -EEXIST);
	KTEST_EXPECT_EQ(t, PTR_ERR(class_create(NULL, KT_CLASS)), -EEXIST);
	KTEST_EXPECT_EQ(t, PTR_ERR(class_create(NULL, "")), -EINVAL);
	class_destroy(NULL);
	class_destroy(ERR_PTR(-ENOMEM));
	device_destroy(cls, MKDEV(1, 1)); /* no such device: nothing happens */
	KTEST_ASSERT_EQ(t, bus_register(&kt_nbus), 0);
	dev->bus = &kt_nbus; /* a bus and a class: one subsystem link, refused */
	dev->class = cls;
	dev->release = kfree_dev;
	strscpy(dev->bus_id, "ktboth", BUS_ID_SIZE);
	KTEST_EXPECT_EQ(t, device_register(dev), -EINVAL);
	put_device(dev);
	bus_unregister(&kt_nbus);
	device_unregister(a);
	KTEST_EXPECT_EQ(t, t_lookup(KT_VIRT), -ENOENT);
}

static const struct ktest_case devapi_cases[] = {
	KTEST_CASE(devapi_device_create_lives_in_devices_virtual),
	KTEST_CASE(devapi_class_member_with_a_parent),
	KTEST_CASE(devapi_events_carry_the_class_keys),
	KTEST_CASE(devapi_groups_and_attribute_macros),
	KTEST_CASE(devapi_release_after_the_last_reference),
	KTEST_CASE(devapi_interface_sees_both_kinds),
	KTEST_CASE(devapi_uevent_buffer_limits),
	KTEST_CASE(devapi_bad_input_is_refused),
	KTEST_END,
};

static const struct ktest_suite devapi_suite = {
	.name = "devapi",
	.cases = devapi_cases,
	.init = devapi_init,
	.exit = devapi_exit,
};
KTEST_SUITE(devapi_suite);
