/*
 * preempt.c: the preemption count and might_sleep()'s check (Linux 2.6.18's
 * __might_sleep in kernel/sched.c), and the running thread as lockdep sees it.
 */
#include <kobold/clock.h>
#include <kobold/irqflags.h>
#include <kobold/lockdep.h>
#include <kobold/printk.h>
#include <kobold/sched.h>

bool scheduler_running;
#ifdef KOBOLD_HOST
struct thread_info host_thread_info = { .task = &init_task };
unsigned long host_irq_flags = X86_EFLAGS_IF; /* include/kobold/irqflags.h: interrupts on */
#endif

void __might_sleep(const char *file, int line)
{
	static u64 last_ns; /* at most one report a second */
	u64 now;

	if (!(in_atomic() || irqs_disabled()) || !scheduler_running)
		return;
	now = ktime_get_ns();
	if (last_ns && now - last_ns < 1000000000ULL)
		return;
	last_ns = now ? now : 1;
	printk(KERN_ERR "BUG: sleeping function called from invalid context at %s:%d\n", file,
	       line);
	printk(KERN_ERR "in_atomic():%d, irqs_disabled():%d\n", in_atomic() ? 1 : 0,
	       irqs_disabled() ? 1 : 0);
	lockdep_print_held_locks(&current->lockdep);
	dump_stack();
}

struct lockdep_task *lockdep_current(void) { return &current->lockdep; }

const char *lockdep_task_name(const struct lockdep_task *t)
{
	return container_of(t, struct task_struct, lockdep)->comm;
}

int lockdep_task_pid(const struct lockdep_task *t)
{
	return container_of(t, struct task_struct, lockdep)->pid;
}
