/*
 * pid.c: the PID bitmap. A PID stays used from its thread's creation until
 * its task_struct is freed, so a zombie's PID is never handed to another
 * process before its parent reaps it.
 */
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/param.h>
#include <kobold/pid.h>
#include <kobold/types.h>

int pid_max = PID_MAX_DEFAULT;
core_param(pid_max, pid_max, int, "PIDs go up to this one less, then wrap (301-32768)");

int last_pid = 1; /* 1 is the boot thread's, which is never freed */

/* Bits 0 and 1 set: PID 0 is the idle threads', PID 1 the boot thread's. */
static unsigned long pidmap[PID_MAX_LIMIT / 32] = { 0x3 };

static bool test_and_set(int pid)
{
	unsigned long bit = 1UL << (pid % 32);
	bool was = pidmap[pid / 32] & bit;

	pidmap[pid / 32] |= bit;
	return was;
}

/* pid_max as 2.6's sysctl bounds it: RESERVED_PIDS + 1 to PID_MAX_LIMIT. */
static int effective_pid_max(void)
{
	if (pid_max <= RESERVED_PIDS)
		return RESERVED_PIDS + 1;
	return pid_max > PID_MAX_LIMIT ? PID_MAX_LIMIT : pid_max;
}

int alloc_pid(void)
{
	unsigned long flags = local_irq_save();
	int max = effective_pid_max(), pid = last_pid + 1, found = -EAGAIN;

	for (int tries = 0; tries < max; tries++, pid++) {
		if (pid >= max)
			pid = RESERVED_PIDS;
		if (!test_and_set(pid)) {
			found = last_pid = pid;
			break;
		}
	}
	local_irq_restore(flags);
	return found;
}

void free_pid(int pid)
{
	unsigned long flags;

	if (pid <= 1 || pid >= PID_MAX_LIMIT)
		return;
	flags = local_irq_save();
	pidmap[pid / 32] &= ~(1UL << (pid % 32));
	local_irq_restore(flags);
}
