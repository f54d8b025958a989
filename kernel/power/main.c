/*
 * main.c: /sys/power (Linux's kernel/power/main.c): "state" to suspend
 * (writing "mem"), and "pm_test" to stop a suspend at a level and come back.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/string.h>
#include <kobold/suspend.h>

static struct kset power_subsys; /* /sys/power */

static const char *const pm_tests[] = { [TEST_NONE] = "none",
					[TEST_CORE] = "core",
					[TEST_CPUS] = "processors",
					[TEST_DEVICES] = "devices" };

/* A word written to a file, with echo's newline: true if it is want. */
static bool word_is(const char *buf, size_t count, const char *want)
{
	size_t len = strlen(want);

	if (count && buf[count - 1] == '\n')
		count--;
	return count == len && memcmp(buf, want, len) == 0;
}

static ssize_t state_show(struct kset *kset, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "mem\n");
}

static ssize_t state_store(struct kset *kset, const char *buf, size_t count)
{
	int err;

	if (!word_is(buf, count, "mem"))
		return -EINVAL;
	err = pm_suspend();
	return err ? err : (ssize_t)count;
}

/* As Linux: every level, the chosen one in brackets. */
static ssize_t pm_test_show(struct kset *kset, char *buf)
{
	int n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(pm_tests); i++)
		n += scnprintf(buf + n, SYSFS_PAGE_SIZE - (size_t)n, i == pm_test_level ? "[%s]%s" : "%s%s",
			       pm_tests[i], i + 1 < ARRAY_SIZE(pm_tests) ? " " : "\n");
	return n;
}

static ssize_t pm_test_store(struct kset *kset, const char *buf, size_t count)
{
	for (size_t i = 0; i < ARRAY_SIZE(pm_tests); i++)
		if (word_is(buf, count, pm_tests[i])) {
			pm_test_level = (enum pm_test_level)i;
			return (ssize_t)count;
		}
	return -EINVAL;
}

static struct subsys_attribute state_attr = __ATTR(state, S_IRUGO | S_IWUSR, state_show,
						   state_store);
static struct subsys_attribute pm_test_attr = __ATTR(pm_test, S_IRUGO | S_IWUSR, pm_test_show,
						     pm_test_store);

int pm_init(void)
{
	int err = kobject_set_name(&power_subsys.kobj, "power");

	if (!err)
		err = kset_register(&power_subsys);
	if (!err)
		err = subsys_create_file(&power_subsys, &state_attr) ?: subsys_create_file(&power_subsys, &pm_test_attr);
	return err;
}
