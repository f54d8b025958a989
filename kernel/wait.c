/* wait.c: idling until an interrupt handler sets a flag, with no lost wake-up. */
#include <asm/io.h>
#include <kobold/wait.h>

void wait_for_flag(volatile bool *flag)
{
	for (;;) {
		local_irq_disable();
		if (*flag)
			break;
		safe_halt();	/* sti; hlt: the interrupt that sets it wakes us */
	}
	local_irq_enable();
}
