/* waitqueue_test.c: a wait queue entry joins once, wake_up marks every entry and names its thread, finish_wait leaves. */
#include <kobold/ktest.h>
#include <kobold/sched.h>
#include <kobold/wait.h>

static void waitqueue_wake_up_marks_every_entry(struct ktest *t)
{
	DECLARE_WAIT_QUEUE_HEAD(wq);
	struct wait_queue_entry a, b;

	INIT_LIST_HEAD(&a.entry);
	INIT_LIST_HEAD(&b.entry);
	wake_up(&wq); /* nobody waits: nothing */
	prepare_to_wait(&wq, &a);
	prepare_to_wait(&wq, &a); /* again, as a wait_event loop does: still once */
	prepare_to_wait(&wq, &b);
	KTEST_EXPECT_PTR_EQ(t, a.task, current);
	KTEST_EXPECT_PTR_EQ(t, wq.head.next, &a.entry);
	KTEST_EXPECT_PTR_EQ(t, wq.head.prev, &b.entry);
	KTEST_EXPECT_FALSE(t, a.woken);
	wake_up(&wq);
	KTEST_EXPECT_TRUE(t, a.woken);
	KTEST_EXPECT_TRUE(t, b.woken);
	prepare_to_wait(&wq, &a); /* a new round starts unwoken */
	KTEST_EXPECT_FALSE(t, a.woken);
	finish_wait(&wq, &a);
	finish_wait(&wq, &b);
	finish_wait(&wq, &b);
	KTEST_EXPECT_TRUE(t, list_empty(&wq.head));
	KTEST_EXPECT_EQ(t, current->state, TASK_RUNNING);
}

static void waitqueue_wait_event_true_at_once_does_not_queue(struct ktest *t)
{
	DECLARE_WAIT_QUEUE_HEAD(wq);
	int cond = 1;

	wait_event(wq, cond);
	KTEST_EXPECT_EQ(t, wait_event_interruptible(wq, cond), 0);
	KTEST_EXPECT_TRUE(t, list_empty(&wq.head));
}

static const struct ktest_case waitqueue_cases[] = {
	KTEST_CASE(waitqueue_wake_up_marks_every_entry),
	KTEST_CASE(waitqueue_wait_event_true_at_once_does_not_queue),
	KTEST_END,
};

static struct ktest_suite waitqueue_suite = {
	.name = "waitqueue",
	.cases = waitqueue_cases,
};
KTEST_SUITE(waitqueue_suite);
