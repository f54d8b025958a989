/* idle.c: what a CPU does with nothing to run: halt until an interrupt, counting the time for /proc/uptime. */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/idle.h>

static u64 idle_ns;

/* Called with interrupts off; returns with them on, after the interrupt that woke the CPU. */
void default_idle(void)
{
	u64 start = ktime_get_ns();

	safe_halt(); /* sti; hlt: an interrupt cannot slip in between */
	idle_ns += ktime_get_ns() - start;
}

u64 idle_time_ns(void)
{
	unsigned long flags = local_irq_save();
	u64 ns = idle_ns;

	local_irq_restore(flags);
	return ns;
}
