/* lifetime_test.c: misuse and ownership of kobjects and classes that once corrupted memory. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static int cd_releases, class_releases;

static void cd_free(struct class_device *cd)
{
	cd_releases++;
	kfree(cd);
}

static void class_free(struct class *cls)
{
	class_releases++;
	kfree(cls);
}

static struct class kt_lclass = { .name = "ktest_life", .release = cd_free };

static struct class_device *cd_new(struct class *cls, const char *id)
{
	struct class_device *cd = kzalloc(sizeof(*cd));

	if (!cd)
		return NULL;
	cd->class = cls;
	strscpy(cd->class_id, id, BUS_ID_SIZE);
	return cd;
}

static struct class *class_new(const char *name)
{
	struct class *cls = kzalloc(sizeof(*cls));

	if (!cls)
		return NULL;
	cls->name = name;
	cls->release = cd_free;
	cls->class_release = class_free;
	return cls;
}

static int lifetime_init(struct ktest *t __unused)
{
	cd_releases = class_releases = 0;
	return 0;
}

/* A put without a del used to free a device still on cls->children. */
static void lifetime_put_without_del_warns_and_keeps(struct ktest *t)
{
	struct class_device *a = cd_new(&kt_lclass, "ktla"), *b = cd_new(&kt_lclass, "ktlb");
	unsigned long warns = warn_count;
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, a && b);
	KTEST_ASSERT_EQ(t, class_register(&kt_lclass), 0);
	KTEST_ASSERT_EQ(t, class_device_register(a), 0);
	class_device_put(a); /* the misuse: no class_device_unregister */
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	KTEST_EXPECT_TRUE(t, log_search(seq, "kobject: 'ktla'"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "Call Trace"));
	KTEST_EXPECT_EQ(t, cd_releases, 0);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&a->kobj), "added");
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_life/ktla"), 0);
	KTEST_EXPECT_EQ(t, class_device_register(b), 0); /* the list is intact */
	class_device_unregister(a);
	class_device_unregister(b);
	KTEST_EXPECT_EQ(t, cd_releases, 2);
	class_unregister(&kt_lclass);
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
}

struct lobj {
	struct kobject kobj;
	int *releases;
};

static void lobj_release(struct kobject *kobj)
{
	struct lobj *o = container_of(kobj, struct lobj, kobj);

	(*o->releases)++;
	kfree(o);
}

static struct kobj_type lobj_ktype = { .release = lobj_release };

static struct lobj *lobj_add(const char *name, struct kobject *parent, int *releases)
{
	struct lobj *o = kzalloc(sizeof(*o));

	if (!o)
		return NULL;
	o->releases = releases;
	o->kobj.ktype = &lobj_ktype;
	o->kobj.parent = parent;
	kobject_init(&o->kobj);
	if (kobject_set_name(&o->kobj, "%s", name) || kobject_add(&o->kobj)) {
		kobject_put(&o->kobj);
		return NULL;
	}
	return o;
}

static const struct attribute lost_attr = { .name = "x", .mode = S_IRUGO };

/* The parent's directory removed first used to free the child's node. */
static void lifetime_parent_deleted_before_child(struct ktest *t)
{
	int releases = 0;
	struct lobj *p = lobj_add("ktest_lparent", NULL, &releases);
	struct lobj *c = p ? lobj_add("child", &p->kobj, &releases) : NULL;
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, p && c);
	kobject_del(&p->kobj); /* the misuse: the parent first */
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_lparent/child"), -ENOENT);
	KTEST_EXPECT_EQ(t, sysfs_create_file(&c->kobj, &lost_attr), -ENOENT);
	kobject_del(&c->kobj);
	KTEST_EXPECT_TRUE(t, log_search(seq, "sysfs: 'child' was removed with its parent's directory"));
	kobject_put(&p->kobj);
	KTEST_EXPECT_EQ(t, releases, 0); /* the child still pins its parent */
	kobject_put(&c->kobj);
	KTEST_EXPECT_EQ(t, releases, 2);
}

static const struct class_attribute dup_attrs[] = {
	__ATTR(same, S_IRUGO, NULL, NULL),
	__ATTR(same, S_IRUGO, NULL, NULL),
	__ATTR_NULL,
};

