/* uevent_test.c: hotplug events: variables, limits, seqnum, journal, listeners, uevent file. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static int nvars; /* variables the class callback adds */
static int fill;  /* if nonzero: one variable of buffer_size + fill - 1 bytes with its NUL */
static int seen_num_envp, seen_buffer_size;

static int kt_hotplug(struct class_device *cd __unused, char **envp, int num_envp, char *buffer,
		      int buffer_size)
{
	int i = 0, len = 0, k, err;

	seen_num_envp = num_envp;
	seen_buffer_size = buffer_size;
	if (fill) /* "F=000...": 2 + digits + NUL bytes */
		return add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					   "F=%0*d", buffer_size + fill - 1 - 3, 0);
	for (k = 0; k < nvars; k++) {
		err = add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
					  "V%d=%d", k, k);
		if (err)
			return err;
	}
	envp[i] = NULL;
	return 0;
}

static void free_cd(struct class_device *cd)
{
	kfree(cd);
}

static struct class kt_uclass = {
	.name = "ktest_uevent",
	.hotplug = kt_hotplug,
	.release = free_cd,
};

static struct class_device *cd_new(const char *id)
{
	struct class_device *cd = kzalloc(sizeof(*cd));

	if (cd) {
		cd->class = &kt_uclass;
		strscpy(cd->class_id, id, BUS_ID_SIZE);
	}
	return cd;
}

static int uevent_init(struct ktest *t __unused)
{
	nvars = 1;
	fill = 0;
	return class_register(&kt_uclass);
}

static void uevent_exit(struct ktest *t __unused)
{
	class_unregister(&kt_uclass);
}

struct last {
	u64 seqnum;
	u64 prev_ts;
	bool ordered;
	char action[8], devpath[64], subsystem[32], v0[8];
	int envc;
};

static void take_last(const struct uevent_record *rec, void *arg)
{
	struct last *l = arg;
	const char *v0 = uevent_record_get(rec, "V0");

	l->ordered &= rec->timestamp_ns >= l->prev_ts;
	l->prev_ts = rec->timestamp_ns;
	l->seqnum = rec->seqnum;
	l->envc = rec->envc;
	strscpy(l->action, rec->action, sizeof(l->action));
	strscpy(l->devpath, rec->devpath, sizeof(l->devpath));
	strscpy(l->subsystem, rec->subsystem, sizeof(l->subsystem));
	strscpy(l->v0, v0 ? v0 : "", sizeof(l->v0));
}

static void uevent_add_and_remove_events(struct ktest *t)
{
	struct class_device *cd = cd_new("ktu0");
	struct last l = { .ordered = true };
	struct t_events e;
	u64 seq0 = uevent_seqnum;
	char want[64];

	KTEST_ASSERT_TRUE(t, cd);
	t_events_start(&e);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	KTEST_EXPECT_EQ(t, uevent_seqnum, seq0 + 1);
	scnprintf(want, sizeof(want), "|SEQNUM=%llu|V0=0|", (unsigned long long)seq0 + 1);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "ACTION=add|DEVPATH=/class/ktest_uevent/ktu0|SUBSYSTEM=ktest_uevent|SEQNUM="));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, want));
	uevent_journal_for_each(take_last, &l);
	KTEST_EXPECT_EQ(t, l.seqnum, seq0 + 1);
	KTEST_EXPECT_STREQ(t, l.action, "add");
	KTEST_EXPECT_STREQ(t, l.devpath, "/class/ktest_uevent/ktu0");
	KTEST_EXPECT_STREQ(t, l.subsystem, "ktest_uevent");
	KTEST_EXPECT_STREQ(t, l.v0, "0");
	KTEST_EXPECT_EQ(t, l.envc, 5);
	KTEST_EXPECT_TRUE(t, l.ordered);
	class_device_unregister(cd);
	t_events_stop(&e);
	KTEST_EXPECT_EQ(t, e.n, 2);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 1, "ACTION=remove|DEVPATH=/class/ktest_uevent/ktu0|"));
	KTEST_EXPECT_EQ(t, uevent_seqnum, seq0 + 2);
}

