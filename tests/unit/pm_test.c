/* pm_test.c: the PM core's order: suspend and shutdown children first, resume parents first, and a failed suspend undone. */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "devmodel_helpers.h"

static char calls[256];
static const char *fail_suspend; /* the device whose suspend fails */

static void note(const char *what, struct device *dev)
{
	size_t n = strlen(calls);

	scnprintf(calls + n, sizeof(calls) - n, "%s:%s ", what, dev->bus_id);
}

static int pm_probe(struct device *dev)
{
	return 0;
}
static int pm_remove(struct device *dev)
{
	return 0;
}
static void pm_shutdown(struct device *dev)
{
	note("shutdown", dev);
}
static int pm_resume(struct device *dev)
{
	note("resume", dev);
	return 0;
}

static int pm_suspend_dev(struct device *dev, pm_message_t state)
{
	if (fail_suspend && strcmp(dev->bus_id, fail_suspend) == 0)
		return -EBUSY;
	note("suspend", dev);
	return state.event == PM_EVENT_SUSPEND ? 0 : -EINVAL;
}

static struct bus_type pm_bus = { .name = "ktest_pm" };

static struct device_driver pm_drv = {
	.name = "ktpmdrv",
	.bus = &pm_bus,
	.probe = pm_probe,
	.remove = pm_remove,
	.shutdown = pm_shutdown,
	.suspend = pm_suspend_dev,
	.resume = pm_resume,
};

static void pm_release(struct device *dev)
{
	kfree(dev);
}

static struct device *pm_dev(const char *name, struct device *parent)
{
	struct device *d = kzalloc(sizeof(*d));

	if (!d)
		return NULL;
	strscpy(d->bus_id, name, BUS_ID_SIZE);
	d->parent = parent;
	d->bus = &pm_bus;
	d->release = pm_release;
	if (device_register(d)) {
		put_device(d);
		return NULL;
	}
	return d;
}

static struct device *devs[4]; /* P, then its children A and B, then A's child C */

static int pm_init(struct ktest *t)
{
	calls[0] = '\0';
	fail_suspend = NULL;
	if (bus_register(&pm_bus) || driver_register(&pm_drv))
		return -1;
	devs[0] = pm_dev("P", NULL);
	devs[1] = pm_dev("A", devs[0]);
	devs[2] = pm_dev("B", devs[0]);
	devs[3] = pm_dev("C", devs[1]);
	return devs[3] ? 0 : -1;
}

static void pm_exit(struct ktest *t)
{
	for (int i = 3; i >= 0; i--)
		if (devs[i])
			device_unregister(devs[i]);
	driver_unregister(&pm_drv);
	bus_unregister(&pm_bus);
}

static void pm_suspend_children_first_resume_parents_first(struct ktest *t)
{
	KTEST_EXPECT_EQ(t, device_suspend(PMSG_SUSPEND), 0);
	KTEST_EXPECT_STREQ(t, calls, "suspend:C suspend:B suspend:A suspend:P ");
	KTEST_EXPECT_EQ(t, devs[1]->power.power_state.event, PM_EVENT_SUSPEND);
	calls[0] = '\0';
	device_resume();
	KTEST_EXPECT_STREQ(t, calls, "resume:P resume:A resume:B resume:C ");
	KTEST_EXPECT_EQ(t, devs[1]->power.power_state.event, PM_EVENT_ON);
	calls[0] = '\0';
	device_resume(); /* nothing suspended: nothing to do */
	KTEST_EXPECT_STREQ(t, calls, "");
}

static void pm_failed_suspend_resumes_the_suspended(struct ktest *t)
{
	u32 seq = log_seq();

	fail_suspend = "A";
	KTEST_EXPECT_EQ(t, device_suspend(PMSG_SUSPEND), -EBUSY);
	KTEST_EXPECT_STREQ(t, calls, "suspend:C suspend:B resume:B resume:C ");
	KTEST_EXPECT_TRUE(t, log_search(seq, "Could not suspend device A: error -16"));
	KTEST_EXPECT_EQ(t, devs[3]->power.power_state.event, PM_EVENT_ON);
	fail_suspend = NULL;
	calls[0] = '\0';
	KTEST_EXPECT_EQ(t, device_suspend(PMSG_SUSPEND), 0); /* the lists are whole again */
	KTEST_EXPECT_STREQ(t, calls, "suspend:C suspend:B suspend:A suspend:P ");
	device_resume();
}

static void pm_shutdown_children_first_and_unbound_skipped(struct ktest *t)
{
	device_release_driver(devs[2]); /* B has no driver now: no shutdown */
	device_shutdown();
	KTEST_EXPECT_STREQ(t, calls, "shutdown:C shutdown:A shutdown:P ");
	calls[0] = '\0';
	device_unregister(devs[3]); /* a removed device leaves the PM list */
	devs[3] = NULL;
	KTEST_EXPECT_EQ(t, device_suspend(PMSG_SUSPEND), 0);
	KTEST_EXPECT_STREQ(t, calls, "suspend:A suspend:P ");
	device_resume();
}

static const struct ktest_case pm_cases[] = {
	KTEST_CASE(pm_suspend_children_first_resume_parents_first),
	KTEST_CASE(pm_failed_suspend_resumes_the_suspended),
	KTEST_CASE(pm_shutdown_children_first_and_unbound_skipped),
	KTEST_END,
};

static const struct ktest_suite pm_suite = {
	.name = "pm",
	.cases = pm_cases,
	.init = pm_init,
	.exit = pm_exit,
};
KTEST_SUITE(pm_suite);
