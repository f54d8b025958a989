/*
 * smp.c: interprocessor interrupts (Linux 2.6's arch/i386/kernel/smp.c):
 * running a function on another CPU (CALL_FUNCTION_VECTOR) and asking one
 * to reschedule (RESCHEDULE_VECTOR). One call is in flight at a time, as
 * 2.6's call_data under call_lock.
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/smp.h>

#define X86_EFLAGS_IF 0x200

struct call_data {
	void (*func)(void *info);
	void *info;
	volatile int started, finished;
	bool wait;
};

static struct call_data *volatile call_data;
static volatile int call_lock;

static bool irqs_disabled(void)
{
	unsigned long flags;

	__asm__ volatile("pushfl; popl %0" : "=r"(flags));
	return !(flags & X86_EFLAGS_IF);
}

/*
 * Runs func(info) on @cpu from its CALL_FUNCTION_VECTOR interrupt; with
 * @wait, returns when it has finished, else when it has started. As in 2.6,
 * not with interrupts off: two CPUs calling each other would wait for ever.
 */
int smp_call_function_single(unsigned int cpu, void (*func)(void *info), void *info, bool wait)
{
	struct call_data data = { func, info, 0, 0, wait };

	if (WARN(irqs_disabled(), "smp_call_function_single with interrupts off"))
		return -EINVAL;
	preempt_disable(); /* 2.6's get_cpu(): this CPU stays this CPU until the call is done */
	if (cpu == smp_processor_id() || !cpu_online(cpu)) {
		preempt_enable();
		return -EINVAL;
	}
	while (__sync_lock_test_and_set(&call_lock, 1))
		cpu_relax();
	call_data = &data;
	mb();
	apic_send_ipi_vector(cpu_to_apicid(cpu), CALL_FUNCTION_VECTOR);
	while (!data.started)
		cpu_relax();
	while (wait && !data.finished)
		cpu_relax();
	__sync_lock_release(&call_lock);
	preempt_enable();
	return 0;
}

/* On the called CPU. The EOI comes first: func may never return (play_dead). */
void smp_call_function_interrupt(void)
{
	struct call_data *data = call_data;
	void (*func)(void *info) = data->func;
	void *info = data->info;
	bool wait = data->wait;

	apic_eoi();
	mb();
	data->started = 1; /* without wait, data is the sender's stack: not touched after this */
	func(info);
	if (wait) {
		mb();
		data->finished = 1;
	}
}

void smp_send_reschedule(unsigned int cpu)
{
	if (cpu_online(cpu))
		apic_send_ipi_vector(cpu_to_apicid(cpu), RESCHEDULE_VECTOR);
}

/* Nothing to do here yet: the scheduler looks at the CPU's queue on the way out. */
void smp_reschedule_interrupt(void)
{
	apic_eoi();
}
