/* interface_test.c: class interfaces see every device of their class, in order. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static char calls[256]; /* "+1a" is interface 1 adding a; "-2c" interface 2 removing c */
static struct t_events events;
static bool whole_at_remove; /* the device's files and no remove event yet */

static void note(char op, int intf, struct class_device *cd)
{
	size_t n = strlen(calls);

	scnprintf(calls + n, sizeof(calls) - n, "%c%d%s ", op, intf, cd->class_id + 4);
}

static void check_whole(struct class_device *cd)
{
	char path[64];
	int i;

	scnprintf(path, sizeof(path), "/sys/class/ktest_ifclass/%s/uevent", cd->class_id);
	whole_at_remove &= t_lookup(path) == 0;
	for (i = 0; i < events.n; i++)
		whole_at_remove &= !t_event_has(&events, i, "ACTION=remove");
}

static int add1(struct class_device *cd)
{
	note('+', 1, cd);
	return 0;
}
static int add2(struct class_device *cd)
{
	note('+', 2, cd);
	return 0;
}
static void remove1(struct class_device *cd)
{
	note('-', 1, cd);
	check_whole(cd);
}
static void remove2(struct class_device *cd)
{
	note('-', 2, cd);
	check_whole(cd);
}

static const char *fail_on; /* add3 fails for this class_id */

static int add3(struct class_device *cd)
{
	note('+', 3, cd);
	return fail_on && strcmp(cd->class_id, fail_on) == 0 ? -EIO : 0;
}

static void remove3(struct class_device *cd) { note('-', 3, cd); }

static struct class kt_ifclass = { .name = "ktest_ifclass" };
static struct class_interface intf1 = { .class = &kt_ifclass, .add = add1, .remove = remove1 };
static struct class_interface intf2 = { .class = &kt_ifclass, .add = add2, .remove = remove2 };
static struct class_interface intf3 = { .class = &kt_ifclass, .add = add3, .remove = remove3 };

static void free_cd(struct class_device *cd)
{
	kfree(cd);
}

static struct class_device *cd_add(const char *id)
{
	struct class_device *cd = kzalloc(sizeof(*cd));

	if (!cd)
		return NULL;
	cd->class = &kt_ifclass;
	cd->release = free_cd;
	strscpy(cd->class_id, id, BUS_ID_SIZE);
	if (class_device_register(cd)) {
		class_device_put(cd);
		return NULL;
	}
	return cd;
}

static void interface_sees_devices_before_and_after(struct ktest *t)
{
	struct class_device *a, *b, *c = NULL, *d = NULL;
	bool was = devmodel_trace_enabled();
	u32 seq = log_seq();

	calls[0] = '\0';
	KTEST_ASSERT_EQ(t, class_register(&kt_ifclass), 0);
	a = cd_add("ktifa");
	b = cd_add("ktifb");
	KTEST_ASSERT_TRUE(t, a && b);
	devmodel_set_trace(true);
	KTEST_EXPECT_EQ(t, class_interface_register(&intf1), 0);
	devmodel_set_trace(was);
	KTEST_EXPECT_STREQ(t, calls, "+1a +1b ");
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: class_interface_add /class/ktest_ifclass/ktifa"));
	c = cd_add("ktifc");
	KTEST_ASSERT_TRUE(t, c);
	KTEST_EXPECT_EQ(t, class_interface_register(&intf2), 0);
	KTEST_EXPECT_STREQ(t, calls, "+1a +1b +1c +2a +2b +2c ");
	calls[0] = '\0';
	d = cd_add("ktifd");
	KTEST_ASSERT_TRUE(t, d);
	KTEST_EXPECT_STREQ(t, calls, "+1d +2d ");
	calls[0] = '\0';
	whole_at_remove = true;
	t_events_start(&events);
	class_device_unregister(d);
	t_events_stop(&events);
	KTEST_EXPECT_STREQ(t, calls, "-1d -2d ");
	KTEST_EXPECT_TRUE(t, whole_at_remove);
	KTEST_EXPECT_TRUE(t, t_event_has(&events, 0, "ACTION=remove|DEVPATH=/class/ktest_ifclass/ktifd|"));
	calls[0] = '\0';
	class_interface_unregister(&intf1);
	KTEST_EXPECT_STREQ(t, calls, "-1a -1b -1c ");
	calls[0] = '\0';
	class_device_unregister(b);
	KTEST_EXPECT_STREQ(t, calls, "-2b "); /* interface 1 is gone */
	class_interface_unregister(&intf2);
	class_device_unregister(a);
	class_device_unregister(c);
	class_unregister(&kt_ifclass);
}

static void interface_needs_a_registered_class(struct ktest *t)
{
	struct class_interface orphan = { .class = &kt_ifclass };
	struct class_interface none = { .class = NULL };

	KTEST_EXPECT_EQ(t, class_interface_register(&orphan), -ENODEV);
	KTEST_EXPECT_EQ(t, class_interface_register(&none), -ENODEV);
}

/* Kobold's rollback: remove() runs for every device add() was called on, the failing one too. */
static void interface_failed_add_rolls_back(struct ktest *t)
{
	struct class_device *a, *b, *c, *d;

	KTEST_ASSERT_EQ(t, class_register(&kt_ifclass), 0);
	a = cd_add("ktifa");
	b = cd_add("ktifb");
	c = cd_add("ktifc");
	KTEST_ASSERT_TRUE(t, a && b && c);
	calls[0] = '\0';
	fail_on = "ktifb";
	KTEST_EXPECT_EQ(t, class_interface_register(&intf3), -EIO);
	KTEST_EXPECT_STREQ(t, calls, "+3a +3b -3a -3b ");
	fail_on = "ktifd"; /* now it registers, and the next device's add() fails */
	calls[0] = '\0';
	KTEST_EXPECT_EQ(t, class_interface_register(&intf3), 0);
	KTEST_EXPECT_STREQ(t, calls, "+3a +3b +3c ");
	calls[0] = '\0';
	d = cd_add("ktifd"); /* the device is added all the same */
	KTEST_ASSERT_TRUE(t, d);
	class_device_unregister(d);
	KTEST_EXPECT_STREQ(t, calls, "+3d -3d "); /* remove() after a failed add() */
	fail_on = NULL;
	class_interface_unregister(&intf3);
	class_device_unregister(a);
	class_device_unregister(b);
	class_device_unregister(c);
	class_unregister(&kt_ifclass);
}

