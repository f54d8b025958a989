/*
 * irq_lock.c: the interrupt lock. Kobold's "interrupts off" sections
 * (local_irq_save and friends: the run queues, wait queues, timers,
 * semaphores, the consoles' rings, the drivers' state) were written for
 * one CPU, where turning interrupts off kept everything else out. With
 * threads on every CPU, a CPU that turns interrupts off also takes this
 * lock, and a CPU taking an interrupt takes it for the handler, so those
 * sections still exclude each other across CPUs: Linux 2.2's global cli()
 * (arch/i386/kernel/irq.c's global_irq_lock), kept where 2.6 had a
 * spinlock for each structure. A spinlock does not take it: spinlocks are
 * taken inside it, never the other way round.
 */
#include <asm/io.h>
#include <kobold/smp.h>

static volatile unsigned int irq_lock_owner; /* 0: free, else the holder's CPU + 1 */

/* Interrupts are off. Nests: a CPU that holds it already goes on. */
void irq_lock_acquire(void)
{
	unsigned int me = smp_processor_id() + 1;

	if (irq_lock_owner == me)
		return;
	while (__sync_val_compare_and_swap(&irq_lock_owner, 0, me) != 0)
		cpu_relax();
}

/* Lets it go if this CPU holds it: interrupts are about to come on. */
void irq_lock_release(void)
{
	if (irq_lock_owner == smp_processor_id() + 1)
		__sync_lock_release(&irq_lock_owner);
}

bool irq_lock_held(void) { return irq_lock_owner == smp_processor_id() + 1; }
