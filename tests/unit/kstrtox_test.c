/* kstrtox_test.c: number parsing as attribute stores and parameters use it. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/string.h>

static void kstrtoul_accepts_whole_numbers(struct ktest *t)
{
	unsigned long v = 7;

	KTEST_EXPECT_EQ(t, kstrtoul("42", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, 42);
	KTEST_EXPECT_EQ(t, kstrtoul("42\n", 10, &v), 0);
	KTEST_EXPECT_EQ(t, kstrtoul("0x1f", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, 31);
	KTEST_EXPECT_EQ(t, kstrtoul("010", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, 8);
	KTEST_EXPECT_EQ(t, kstrtoul("0", 0, &v), 0);
	KTEST_EXPECT_EQ(t, v, 0);
}

static void kstrtoul_rejects_junk(struct ktest *t)
{
	unsigned long v = 7;

	KTEST_EXPECT_EQ(t, kstrtoul("", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("\n", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("12a", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("1 2", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("1\n\n", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("-1", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoul("99999999999999999999999", 10, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, v, 7);
}

static void kstrtoint_handles_sign_and_range(struct ktest *t)
{
	int v = 0;

	KTEST_EXPECT_EQ(t, kstrtoint("-5", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, -5);
	KTEST_EXPECT_EQ(t, kstrtoint("-2147483648", 10, &v), 0);
	KTEST_EXPECT_EQ(t, v, INT32_MIN);
	KTEST_EXPECT_EQ(t, kstrtoint("2147483648", 10, &v), -ERANGE);
	KTEST_EXPECT_EQ(t, kstrtoint("--1", 10, &v), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtoint("-+1", 10, &v), -EINVAL);
}

static void kstrtobool_takes_sysfs_words(struct ktest *t)
{
	bool b = false;

	KTEST_EXPECT_EQ(t, kstrtobool("1\n", &b), 0);
	KTEST_EXPECT_TRUE(t, b);
	KTEST_EXPECT_EQ(t, kstrtobool("0", &b), 0);
	KTEST_EXPECT_FALSE(t, b);
	KTEST_EXPECT_EQ(t, kstrtobool("2", &b), -EINVAL);
	KTEST_EXPECT_EQ(t, kstrtobool("", &b), -EINVAL);
}

static void strscpy_truncates_safely(struct ktest *t)
{
	char buf[4];

	KTEST_EXPECT_EQ(t, strscpy(buf, "abc", sizeof(buf)), 3);
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_EQ(t, strscpy(buf, "abcd", sizeof(buf)), -E2BIG);
	KTEST_EXPECT_STREQ(t, buf, "abc");
	KTEST_EXPECT_EQ(t, scnprintf(buf, sizeof(buf), "%d", 12345), 3);
	KTEST_EXPECT_STREQ(t, buf, "123");
	KTEST_EXPECT_TRUE(t, sysfs_streq("add\n", "add"));
	KTEST_EXPECT_FALSE(t, sysfs_streq("add\n\n", "add"));
	KTEST_EXPECT_STREQ(t, kstrerror(-ENODEV), "No such device");
	KTEST_EXPECT_STREQ(t, kstrerror(-ERESTARTSYS), "Interrupted system call");
}

static const struct ktest_case kstrtox_cases[] = {
	KTEST_CASE(kstrtoul_accepts_whole_numbers),
	KTEST_CASE(kstrtoul_rejects_junk),
	KTEST_CASE(kstrtoint_handles_sign_and_range),
	KTEST_CASE(kstrtobool_takes_sysfs_words),
	KTEST_CASE(strscpy_truncates_safely),
	KTEST_END,
};

static const struct ktest_suite kstrtox_suite = {
	.name = "lib",
	.cases = kstrtox_cases,
};
KTEST_SUITE(kstrtox_suite);
