/*
 * syscall.c: the way in from user space and back. int 0x80 arrives here
 * with the call's number in eax and its arguments in ebx, ecx, edx, esi,
 * edi and ebp (Linux i386's convention); the table (syscall_table.c) gives
 * the function, whose result (a value, or a negative errno) goes back in
 * eax. Every system call runs under the big kernel lock, as Linux 2.0's
 * did; a call that sleeps lets go of it (sys_sleep_begin). On every return
 * to ring 3 a pending reschedule or signal is handled first.
 */
#include <asm/desc.h>
#include <asm/io.h>
#include <asm/ptrace.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/smp_lock.h>
#include <kobold/syscalls.h>

static unsigned long enosys_logged[(NR_syscalls + 31) / 32 + 1];

/* Logged once per number, as a student would want to know what is missing. */
static long sys_ni_syscall(unsigned long nr)
{
	unsigned long i = nr < NR_syscalls ? nr : NR_syscalls;
	const char *name = nr < NR_syscalls && sys_call_table[nr].name ? sys_call_table[nr].name
								       : "unknown";

	if (!(enosys_logged[i / 32] & (1ul << (i % 32)))) {
		enosys_logged[i / 32] |= 1ul << (i % 32);
		pr_info("%s[%d]: system call %s (%lu) is not implemented: ENOSYS\n", current->comm,
			current->pid, name, nr);
	}
	return -ENOSYS;
}

struct pt_regs *task_pt_regs(struct task_struct *p)
{
	char *top = p->stack ? (char *)p->stack + THREAD_SIZE : boot_stack_top;

	return (struct pt_regs *)top - 1;
}

static void do_syscall(struct pt_regs *regs)
{
	unsigned long nr = regs->eax;
	long ret;

	local_irq_enable();
	lock_kernel();
	current->user.orig_eax = (int)nr; /* for a restart; sigreturn clears it */
	if (nr < NR_syscalls && sys_call_table[nr].fn)
		ret = sys_call_table[nr].fn(regs->ebx, regs->ecx, regs->edx, regs->esi, regs->edi,
					    regs->ebp);
	else
		ret = sys_ni_syscall(nr);
	unlock_kernel();
	regs->eax = (u32)ret; /* execve and sigreturn return the eax they set */
}

/* Interrupts are off from the last check to the iret: nothing is missed. */
static void exit_to_user_mode(struct pt_regs *regs)
{
	for (;;) {
		local_irq_disable();
		if (need_resched()) {
			local_irq_enable();
			schedule();
			continue;
		}
		if (current->user.mm && task_sigpending(current)) {
			local_irq_enable();
			do_signal(regs);
			continue;
		}
		break;
	}
	if (current->user.mm)
		syscall_restart(regs); /* no handler ran: an interrupted call starts again */
}

/* Called by trap_dispatch for int 0x80 and for every trap that came from ring 3. */
void user_trap_exit(struct pt_regs *regs)
{
	if (regs->vector == SYSCALL_VECTOR)
		do_syscall(regs);
	if (!user_mode(regs))
		return;
	exit_to_user_mode(regs);
	/*
	 * Interrupts stay off until the iret, which turns them on: the
	 * interrupt lock (kernel/irq_lock.c) goes first, or every other CPU
	 * would wait on it while the process runs.
	 */
	irq_lock_release();
}

int sys_sleep_begin(void) { return release_kernel_lock(); }
void sys_sleep_end(int depth) { reacquire_kernel_lock(depth); }
