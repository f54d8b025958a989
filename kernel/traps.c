/*
 * traps.c: CPU exceptions. A fault in the kernel is fatal: it is reported
 * the way Linux reports an oops (what faulted, the registers, a backtrace
 * with symbol names), and then the kernel panics.
 */
#include <asm/apic.h>
#include <asm/desc.h>
#include <asm/io.h>
#include <asm/irq_regs.h>
#include <asm/irq.h>
#include <asm/traps.h>
#include <kobold/kallsyms.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/uaccess.h>
#include <kobold/smp.h>
#include <kobold/syscalls.h>

#define PF_WRITE 0x02
#define PF_PRESENT 0x01
#define MAX_FRAMES 32
#define X86_EFLAGS_IF 0x200

/* clang-format off */
static const char *const exception_names[32] = {
	"divide error", "debug", "NMI", "int3", "overflow", "bounds",
	"invalid opcode", "device not available", "double fault",
	"coprocessor segment overrun", "invalid TSS", "segment not present",
	"stack segment", "general protection fault", "page fault", "reserved",
	"x87 floating point", "alignment check", "machine check", "SIMD floating point",
	"virtualization", "control protection",
};
/* clang-format on */

struct stack_frame {
	struct stack_frame *next;
	u32 ret;
};

/* On the running thread's stack (the boot stack for the shell, else its own). */
static bool on_stack(const void *p)
{
	const char *bottom, *top;

	current_stack_bounds(&bottom, &top);
	return (const char *)p >= bottom && (const char *)p + sizeof(struct stack_frame) <= top;
}

/* Walks the frame-pointer chain: the kernel is built with frame pointers. */
static void walk_frames(u32 ebp)
{
	const struct stack_frame *f = (const void *)ebp;

	for (int i = 0; i < MAX_FRAMES && on_stack(f) && f->ret; i++, f = f->next)
		print_ip_sym(KERN_EMERG, f->ret);
}

void dump_stack(void)
{
	printk(KERN_EMERG "Call Trace:\n");
	walk_frames((u32)__builtin_frame_address(0));
}

/*
 * Between the faulting stack pointer and the first frame, a function that
 * already dropped its frame may have left its return address: list any
 * kernel code address there with "?", as Linux marks unreliable entries.
 */
static void scan_stack(u32 esp, u32 ebp)
{
	for (const u32 *p = (const u32 *)esp; (u32)p < ebp && on_stack(p); p++) {
		const char *name;
		u32 off, size;

		if (*p != 0 && ksym_lookup(*p, &name, &off, &size) && off > 0)
			printk(KERN_EMERG " ? [<%08x>] %s+0x%x/0x%x\n", *p, name, off, size);
	}
}

static void show_regs(const struct pt_regs *r)
{
	const char *name;
	u32 off, size;

	if (ksym_lookup(r->eip, &name, &off, &size))
		printk(KERN_EMERG "EIP: %s+0x%x/0x%x\n", name, off, size);
	else
		printk(KERN_EMERG "EIP: %08x\n", r->eip);
	printk(KERN_EMERG "EAX: %08x EBX: %08x ECX: %08x EDX: %08x\n", r->eax, r->ebx,
	       r->ecx, r->edx);
	printk(KERN_EMERG "ESI: %08x EDI: %08x EBP: %08x ESP: %08x\n", r->esi, r->edi,
	       r->ebp, (u32)&r->eflags + 4);
	printk(KERN_EMERG "DS: %04x ES: %04x CS: %04x EFLAGS: %08x\n", r->ds & 0xffff,
	       r->es & 0xffff, r->cs & 0xffff, r->eflags);
}

