/*
 * kmod_test.c: `test=umh`, kernel only: call_usermodehelper's three waits
 * on what a boot without a root filesystem has: an empty path runs
 * nothing, a missing program is -ENOENT without a process, a file that is
 * not a program fails its exec in a process that leaves nothing behind,
 * and UMH_NO_WAIT returns at once.
 */
#include <kobold/errno.h>
#include <kobold/kmod.h>
#include <kobold/ktest.h>
#include <kobold/sched.h>
#include <kobold/syscalls.h>
#include <kobold/time.h>

static char *argv_of[] = { "helper", "arg", NULL };
static char *envp_of[] = { "HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin", NULL };

static void started(struct ktest *t)
{
	KTEST_ASSERT_TRUE(t, usermodehelper_in_flight() == 0); /* khelper runs from early boot */
}

static void settled(struct ktest *t)
{
	for (int i = 0; i < 500 && usermodehelper_in_flight(); i++)
		msleep(10);
	KTEST_EXPECT_EQ(t, usermodehelper_in_flight(), 0);
}

static void umh_empty_path_runs_nothing(struct ktest *t)
{
	started(t);
	KTEST_EXPECT_EQ(t, call_usermodehelper("", argv_of, envp_of, UMH_WAIT_PROC), 0);
	KTEST_EXPECT_EQ(t, call_usermodehelper("", argv_of, envp_of, UMH_WAIT_EXEC), 0);
	KTEST_EXPECT_EQ(t, usermodehelper_in_flight(), 0);
}

static void umh_missing_program_is_enoent_for_each_wait(struct ktest *t)
{
	int procs = nr_user_processes;

	started(t);
	KTEST_EXPECT_EQ(t, call_usermodehelper("/sbin/nope", argv_of, envp_of, UMH_WAIT_EXEC), -ENOENT);
	KTEST_EXPECT_EQ(t, call_usermodehelper("/sbin/nope", argv_of, envp_of, UMH_WAIT_PROC), -ENOENT);
	KTEST_EXPECT_EQ(t, call_usermodehelper("/sbin/nope", argv_of, envp_of, UMH_NO_WAIT), 0);
	settled(t);
	KTEST_EXPECT_EQ(t, nr_user_processes, procs);
}

/* A file that is not a program: a process is made, its exec fails, it is reaped. */
static void umh_exec_error_comes_back_and_nothing_is_left(struct ktest *t)
{
	int procs = nr_user_processes, err;

	started(t);
	err = call_usermodehelper("/sys/kernel/uevent_seqnum", argv_of, envp_of, UMH_WAIT_EXEC);
	KTEST_EXPECT_TRUE(t, err < 0 && err != -ENOENT);
	err = call_usermodehelper("/sys/kernel/uevent_seqnum", argv_of, envp_of, UMH_WAIT_PROC);
	KTEST_EXPECT_TRUE(t, err < 0 && err != -ENOENT);
	KTEST_EXPECT_EQ(t, call_usermodehelper("/sys/kernel/uevent_seqnum", argv_of, envp_of, UMH_NO_WAIT), 0);
	settled(t);
	for (int i = 0; i < 100 && nr_user_processes != procs; i++)
		msleep(10); /* the last one exits after its exec failed */
	KTEST_EXPECT_EQ(t, nr_user_processes, procs);
}

static const struct ktest_case umh_cases[] = {
	KTEST_CASE(umh_empty_path_runs_nothing),
	KTEST_CASE(umh_missing_program_is_enoent_for_each_wait),
	KTEST_CASE(umh_exec_error_comes_back_and_nothing_is_left),
	KTEST_END,
};

static const struct ktest_suite umh_suite = {
	.name = "umh",
	.cases = umh_cases,
};
KTEST_SUITE(umh_suite);
