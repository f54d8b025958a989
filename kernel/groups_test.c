/*
 * groups_test.c: `test=groups`, kernel only: setgroups and setgroups16
 * that run out of memory (failslab on the calling thread) fail with ENOMEM
 * and leave the old list, and a 16-bit 0xffff is gid -1, as 2.6's uid16.c
 * (user/usertests.c checks the same from user space, on Linux too).
 */
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/thread_info.h>
#include <kobold/uaccess.h>

long sys_setgroups(int n, const u32 __user *list);
long sys_getgroups(int n, u32 __user *list);
long sys_setgroups16(int n, const u16 __user *list);
long sys_getgroups16(int n, u16 __user *list);

/* The calls take this thread's kernel buffers (2.6's set_fs(KERNEL_DS)); its groups are put back. */
static struct group_info *begin(void)
{
	struct group_info *saved = get_group_info(current->user.group_info);

	current_thread_info()->uaccess_kernel = true;
	return saved;
}

static void end(struct group_info *saved)
{
	current_thread_info()->uaccess_kernel = false;
	put_group_info(current->user.group_info);
	current->user.group_info = saved;
}

/* setgroups (32- or 16-bit) with its allocation failing: what it returned. */
static long setgroups_failing(bool sixteen, int n, const void *list)
{
	long ret;

	kmalloc_fail_task(current);
	kmalloc_fail_nth(1);
	ret = sixteen ? sys_setgroups16(n, list) : sys_setgroups(n, list);
	kmalloc_fail_nth(0);
	kmalloc_fail_task(NULL);
	return ret;
}

static void groups_setgroups_out_of_memory_keeps_the_old_list(struct ktest *t)
{
	struct group_info *saved = begin();
	u32 old[2] = { 20, 10 }, new[1] = { 99 }, got[3] = { 0 };
	u16 new16[1] = { 98 };
	unsigned long injected = kmalloc_fail_injected();

	KTEST_EXPECT_EQ(t, sys_setgroups(2, old), 0);
	KTEST_EXPECT_EQ(t, setgroups_failing(false, 1, new), -ENOMEM);
	KTEST_EXPECT_EQ(t, setgroups_failing(true, 1, new16), -ENOMEM);
	KTEST_EXPECT_EQ(t, setgroups_failing(false, 0, NULL), -ENOMEM); /* the empty list is one too */
	KTEST_EXPECT_EQ(t, kmalloc_fail_injected(), injected + 3);
	KTEST_EXPECT_EQ(t, sys_getgroups(3, got), 2);
	KTEST_EXPECT_EQ(t, got[0], 10);
	KTEST_EXPECT_EQ(t, got[1], 20);
	KTEST_EXPECT_EQ(t, sys_setgroups(1, new), 0); /* with memory, as asked */
	KTEST_EXPECT_EQ(t, sys_getgroups(3, got), 1);
	KTEST_EXPECT_EQ(t, got[0], 99);
	end(saved);
}

static void groups_setgroups16_minus_one_is_gid_minus_one(struct ktest *t)
{
	struct group_info *saved = begin();
	u16 set16[3] = { 0xffff, 7, 0x8000 }, got16[3] = { 0 };
	u32 got[3] = { 0 };

	KTEST_EXPECT_EQ(t, sys_setgroups16(3, set16), 0);
	KTEST_EXPECT_EQ(t, sys_getgroups(3, got), 3);
	KTEST_EXPECT_EQ(t, got[0], 7);
	KTEST_EXPECT_EQ(t, got[1], 0x8000);
	KTEST_EXPECT_EQ(t, got[2], 0xffffffffu); /* -1, not 65535 */
	KTEST_EXPECT_EQ(t, sys_getgroups16(3, got16), 3);
	KTEST_EXPECT_EQ(t, got16[2], 65534); /* a gid past 16 bits reads as the overflow gid */
	KTEST_EXPECT_TRUE(t, in_group_p(0xffffffffu));
	KTEST_EXPECT_FALSE(t, in_group_p(0xffff));
	end(saved);
}

static const struct ktest_case groups_cases[] = {
	KTEST_CASE(groups_setgroups_out_of_memory_keeps_the_old_list),
	KTEST_CASE(groups_setgroups16_minus_one_is_gid_minus_one),
	KTEST_END,
};

static const struct ktest_suite groups_suite = {
	.name = "groups",
	.cases = groups_cases,
};
KTEST_SUITE(groups_suite);