static void page_fault_header(const struct pt_regs *r, u32 cr2)
{
	if (cr2 < 4096)
		printk(KERN_EMERG "BUG: kernel NULL pointer dereference, address: %08x\n", cr2);
	else
		printk(KERN_EMERG "BUG: unable to handle page fault for address: %08x\n", cr2);
	printk(KERN_EMERG "#PF: supervisor %s access in kernel mode\n",
	       r->error_code & PF_WRITE ? "write" : "read");
	printk(KERN_EMERG "#PF: error_code(0x%04x) - %s\n", r->error_code,
	       r->error_code & PF_PRESENT ? "protection violation" : "not-present page");
}

static __noreturn void die(struct pt_regs *r)
{
	u32 cr2 = read_cr2();

	if (r->vector == 14)
		page_fault_header(r, cr2);
	else
		printk(KERN_EMERG "%s: %04x [#1]\n", exception_names[r->vector] ?: "exception",
		       r->error_code);
	printk(KERN_EMERG "Oops: %04x [#1]\n", r->error_code);
	show_regs(r);
	if (r->vector == 14)
		printk(KERN_EMERG "CR2: %08x\n", cr2);
	printk(KERN_EMERG "Call Trace:\n");
	print_ip_sym(KERN_EMERG, r->eip);
	scan_stack((u32)&r->eflags + 4, r->ebp);
	walk_frames(r->ebp);
	panic("Fatal exception");
}

/*
 * A device's interrupt, the local timer's or a reschedule: in_irq() is true
 * while its handler runs, and on the way out, if the interrupted thread
 * could be preempted and another's turn has come, the switch happens here
 * (2.6's resume_kernel with CONFIG_PREEMPT). The handler holds the
 * interrupt lock (kernel/irq_lock.c), as a thread with interrupts off does.
 */
struct pt_regs *irq_regs[NR_CPUS];

static void irq_handle(struct pt_regs *regs)
{
	struct pt_regs *old_regs;

	irq_lock_acquire();
	old_regs = set_irq_regs(regs);
	__preempt_count += HARDIRQ_OFFSET;
	if (regs->vector == LOCAL_TIMER_VECTOR) {
		apic_eoi();
		irq_count_local_timer();
		scheduler_tick();
	} else if (regs->vector == RESCHEDULE_VECTOR) {
		smp_reschedule_interrupt();
	} else {
		irq_dispatch((int)regs->vector - IRQ_BASE);
	}
	__preempt_count -= HARDIRQ_OFFSET;
	set_irq_regs(old_regs);
	if ((regs->eflags & X86_EFLAGS_IF) && need_resched() && preempt_count() == 0)
		preempt_schedule_irq();
	if (regs->eflags & X86_EFLAGS_IF)
		irq_lock_release(); /* the iret turns interrupts back on */
}

static void __trap_dispatch(struct pt_regs *regs)
{
	if ((regs->vector >= IRQ_BASE && regs->vector < IRQ_BASE + NR_IRQS) ||
	    regs->vector == LOCAL_TIMER_VECTOR || regs->vector == RESCHEDULE_VECTOR) {
		irq_handle(regs);
		return;
	}
	if (regs->vector == CALL_FUNCTION_VECTOR) { /* no lock: play_dead never returns */
		smp_call_function_interrupt();
		if (regs->eflags & X86_EFLAGS_IF)
			irq_lock_release(); /* the function may have taken it */
		return;
	}
	if (regs->vector == SPURIOUS_APIC_VECTOR) { /* no EOI for it (SDM vol. 3, 10.9) */
		irq_count_spurious();
		return;
	}
	if (regs->vector == 2) { /* NMI: no device of Kobold's sends one; counted, as 2.6's */
		irq_count_nmi();
		return;
	}
	if (regs->vector == SYSCALL_VECTOR)
		return; /* user_trap_exit runs it */
	if (regs->vector == 14 && do_page_fault(regs, read_cr2()))
		return;
	if (do_user_trap(regs) || fixup_exception(regs))
		return;
	die(regs);
}

/* Every trap and interrupt; one from ring 3 ends with the system call and signals. */
void trap_dispatch(struct pt_regs *regs)
{
	__trap_dispatch(regs);
	if (user_mode(regs))
		user_trap_exit(regs);
}
