/* kernel_lock.c: the big kernel lock, a mutex taken once per thread however deep the calls nest. */
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/smp_lock.h>

static DEFINE_MUTEX(kernel_mutex);

void lock_kernel(void)
{
	if (current->lock_depth++ == 0)
		mutex_lock(&kernel_mutex);
}

void unlock_kernel(void)
{
	if (WARN(current->lock_depth <= 0, "unlock_kernel without lock_kernel"))
		return;
	if (--current->lock_depth == 0)
		mutex_unlock(&kernel_mutex);
}

int release_kernel_lock(void)
{
	int depth = current->lock_depth;

	if (depth > 0) {
		current->lock_depth = 0;
		mutex_unlock(&kernel_mutex);
	}
	return depth;
}

void reacquire_kernel_lock(int depth)
{
	if (depth <= 0)
		return;
	mutex_lock(&kernel_mutex);
	current->lock_depth = depth;
}

bool kernel_lock_contended(void) { return !list_empty(&kernel_mutex.wait.head); }

bool kernel_locked(void) { return current->lock_depth > 0; }
