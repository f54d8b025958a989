/* kobject_test.c: kobject lifetimes, names, misuse warnings and the live registry. */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

struct tobj {
	struct kobject kobj;
	int releases;
	bool keep; /* release counts but does not free: to look afterwards */
};

static void tobj_release(struct kobject *kobj)
{
	struct tobj *o = container_of(kobj, struct tobj, kobj);

	o->releases++;
	if (!o->keep)
		kfree(o);
}

static struct kobj_type tobj_ktype = { .release = tobj_release };
static struct kobj_type tobj_noktype_release = { .release = NULL };

static struct tobj *tobj_new(const char *name, struct kobject *parent, bool keep)
{
	struct tobj *o = kzalloc(sizeof(*o));

	if (!o)
		return NULL;
	o->keep = keep;
	o->kobj.ktype = &tobj_ktype;
	o->kobj.parent = parent;
	kobject_init(&o->kobj);
	if (name && kobject_set_name(&o->kobj, "%s", name)) {
		kobject_put(&o->kobj);
		return NULL;
	}
	return o;
}

static void kobject_release_once_at_last_put(struct ktest *t)
{
	struct tobj *o = tobj_new("ktest_once", NULL, true);

	KTEST_ASSERT_TRUE(t, o);
	KTEST_ASSERT_EQ(t, kobject_add(&o->kobj), 0);
	kobject_get(&o->kobj);
	kobject_get(&o->kobj);
	KTEST_EXPECT_EQ(t, kobject_refcount(&o->kobj), 3);
	kobject_del(&o->kobj);
	kobject_put(&o->kobj);
	kobject_put(&o->kobj);
	KTEST_EXPECT_EQ(t, o->releases, 0);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&o->kobj), "deleted");
	kobject_put(&o->kobj);
	KTEST_EXPECT_EQ(t, o->releases, 1);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&o->kobj), "released");
	kfree(o);
}

static void kobject_misuse_warns_without_harm(struct ktest *t)
{
	struct tobj *o = tobj_new("ktest_misuse", NULL, true);
	unsigned long warns;
	u32 seq;

	KTEST_ASSERT_TRUE(t, o);
	KTEST_ASSERT_EQ(t, kobject_add(&o->kobj), 0);
	seq = log_seq();
	warns = warn_count;
	KTEST_EXPECT_EQ(t, kobject_add(&o->kobj), -EINVAL); /* add twice */
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	KTEST_EXPECT_TRUE(t, log_search(seq, "'ktest_misuse'"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "Call Trace"));
	kobject_del(&o->kobj);
	kobject_del(&o->kobj); /* del twice */
	KTEST_EXPECT_EQ(t, warn_count, warns + 2);
	kobject_put(&o->kobj);
	KTEST_EXPECT_EQ(t, o->releases, 1);
	kobject_put(&o->kobj); /* put below zero */
	kobject_get(&o->kobj); /* get from zero */
	KTEST_EXPECT_EQ(t, warn_count, warns + 4);
	KTEST_EXPECT_EQ(t, o->releases, 1);
	KTEST_EXPECT_EQ(t, kobject_refcount(&o->kobj), 0);
	kfree(o);
}

static void kobject_without_release_complains(struct ktest *t)
{
	struct kobject *k = kzalloc(sizeof(*k));
	unsigned long warns = warn_count;
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, k);
	k->ktype = &tobj_noktype_release;
	kobject_init(k);
	kobject_set_name(k, "ktest_norelease");
	kobject_put(k);
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	KTEST_EXPECT_TRUE(t, log_search(seq, "kobject: 'ktest_norelease' does not have a release() function, it is broken and must be fixed."));
	KTEST_EXPECT_TRUE(t, log_search(seq, "Call Trace"));
	kfree(k);
}

static void kobject_names_are_checked(struct ktest *t)
{
	struct tobj *a = tobj_new("ktest_dup", NULL, false);
	struct tobj *b = tobj_new("ktest_dup", NULL, false);
	struct tobj *e = tobj_new("", NULL, false);
	struct tobj *n = tobj_new(NULL, NULL, false);
	struct tobj *s = tobj_new("a/b", NULL, false);

	KTEST_ASSERT_TRUE(t, a && b && e && n && s);
	KTEST_EXPECT_EQ(t, kobject_add(&a->kobj), 0);
	KTEST_EXPECT_EQ(t, kobject_add(&b->kobj), -EEXIST);
	KTEST_EXPECT_STREQ(t, kobject_state_name(&b->kobj), "initialized");
	KTEST_EXPECT_EQ(t, kobject_add(&e->kobj), -EINVAL);
	KTEST_EXPECT_EQ(t, kobject_add(&n->kobj), -EINVAL);
	KTEST_EXPECT_EQ(t, kobject_add(&s->kobj), -EINVAL);
	kobject_del(&a->kobj);
	kobject_put(&a->kobj);
	kobject_put(&b->kobj);
	kobject_put(&e->kobj);
	kobject_put(&n->kobj);
	kobject_put(&s->kobj);
}