/* A second unregister warns and calls no remove(); so does one never registered. */
static void interface_unregister_twice_warns(struct ktest *t)
{
	struct class_device *a;
	unsigned long warns = warn_count;

	KTEST_ASSERT_EQ(t, class_register(&kt_ifclass), 0);
	a = cd_add("ktifa");
	KTEST_ASSERT_TRUE(t, a);
	KTEST_EXPECT_EQ(t, class_interface_register(&intf3), 0);
	KTEST_EXPECT_EQ(t, class_interface_register(&intf3), -EBUSY);
	KTEST_EXPECT_EQ(t, warn_count, warns + 1);
	calls[0] = '\0';
	class_interface_unregister(&intf3);
	class_interface_unregister(&intf3);
	KTEST_EXPECT_STREQ(t, calls, "-3a ");
	KTEST_EXPECT_EQ(t, warn_count, warns + 2);
	class_device_unregister(a);
	class_unregister(&kt_ifclass);
}

/* Where the (unique) record containing needle is, from seq on; 0 if absent. */
static u32 log_pos(u32 seq, const char *needle)
{
	u32 pos = 0;

	for (u32 s = seq; s < log_seq(); s++)
		if (log_search(s, needle))
			pos = s + 1;
	return pos;
}

/* Each line right after the one before: the trace is exactly this sequence. */
static bool trace_is(u32 seq, const char *const *lines)
{
	u32 prev = 0;

	for (; *lines; lines++) {
		u32 pos = log_pos(seq, *lines);

		if (!pos || (prev && pos != prev + 1)) {
			pr_info("trace line missing or out of order: %s\n", *lines);
			return false;
		}
		prev = pos;
	}
	return true;
}

/* 2.6.15's orders: add event before the interfaces; remove event after the files. */
static void interface_trace_shows_the_2_6_15_order(struct ktest *t)
{
	static const char *const add[] = {
		"trace: class_device_register ktifo",
		"trace: kobject_add /class/ktest_ifclass/ktifo",
		"trace: class_device_add /class/ktest_ifclass/ktifo",
		"trace: class_device_add_attrs /class/ktest_ifclass/ktifo",
		"trace: kobject_hotplug /class/ktest_ifclass/ktifo add",
		"trace: class_interface_add /class/ktest_ifclass/ktifo",
		NULL,
	};
	static const char *const del[] = {
		"trace: class_device_del /class/ktest_ifclass/ktifo",
		"trace: class_interface_remove /class/ktest_ifclass/ktifo",
		"trace: class_device_remove_attrs /class/ktest_ifclass/ktifo",
		"trace: kobject_hotplug /class/ktest_ifclass/ktifo remove",
		"trace: kobject_del /class/ktest_ifclass/ktifo",
		"trace: kobject_release ktifo",
		NULL,
	};
	bool was = devmodel_trace_enabled();
	struct class_device *o;
	u32 seq;

	KTEST_ASSERT_EQ(t, class_register(&kt_ifclass), 0);
	KTEST_ASSERT_EQ(t, class_interface_register(&intf3), 0);
	devmodel_set_trace(true);
	seq = log_seq();
	o = cd_add("ktifo");
	KTEST_EXPECT_TRUE(t, o && trace_is(seq, add));
	seq = log_seq();
	class_device_unregister(o);
	KTEST_EXPECT_TRUE(t, trace_is(seq, del));
	devmodel_set_trace(was);
	class_interface_unregister(&intf3);
	class_unregister(&kt_ifclass);
}

/*
 * As 2.6's class_interface_register (class_get) and _unregister (class_put):
 * the interface pins its class, so a class destroyed before its interface is
 * unregistered stays in memory until then (the host run catches a use after
 * free under ASan).
 */
static void interface_pins_its_class(struct ktest *t)
{
	struct class_interface intf = { .add = add3, .remove = remove3 };
	struct class *cls = class_create(NULL, "ktest_ifpin");
	unsigned int refs;

	KTEST_ASSERT_TRUE(t, !IS_ERR(cls));
	refs = kobject_refcount(&cls->subsys.kobj);
	intf.class = cls;
	KTEST_ASSERT_EQ(t, class_interface_register(&intf), 0);
	KTEST_EXPECT_EQ(t, kobject_refcount(&cls->subsys.kobj), refs + 1);
	class_destroy(cls);
	KTEST_EXPECT_EQ(t, kobject_refcount(&cls->subsys.kobj), 1);
	class_interface_unregister(&intf); /* drops the last reference */
}

static const struct ktest_case interface_cases[] = {
	KTEST_CASE(interface_sees_devices_before_and_after),
	KTEST_CASE(interface_needs_a_registered_class),
	KTEST_CASE(interface_failed_add_rolls_back),
	KTEST_CASE(interface_unregister_twice_warns),
	KTEST_CASE(interface_trace_shows_the_2_6_15_order),
	KTEST_CASE(interface_pins_its_class),
	KTEST_END,
};

static const struct ktest_suite interface_suite = {
	.name = "interface",
	.cases = interface_cases,
};
KTEST_SUITE(interface_suite);
