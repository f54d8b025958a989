/* sysdev_test.c: system devices: their sysfs names, and sysdev_suspend's order (classes backwards, devices forwards) with a failure undone. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sysdev.h>

#include "devmodel_helpers.h"

/* Host only: in the kernel the real controllers are on the same lists, and their suspend is not for a test. */
#ifdef KOBOLD_HOST

static char calls[256];
static const char *fail_suspend;

static void note(const char *what, struct sys_device *dev)
{
	size_t n = strlen(calls);

	scnprintf(calls + n, sizeof(calls) - n, "%s:%s ", what, kobject_name(&dev->kobj));
}

static int st_suspend(struct sys_device *dev, pm_message_t state)
{
	if (fail_suspend && strcmp(kobject_name(&dev->kobj), fail_suspend) == 0)
		return -EBUSY;
	note("s", dev);
	return 0;
}

static int st_resume(struct sys_device *dev)
{
	note("r", dev);
	return 0;
}

static int st_shutdown(struct sys_device *dev)
{
	note("d", dev);
	return 0;
}

static struct sysdev_class cls_a = { .name = "kta", .suspend = st_suspend, .resume = st_resume };
static struct sysdev_class cls_b = { .name = "ktb", .suspend = st_suspend, .resume = st_resume, .shutdown = st_shutdown };
static struct sys_device devs[] = { { .id = 0, .cls = &cls_a }, { .id = 1, .cls = &cls_a }, { .id = 0, .cls = &cls_b } };

static int sysdev_init(struct ktest *t)
{
	calls[0] = '\0';
	fail_suspend = NULL;
	if (sysdev_class_register(&cls_a) || sysdev_class_register(&cls_b))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(devs); i++)
		if (sysdev_register(&devs[i]))
			return -1;
	return 0;
}

static void sysdev_exit(struct ktest *t)
{
	for (size_t i = ARRAY_SIZE(devs); i-- > 0;)
		sysdev_unregister(&devs[i]);
	sysdev_class_unregister(&cls_b);
	sysdev_class_unregister(&cls_a);
}

static void sysdev_names_in_sysfs(struct ktest *t)
{
	struct sysfs_dirent *sd;

	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, "/sys/devices/system/kta/kta1", true, &sd), 0);
	sysfs_put(sd);
	KTEST_EXPECT_EQ(t, sysfs_lookup(NULL, "/sys/devices/system/ktb/ktb0", true, &sd), 0);
	sysfs_put(sd);
	KTEST_EXPECT_EQ(t, sysdev_register(&(struct sys_device){ .id = 0 }), -EINVAL); /* no class */
}

static void sysdev_suspend_classes_backwards(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, sysdev_suspend(PMSG_SUSPEND), 0);
	KTEST_EXPECT_STREQ(t, calls, "s:ktb0 s:kta0 s:kta1 ");
	calls[0] = '\0';
	sysdev_resume();
	KTEST_EXPECT_STREQ(t, calls, "r:kta0 r:kta1 r:ktb0 ");
	calls[0] = '\0';
	sysdev_shutdown();
	KTEST_EXPECT_STREQ(t, calls, "d:ktb0 ");
}

static void sysdev_failed_suspend_resumes_the_suspended(struct ktest *t)
{
	u32 seq = log_seq();

	fail_suspend = "kta1";
	KTEST_EXPECT_EQ(t, sysdev_suspend(PMSG_SUSPEND), -EBUSY);
	KTEST_EXPECT_STREQ(t, calls, "s:ktb0 s:kta0 r:kta0 r:ktb0 ");
	KTEST_EXPECT_TRUE(t, log_search(seq, "System device kta1 failed to suspend: error -16"));
}

/*
 * failslab's walk over sysdev_register, with names too long for the inline
 * buffer: each failure warns about nothing and leaks nothing (a lost event
 * does not fail the registration, as in 2.6).
 */
static void sysdev_register_unwinds_under_fault_injection(struct ktest *t)
{
	static struct sysdev_class cls = { .name = "ktest_sysdev_long_class" };
	struct sys_device dev = { .id = 12345, .cls = &cls };
	unsigned long n, injected, warns = warn_count;
	struct kmem_stats before, after;
	int err = -ENOMEM;

	KTEST_ASSERT_EQ(t, sysdev_class_register(&cls), 0);
	for (n = 1; n < 100; n++) {
		kmem_get_stats(&before);
		injected = before.failures;
		kmalloc_fail_nth(n);
		err = sysdev_register(&dev);
		kmalloc_fail_nth(0);
		if (!err)
			sysdev_unregister(&dev);
		kmem_get_stats(&after);
		KTEST_EXPECT_EQ(t, after.objects_in_use, before.objects_in_use);
		if (after.failures == injected)
			break; /* nothing failed: every path was walked */
	}
	KTEST_EXPECT_EQ(t, err, 0);
	KTEST_EXPECT_TRUE(t, n > 1 && n < 100);
	KTEST_EXPECT_EQ(t, warn_count, warns);
	sysdev_class_unregister(&cls);
}

static const struct ktest_case sysdev_cases[] = {
	KTEST_CASE(sysdev_names_in_sysfs),
	KTEST_CASE(sysdev_suspend_classes_backwards),
	KTEST_CASE(sysdev_failed_suspend_resumes_the_suspended),
	KTEST_CASE(sysdev_register_unwinds_under_fault_injection),
	KTEST_END,
};

static const struct ktest_suite sysdev_suite = {
	.name = "sysdev",
	.cases = sysdev_cases,
	.init = sysdev_init,
	.exit = sysdev_exit,
};
KTEST_SUITE(sysdev_suite);

#endif /* KOBOLD_HOST */
