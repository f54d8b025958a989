/* sysctl_test.c: /proc/sys's handlers, proc_dostring and proc_dointvec, as a write and a read use them. */
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/string.h>
#include <kobold/sysctl.h>

static int write_str(struct ctl_table *t, const char *s)
{
	char buf[512];
	size_t len = strlen(s);
	loff_t pos = 0;

	memcpy(buf, s, len + 1);
	return t->proc_handler(t, 1, buf, &len, &pos);
}

static const char *read_str(struct ctl_table *t, char *buf, size_t size)
{
	size_t len = size;
	loff_t pos = 0;

	if (t->proc_handler(t, 0, buf, &len, &pos))
		return "(error)";
	buf[len] = '\0';
	return buf;
}

static void dostring_takes_a_line_and_refuses_one_too_long(struct ktest *t)
{
	char data[8] = "old", buf[64], longer[9];
	struct ctl_table e = { .procname = "s", .data = data, .maxlen = sizeof(data), .mode = 0644, .proc_handler = proc_dostring };

	KTEST_EXPECT_STREQ(t, read_str(&e, buf, sizeof(buf)), "old\n");
	KTEST_EXPECT_EQ(t, write_str(&e, "/a/b\n"), 0);
	KTEST_EXPECT_STREQ(t, data, "/a/b");
	KTEST_EXPECT_EQ(t, write_str(&e, "1234567"), 0); /* maxlen - 1: fits */
	KTEST_EXPECT_STREQ(t, data, "1234567");
	memset(longer, 'x', 8);
	longer[8] = '\0';
	KTEST_EXPECT_EQ(t, write_str(&e, longer), -EINVAL);
	KTEST_EXPECT_STREQ(t, data, "1234567"); /* unchanged */
	KTEST_EXPECT_EQ(t, write_str(&e, "\n"), 0);
	KTEST_EXPECT_STREQ(t, data, ""); /* empty: the hotplug helper off */
}

static void dointvec_reads_and_writes_all_or_nothing(struct ktest *t)
{
	int v[2] = { 1, 2 }, lo = 0, hi = 100;
	char buf[64];
	struct ctl_table e = { .procname = "v", .data = v, .maxlen = sizeof(v), .mode = 0644, .proc_handler = proc_dointvec };

	KTEST_EXPECT_STREQ(t, read_str(&e, buf, sizeof(buf)), "1\t2\n");
	KTEST_EXPECT_EQ(t, write_str(&e, "7 -8\n"), 0);
	KTEST_EXPECT_EQ(t, v[0], 7);
	KTEST_EXPECT_EQ(t, v[1], -8);
	KTEST_EXPECT_EQ(t, write_str(&e, "5 x"), -EINVAL);
	KTEST_EXPECT_EQ(t, write_str(&e, "1 2 3"), -EINVAL);
	KTEST_EXPECT_EQ(t, write_str(&e, ""), -EINVAL);
	KTEST_EXPECT_EQ(t, v[0], 7); /* a bad write changes nothing */
	e.proc_handler = proc_dointvec_minmax;
	e.extra1 = &lo;
	e.extra2 = &hi;
	KTEST_EXPECT_EQ(t, write_str(&e, "50 101"), -EINVAL);
	KTEST_EXPECT_EQ(t, v[0], 7);
	KTEST_EXPECT_EQ(t, write_str(&e, "50 100"), 0);
	KTEST_EXPECT_EQ(t, v[1], 100);
}

static void doulongvec_takes_one_value_within_its_bounds(struct ktest *t)
{
	unsigned long v = 65536, lo = 1;
	struct ctl_table e = { .procname = "aio-max-nr", .data = &v, .maxlen = sizeof(v), .mode = 0644, .proc_handler = proc_doulongvec_minmax, .extra1 = &lo };
	char buf[32];

	KTEST_EXPECT_STREQ(t, read_str(&e, buf, sizeof(buf)), "65536\n");
	KTEST_EXPECT_EQ(t, write_str(&e, "3000000000\n"), 0); /* past INT_MAX: an unsigned long */
	KTEST_EXPECT_STREQ(t, read_str(&e, buf, sizeof(buf)), "3000000000\n");
	KTEST_EXPECT_EQ(t, write_str(&e, "0"), -EINVAL); /* below extra1 */
	KTEST_EXPECT_EQ(t, write_str(&e, "5 6"), -EINVAL);
	KTEST_EXPECT_EQ(t, write_str(&e, "x"), -EINVAL);
	KTEST_EXPECT_EQ(t, v, 3000000000UL);
}

static void the_tree_has_kernel_fs_vm_and_hotplug(struct ktest *t)
{
	KTEST_EXPECT_STREQ(t, sysctl_root_table[0].procname, "fs");
	KTEST_EXPECT_STREQ(t, sysctl_root_table[1].procname, "kernel");
	KTEST_EXPECT_STREQ(t, sysctl_root_table[2].procname, "vm");
	KTEST_EXPECT_TRUE(t, sysctl_root_table[3].procname == NULL);
	KTEST_EXPECT_STREQ(t, sysctl_root_table[1].child[0].procname, "hotplug");
	KTEST_EXPECT_STREQ(t, sysctl_root_table[1].child[1].procname, "pid_max");
	KTEST_EXPECT_STREQ(t, sysctl_root_table[0].child[0].procname, "aio-max-nr");
	KTEST_EXPECT_STREQ(t, sysctl_root_table[0].child[1].procname, "aio-nr");
}

static const struct ktest_case sysctl_cases[] = {
	KTEST_CASE(dostring_takes_a_line_and_refuses_one_too_long),
	KTEST_CASE(dointvec_reads_and_writes_all_or_nothing),
	KTEST_CASE(doulongvec_takes_one_value_within_its_bounds),
	KTEST_CASE(the_tree_has_kernel_fs_vm_and_hotplug),
	KTEST_END,
};

static const struct ktest_suite sysctl_suite = {
	.name = "sysctl",
	.cases = sysctl_cases,
};
KTEST_SUITE(sysctl_suite);
