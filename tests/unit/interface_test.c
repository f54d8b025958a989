/* interface_test.c: class interfaces see every device of their class, in order. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static char calls[256];	/* "+1a" is interface 1 adding a; "-2c" interface 2 removing c */
static struct t_events events;
static bool whole_at_remove;	/* the device's files and no remove event yet */

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

static int add1(struct class_device *cd) { note('+', 1, cd); return 0; }
static int add2(struct class_device *cd) { note('+', 2, cd); return 0; }
static void remove1(struct class_device *cd) { note('-', 1, cd); check_whole(cd); }
static void remove2(struct class_device *cd) { note('-', 2, cd); check_whole(cd); }

static struct class kt_ifclass = { .name = "ktest_ifclass" };
static struct class_interface intf1 = { .class = &kt_ifclass, .add = add1, .remove = remove1 };
static struct class_interface intf2 = { .class = &kt_ifclass, .add = add2, .remove = remove2 };

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
	KTEST_EXPECT_STREQ(t, calls, "-2b ");	/* interface 1 is gone */
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

static const struct ktest_case interface_cases[] = {
	KTEST_CASE(interface_sees_devices_before_and_after),
	KTEST_CASE(interface_needs_a_registered_class),
	KTEST_END,
};

static const struct ktest_suite interface_suite = {
	.name = "interface",
	.cases = interface_cases,
};
KTEST_SUITE(interface_suite);