/* A failed class_register used to run the caller's release. */
static void lifetime_failed_class_register_leaves_it_to_the_caller(struct ktest *t)
{
	struct class *first = class_new("ktest_ldup"), *dup = class_new("ktest_ldup");
	struct class *bad = class_new("ktest_lbad");

	KTEST_ASSERT_TRUE(t, first && dup && bad);
	KTEST_ASSERT_EQ(t, class_register(first), 0);
	KTEST_EXPECT_EQ(t, class_register(first), -EBUSY); /* twice: refused, no harm */
	KTEST_EXPECT_EQ(t, class_register(dup), -EEXIST);
	KTEST_EXPECT_EQ(t, class_releases, 0);
	kfree(dup); /* as 2.6 code did on error: no double free */
	bad->class_attrs = (struct class_attribute *)dup_attrs;
	KTEST_EXPECT_EQ(t, class_register(bad), -EEXIST);
	KTEST_EXPECT_EQ(t, class_releases, 0);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_lbad"), -ENOENT);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&bad->subsys.kobj), "uninitialized");
	bad->class_attrs = NULL; /* fixed, it registers */
	KTEST_EXPECT_EQ(t, class_register(bad), 0);
	class_unregister(bad);
	class_unregister(first);
	KTEST_EXPECT_EQ(t, class_releases, 2);
}

/* A class used to be freed under a device kept alive by an open file. */
static void lifetime_device_outlives_its_class(struct ktest *t)
{
	struct class *cls = class_new("ktest_lgone");
	struct class_device *cd = cd_new(cls, "ktlg0");
	struct sysfs_open_file *of;
	struct sysfs_dirent *sd;

	KTEST_ASSERT_TRUE(t, cls && cd);
	KTEST_ASSERT_EQ(t, class_register(cls), 0);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	KTEST_ASSERT_EQ(t, sysfs_lookup(NULL, "/sys/class/ktest_lgone/ktlg0/uevent", true, &sd), 0);
	KTEST_ASSERT_EQ(t, sysfs_open(sd, 0, &of), 0);
	sysfs_put(sd);
	class_device_unregister(cd);
	class_unregister(cls);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_lgone"), -ENOENT);
	KTEST_EXPECT_EQ(t, class_releases, 0); /* pinned by ktlg0 */
	KTEST_EXPECT_EQ(t, class_register(cls), -EBUSY);
	sysfs_close(of); /* ktlg0's release calls cls->release, then the class goes */
	KTEST_EXPECT_EQ(t, cd_releases, 1);
	KTEST_EXPECT_EQ(t, class_releases, 1);
}

/* As 2.6: class_unregister does not refuse; it warns, and the device pins the class. */
static void lifetime_class_unregister_with_devices_left(struct ktest *t)
{
	struct class *cls = class_new("ktest_lleft");
	struct class_device *cd = cd_new(cls, "ktll0");
	unsigned long warns = warn_count;

	KTEST_ASSERT_TRUE(t, cls && cd);
	KTEST_ASSERT_EQ(t, class_register(cls), 0);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	class_unregister(cls); /* the driver forgot its device */
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_lleft"), -ENOENT);
	KTEST_EXPECT_EQ(t, class_releases, 0);
	class_device_unregister(cd);
	KTEST_EXPECT_EQ(t, cd_releases, 1);
	KTEST_EXPECT_EQ(t, class_releases, 1);
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
}

static const struct ktest_case lifetime_cases[] = {
	KTEST_CASE(lifetime_put_without_del_warns_and_keeps),
	KTEST_CASE(lifetime_parent_deleted_before_child),
	KTEST_CASE(lifetime_failed_class_register_leaves_it_to_the_caller),
	KTEST_CASE(lifetime_device_outlives_its_class),
	KTEST_CASE(lifetime_class_unregister_with_devices_left),
	KTEST_END,
};

static const struct ktest_suite lifetime_suite = {
	.name = "lifetime",
	.cases = lifetime_cases,
	.init = lifetime_init,
};
KTEST_SUITE(lifetime_suite);