static void uevent_num_envp_limit_is_exact(struct ktest *t)
{
	struct class_device *cd = cd_new("ktu1");
	struct t_events e;
	u64 seq0;
	u32 log0;

	KTEST_ASSERT_TRUE(t, cd);
	nvars = 0;
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	KTEST_EXPECT_EQ(t, seen_num_envp, NUM_ENVP - 4); /* after the four core keys */
	t_events_start(&e);
	nvars = NUM_ENVP - 4 - 1; /* fills every slot but the NULL */
	seq0 = uevent_seqnum;
	KTEST_EXPECT_EQ(t, kobject_hotplug(&cd->kobj, KOBJ_CHANGE), 0);
	KTEST_EXPECT_EQ(t, uevent_seqnum, seq0 + 1);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "|V26=26|"));
	nvars++; /* one more: refused, no seqnum used */
	log0 = log_seq();
	KTEST_EXPECT_EQ(t, kobject_hotplug(&cd->kobj, KOBJ_CHANGE), -ENOMEM);
	KTEST_EXPECT_EQ(t, uevent_seqnum, seq0 + 1);
	KTEST_EXPECT_EQ(t, e.n, 1);
	KTEST_EXPECT_TRUE(t, log_search(log0, "ktu1: change event not sent"));
	nvars = 0;
	t_events_stop(&e);
	class_device_unregister(cd);
}

static void uevent_buffer_size_limit_is_exact(struct ktest *t)
{
	struct class_device *cd = cd_new("ktu2");
	u64 seq0;

	KTEST_ASSERT_TRUE(t, cd);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	KTEST_ASSERT_TRUE(t, seen_buffer_size > 100 && seen_buffer_size < HOTPLUG_BUFFER_SIZE);
	seq0 = uevent_seqnum;
	fill = 1; /* the whole buffer left, NUL included */
	KTEST_EXPECT_EQ(t, kobject_hotplug(&cd->kobj, KOBJ_CHANGE), 0);
	fill = 2; /* one byte too many */
	KTEST_EXPECT_EQ(t, kobject_hotplug(&cd->kobj, KOBJ_CHANGE), -ENOMEM);
	KTEST_EXPECT_EQ(t, uevent_seqnum, seq0 + 1);
	fill = 0;
	class_device_unregister(cd);
}

/*
 * A class device's uevent file, as 2.6.15 to 2.6.25: write-only, and any
 * write sends add, whatever it says; the keys are there for udev to read.
 */
static void uevent_file_is_write_only_and_sends_add(struct ktest *t)
{
	struct class_device *cd = cd_new("ktu3");
	struct t_events e;
	char buf[64];

	KTEST_ASSERT_TRUE(t, cd);
	cd->devt = MKDEV(8, 16);
	nvars = 2;
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	KTEST_EXPECT_TRUE(t, t_cat("/sys/class/ktest_uevent/ktu3/uevent", buf, sizeof(buf)) < 0);
	KTEST_EXPECT_EQ(t, t_uevent("/sys/class/ktest_uevent/ktu3/uevent", buf, sizeof(buf)), 0);
	KTEST_EXPECT_STREQ(t, buf, "MAJOR=8\nMINOR=16\nV0=0\nV1=1\n");
	t_events_start(&e);
	KTEST_EXPECT_EQ(t, t_echo("/sys/class/ktest_uevent/ktu3/uevent", "change\n"), 7);
	KTEST_EXPECT_EQ(t, t_echo("/sys/class/ktest_uevent/ktu3/uevent", "remove"), 6);
	KTEST_EXPECT_EQ(t, t_echo("/sys/class/ktest_uevent/ktu3/uevent", "bogus"), 5);
	t_events_stop(&e);
	KTEST_EXPECT_EQ(t, e.n, 3);
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "ACTION=add|DEVPATH=/class/ktest_uevent/ktu3|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 0, "|MAJOR=8|MINOR=16|V0=0|V1=1|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 1, "ACTION=add|"));
	KTEST_EXPECT_TRUE(t, t_event_has(&e, 2, "ACTION=add|"));
	KTEST_EXPECT_EQ(t, t_lookup("/sys/class/ktest_uevent/ktu3"), 0); /* still there */
	class_device_unregister(cd);
	KTEST_EXPECT_EQ(t, e.n, 3); /* the listener was unregistered */
}