static void kobject_set_name_formats_long_names(struct ktest *t)
{
	struct tobj *o = tobj_new(NULL, NULL, false);
	char path[128];

	KTEST_ASSERT_TRUE(t, o);
	KTEST_EXPECT_EQ(t, kobject_set_name(&o->kobj, "ktest_%s_%d", "a_rather_long_name", 42), 0);
	KTEST_EXPECT_STREQ(t, kobject_name(&o->kobj), "ktest_a_rather_long_name_42");
	KTEST_EXPECT_EQ(t, kobject_set_name(&o->kobj, "ktest_short"), 0);
	KTEST_EXPECT_STREQ(t, kobject_name(&o->kobj), "ktest_short");
	KTEST_EXPECT_EQ(t, kobject_set_name(&o->kobj, "ktest_%s", "long_again_for_the_heap"), 0);
	KTEST_ASSERT_EQ(t, kobject_add(&o->kobj), 0);
	KTEST_EXPECT_EQ(t, kobject_get_path(&o->kobj, path, sizeof(path)),
			(int)strlen("/ktest_long_again_for_the_heap"));
	KTEST_EXPECT_STREQ(t, path, "/ktest_long_again_for_the_heap");
	KTEST_EXPECT_EQ(t, kobject_get_path(&o->kobj, path, 8), -ENAMETOOLONG);
	kobject_del(&o->kobj);
	kobject_put(&o->kobj); /* the heap name is freed: the leak check sees it */
}

static void kobject_parent_and_kset(struct ktest *t)
{
	struct kset *ks = kzalloc(sizeof(*ks));
	struct tobj *child = tobj_new("child", NULL, false);
	struct tobj *grand = NULL;
	char path[128];

	KTEST_ASSERT_TRUE(t, ks && child);
	kobject_set_name(&ks->kobj, "ktest_kset");
	KTEST_ASSERT_EQ(t, kset_register(ks), 0);
	child->kobj.kset = ks; /* no parent: goes in the kset's directory */
	KTEST_ASSERT_EQ(t, kobject_add(&child->kobj), 0);
	KTEST_EXPECT_PTR_EQ(t, child->kobj.parent, &ks->kobj);
	grand = tobj_new("grand", &child->kobj, false);
	KTEST_ASSERT_TRUE(t, grand);
	KTEST_ASSERT_EQ(t, kobject_add(&grand->kobj), 0);
	kobject_get_path(&grand->kobj, path, sizeof(path));
	KTEST_EXPECT_STREQ(t, path, "/ktest_kset/child/grand");
	KTEST_EXPECT_EQ(t, t_lookup("/sys/ktest_kset/child/grand"), 0);
	KTEST_EXPECT_EQ(t, kobject_refcount(&child->kobj), 2); /* its own + grand's */
	kobject_del(&grand->kobj);
	KTEST_EXPECT_EQ(t, kobject_refcount(&child->kobj), 2); /* pinned until grand's release */
	kobject_get_path(&grand->kobj, path, sizeof(path));
	KTEST_EXPECT_STREQ(t, path, "grand"); /* deleted: only its name */
	kobject_put(&grand->kobj);
	KTEST_EXPECT_EQ(t, kobject_refcount(&child->kobj), 1);
	kobject_del(&child->kobj);
	kobject_put(&child->kobj);
	KTEST_EXPECT_TRUE(t, list_empty(&ks->list));
	kset_unregister(ks);
	kfree(ks);
}

struct live_scan {
	struct kobject *a, *b;
	int pos_a, pos_b, n;
};

static void scan(struct kobject *k, void *arg)
{
	struct live_scan *s = arg;

	s->n++;
	if (k == s->a)
		s->pos_a = s->n;
	if (k == s->b)
		s->pos_b = s->n;
}

static void kobject_registry_lists_live_objects_in_order(struct ktest *t)
{
	struct tobj *a = tobj_new("ktest_live_a", NULL, false);
	struct tobj *b = tobj_new("ktest_live_b", NULL, false);
	struct live_scan s = { 0 };

	KTEST_ASSERT_TRUE(t, a && b);
	s.a = &a->kobj;
	s.b = &b->kobj;
	kobject_for_each_live(scan, &s);
	KTEST_EXPECT_TRUE(t, s.pos_a > 0 && s.pos_b == s.pos_a + 1);
	kobject_put(&a->kobj);
	s.pos_a = s.pos_b = s.n = 0;
	s.a = &b->kobj; /* a is freed: compare against b only */
	s.b = NULL;
	kobject_for_each_live(scan, &s);
	KTEST_EXPECT_TRUE(t, s.pos_a > 0);
	kobject_put(&b->kobj);
}

static void kobject_trace_prints_calls(struct ktest *t)
{
	bool was = devmodel_trace_enabled();
	struct tobj *o = tobj_new("ktest_traced", NULL, false);
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, o);
	devmodel_set_trace(true);
	kobject_add(&o->kobj);
	kobject_del(&o->kobj);
	kobject_put(&o->kobj);
	devmodel_set_trace(was);
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: kobject_add /ktest_traced"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: kobject_del /ktest_traced"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: kobject_release ktest_traced"));
}

static const struct ktest_case kobject_cases[] = {
	KTEST_CASE(kobject_release_once_at_last_put),
	KTEST_CASE(kobject_misuse_warns_without_harm),
	KTEST_CASE(kobject_without_release_complains),
	KTEST_CASE(kobject_names_are_checked),
	KTEST_CASE(kobject_set_name_formats_long_names),
	KTEST_CASE(kobject_parent_and_kset),
	KTEST_CASE(kobject_registry_lists_live_objects_in_order),
	KTEST_CASE(kobject_trace_prints_calls),
	KTEST_END,
};

static const struct ktest_suite kobject_suite = {
	.name = "kobject",
	.cases = kobject_cases,
};
KTEST_SUITE(kobject_suite);
