/*
 * kthread.c: kernel threads, made by kthreadd (PID 2) on request, as Linux
 * 2.6.22's kernel/kthread.c: a caller queues what it wants and waits; the
 * thread starts stopped, and kthread_stop ends it.
 */
#include <kobold/completion.h>
#include <kobold/errno.h>
#include <kobold/kthread.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>

struct kthread_create_info {
	int (*threadfn)(void *data);
	void *data;
	char name[TASK_COMM_LEN];
	struct task_struct *result; /* NULL: no memory */
	struct completion done;
	struct list_head list;
};

static struct task_struct *kthreadd_task;
static LIST_HEAD(kthread_create_list);
static DEFINE_SPINLOCK(kthread_create_lock);

/* Every kthread runs this: its function, unless it was stopped before it ever ran. */
static int kthread(void *unused)
{
	if (current->should_stop)
		return -EINTR;
	return current->kthread_fn(current->kthread_data);
}

static void create_kthread(struct kthread_create_info *create)
{
	struct task_struct *p = create_thread(kthread, NULL, create->name);

	if (p) {
		p->kthread_fn = create->threadfn;
		p->kthread_data = create->data;
	}
	create->result = p;
	complete(&create->done);
}

static struct kthread_create_info *next_request(void)
{
	struct kthread_create_info *create = NULL;

	spin_lock(&kthread_create_lock);
	if (!list_empty(&kthread_create_list)) {
		create = list_first_entry(&kthread_create_list, struct kthread_create_info, list);
		list_del_init(&create->list);
	}
	spin_unlock(&kthread_create_lock);
	return create;
}

static int kthreadd(void *unused)
{
	struct kthread_create_info *create;

	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (list_empty(&kthread_create_list))
			schedule();
		__set_current_state(TASK_RUNNING);
		while ((create = next_request()))
			create_kthread(create);
	}
	return 0;
}

struct task_struct *kthread_create(int (*threadfn)(void *data), void *data, const char *namefmt,
				   ...)
{
	struct kthread_create_info create = { .threadfn = threadfn, .data = data };
	va_list ap;

	va_start(ap, namefmt);
	vsnprintf(create.name, sizeof(create.name), namefmt, ap);
	va_end(ap);
	init_completion(&create.done);
	spin_lock(&kthread_create_lock);
	list_add_tail(&create.list, &kthread_create_list);
	spin_unlock(&kthread_create_lock);
	wake_up_process(kthreadd_task);
	wait_for_completion(&create.done);
	return create.result ? create.result : ERR_PTR(-ENOMEM);
}

struct task_struct *kthread_create_on_cpu(int (*threadfn)(void *data), void *data,
					  unsigned int cpu, const char *namefmt)
{
	struct task_struct *k = kthread_create(threadfn, data, namefmt, cpu);

	if (!IS_ERR(k))
		kthread_bind(k, cpu);
	return k;
}

int kthread_stop(struct task_struct *k)
{
	unsigned long flags;
	int ret;

	get_task_struct(k);
	k->should_stop = true;
	k->stopper = current;
	wake_up_process(k);
	flags = local_irq_save();
	while (k->state != TASK_DEAD) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	local_irq_restore(flags);
	ret = k->exit_code;
	put_task_struct(k);
	return ret;
}

bool kthread_should_stop(void) { return current->should_stop; }

void kthreadd_init(void)
{
	kthreadd_task = create_thread(kthreadd, NULL, "kthreadd");
	if (!kthreadd_task)
		panic("kthreadd: no memory");
	wake_up_process(kthreadd_task);
}