static void count_records(const struct uevent_record *rec __unused, void *arg)
{
	(*(int *)arg)++;
}

static void uevent_journal_is_bounded(struct ktest *t)
{
	struct class_device *cd = cd_new("ktu4");
	unsigned long dropped0;
	int i, n = 0;

	KTEST_ASSERT_TRUE(t, cd);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	for (i = 0; i < UEVENT_JOURNAL_LEN; i++) /* enough to fill the ring */
		kobject_hotplug(&cd->kobj, KOBJ_CHANGE);
	dropped0 = uevent_journal_dropped();
	kobject_hotplug(&cd->kobj, KOBJ_CHANGE);
	KTEST_EXPECT_EQ(t, uevent_journal_dropped(), dropped0 + 1);
	uevent_journal_for_each(count_records, &n);
	KTEST_EXPECT_EQ(t, n, UEVENT_JOURNAL_LEN);
	class_device_unregister(cd);
}

static void uevent_trace_shows_events(struct ktest *t)
{
	struct class_device *cd = cd_new("ktu5");
	bool was = devmodel_trace_enabled();
	u32 seq = log_seq();

	KTEST_ASSERT_TRUE(t, cd);
	devmodel_set_trace(true);
	KTEST_ASSERT_EQ(t, class_device_register(cd), 0);
	class_device_unregister(cd);
	devmodel_set_trace(was);
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: class_device_add /class/ktest_uevent/ktu5"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: kobject_hotplug /class/ktest_uevent/ktu5 add"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: class_device_del /class/ktest_uevent/ktu5"));
	KTEST_EXPECT_TRUE(t, log_search(seq, "trace: kobject_release ktu5"));
	KTEST_EXPECT_EQ(t, devmodel_trace_enabled(), was);
}

static const char *null_name(struct kset *kset __unused, struct kobject *kobj __unused)
{
	return NULL;
}

static struct kset_hotplug_ops null_name_ops = { .name = null_name };

static void kfree_kobj(struct kobject *kobj)
{
	kfree(kobj);
}

static struct kobj_type kfree_ktype = { .release = kfree_kobj };

/* A name() that returns NULL: SUBSYSTEM falls back to the kset's name, as in 2.6. */
static void uevent_subsystem_falls_back_to_the_kset(struct ktest *t)
{
	struct kset *ks = kzalloc(sizeof(*ks));
	struct kobject *k = kzalloc(sizeof(*k));
	struct t_events ev;

	KTEST_ASSERT_TRUE(t, ks && k);
	kobject_set_name(&ks->kobj, "ktest_ukset");
	ks->hotplug_ops = &null_name_ops;
	KTEST_ASSERT_EQ(t, kset_register(ks), 0);
	k->ktype = &kfree_ktype;
	k->kset = ks;
	kobject_init(k);
	kobject_set_name(k, "ktuk");
	KTEST_ASSERT_EQ(t, kobject_add(k), 0);
	t_events_start(&ev);
	KTEST_EXPECT_EQ(t, kobject_hotplug(k, KOBJ_ADD), 0);
	t_events_stop(&ev);
	KTEST_EXPECT_EQ(t, ev.n, 1);
	KTEST_EXPECT_TRUE(t, t_event_has(&ev, 0, "|SUBSYSTEM=ktest_ukset|"));
	kobject_del(k);
	kobject_put(k);
	kset_unregister(ks);
	kfree(ks);
}

static const struct ktest_case uevent_cases[] = {
	KTEST_CASE(uevent_add_and_remove_events),
	KTEST_CASE(uevent_num_envp_limit_is_exact),
	KTEST_CASE(uevent_buffer_size_limit_is_exact),
	KTEST_CASE(uevent_file_is_write_only_and_sends_add),
	KTEST_CASE(uevent_journal_is_bounded),
	KTEST_CASE(uevent_trace_shows_events),
	KTEST_CASE(uevent_subsystem_falls_back_to_the_kset),
	KTEST_END,
};

static const struct ktest_suite uevent_suite = {
	.name = "uevent",
	.cases = uevent_cases,
	.init = uevent_init,
	.exit = uevent_exit,
};
KTEST_SUITE(uevent_suite);
