/*
 * smp_lock.h: the big kernel lock, lock_kernel()/unlock_kernel() as 2.6's
 * include/linux/smp_lock.h names it. A temporary, coarse lock: the device
 * model, sysfs, the VFS and the module list have none of 2.6's own locks
 * yet, so whoever touches them holds this one: the boot code until the
 * prompt, the shell while it runs a command line, the events/0 worker while
 * it runs one work item. It nests (per thread), as 2.6's did; unlike 2.6's
 * it is a mutex that stays held across a sleep (see docs/locking.md).
 */
#ifndef KOBOLD_SMP_LOCK_H
#define KOBOLD_SMP_LOCK_H

#include <kobold/types.h>

void lock_kernel(void);
void unlock_kernel(void);
/*
 * Lets go of it entirely for a wait on a thread that needs it, as 2.6's
 * schedule() released it for any sleep; returns the depth to restore.
 */
int release_kernel_lock(void);
void reacquire_kernel_lock(int depth);
/* True if a thread sleeps waiting for it. */
bool kernel_lock_contended(void);
/* True if the running thread holds it. */
bool kernel_locked(void);

#endif
