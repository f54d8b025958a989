/*
 * process.c: the x86 side of a process: what a context switch loads for
 * it (page directory, kernel stack in the TSS, TLS descriptors, FPU/SSE
 * state), set_thread_area's TLS slots, and its faults: a page fault in a
 * VMA is resolved, one outside becomes SIGSEGV with Linux's log line.
 */
#include <asm/desc.h>
#include <asm/ptrace.h>
#include <asm/traps.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/preempt.h>
#include <kobold/mm_types.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/smp.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>

#define PF_PROT 0x1
#define PF_WRITE 0x2
#define PF_USER 0x4

void switch_user_state(struct task_struct *prev, struct task_struct *next)
{
	if (prev->user.fpu)
		__asm__ volatile("fxsave (%0)" : : "r"(prev->user.fpu) : "memory");
	switch_mm(next->user.mm);
	load_esp0((unsigned long)(task_pt_regs(next) + 1)); /* this CPU's TSS and GDT */
	if (next->user.mm)
		load_TLS(next->user.tls_array);
	if (next->user.fpu)
		__asm__ volatile("fxrstor (%0)" : : "r"(next->user.fpu) : "memory");
}

/* struct user_desc (asm/ldt.h) */
struct user_desc {
	u32 entry_number, base_addr, limit;
	u32 seg_32bit : 1, contents : 2, read_exec_only : 1, limit_in_pages : 1,
		seg_not_present : 1, useable : 1;
};

/* Linux's fill_ldt: the descriptor for a user_desc (an empty one clears the slot). */
static u64 tls_descriptor(const struct user_desc *d)
{
	u32 a, b;

	if (!d->base_addr && !d->limit && !d->contents && d->read_exec_only && !d->seg_32bit &&
	    !d->limit_in_pages && d->seg_not_present && !d->useable)
		return 0;
	a = ((d->base_addr & 0xffff) << 16) | (d->limit & 0x0ffff);
	b = (d->base_addr & 0xff000000) | ((d->base_addr & 0x00ff0000) >> 16) |
	    (d->limit & 0xf0000) | ((d->read_exec_only ^ 1) << 9) | (d->contents << 10) |
	    ((d->seg_not_present ^ 1) << 15) | (d->seg_32bit << 22) | (d->limit_in_pages << 23) |
	    (d->useable << 20) | 0x7000;
	return ((u64)b << 32) | a;
}

long do_set_thread_area(struct task_struct *p, u32 u_info)
{
	struct user_desc d;
	int idx;

	if (copy_from_user(&d, (const void __user *)u_info, sizeof(d)))
		return -EFAULT;
	idx = (int)d.entry_number;
	if (idx == -1) {
		for (idx = GDT_ENTRY_TLS_MIN; idx <= GDT_ENTRY_TLS_MAX; idx++)
			if (!p->user.tls_array[idx - GDT_ENTRY_TLS_MIN])
				break;
		if (idx > GDT_ENTRY_TLS_MAX)
			return -ESRCH;
		if (put_user((u32)idx, (u32 __user *)u_info))
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	if (d.contents == 3 && !d.seg_not_present)
		return -EINVAL; /* a code segment is refused, as Linux's */
	p->user.tls_array[idx - GDT_ENTRY_TLS_MIN] = tls_descriptor(&d);
	if (p == current)
		load_TLS(p->user.tls_array);
	return 0;
}

long sys_set_thread_area(u32 u_info) { return do_set_thread_area(current, u_info); }

long sys_get_thread_area(u32 u_info)
{
	struct user_desc d;
	u64 desc;
	u32 a, b;

	if (copy_from_user(&d, (const void __user *)u_info, sizeof(d)))
		return -EFAULT;
	if (d.entry_number < GDT_ENTRY_TLS_MIN || d.entry_number > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	desc = current->user.tls_array[d.entry_number - GDT_ENTRY_TLS_MIN];
	a = (u32)desc;
	b = (u32)(desc >> 32);
	memset(&d.base_addr, 0, sizeof(d) - sizeof(d.entry_number));
	d.base_addr = (a >> 16) | ((b & 0xff) << 16) | (b & 0xff000000);
	d.limit = (a & 0xffff) | (b & 0xf0000);
	d.seg_32bit = (b >> 22) & 1;
	d.contents = (b >> 10) & 3;
	d.read_exec_only = !((b >> 9) & 1);
	d.limit_in_pages = (b >> 23) & 1;
	d.seg_not_present = !((b >> 15) & 1);
	d.useable = (b >> 20) & 1;
	return copy_to_user((void __user *)u_info, &d, sizeof(d)) ? -EFAULT : 0;
}

/* Linux 2.6.25's show_signal_msg: "NAME[PID]: segfault at ADDR ip IP sp SP error E in FILE[START+SIZE]". */
static void show_segfault(const struct pt_regs *regs, unsigned long address)
{
	struct mm_struct *mm = current->user.mm;
	struct vm_area_struct *v = mm ? find_vma(mm, regs->eip) : NULL;
	const char *name = v && v->vm_name ? strrchr(v->vm_name, '/') : NULL;

	name = name ? name + 1 : v && v->vm_name ? v->vm_name
						 : NULL;
	if (name && v)
		printk(KERN_INFO "%s[%d]: segfault at %lx ip %08x sp %08x error %x in %s[%lx+%lx]\n",
		       current->comm, current->pid, address, regs->eip, regs->esp,
		       regs->error_code, name, v->vm_start, v->vm_end - v->vm_start);
	else
		printk(KERN_INFO "%s[%d]: segfault at %lx ip %08x sp %08x error %x\n",
		       current->comm, current->pid, address, regs->eip, regs->esp,
		       regs->error_code);
}

/*
 * An mm that threads share is the big kernel lock's (mm/memory.c): a fault
 * in one takes it with interrupts back on, as Linux's do_page_fault turns
 * them on, so that another CPU's TLB flush can be waited for. A system call
 * holds it already; a fault where interrupts were off (or sleeping is not
 * allowed) cannot wait.
 */
static int fault_in(struct pt_regs *regs, struct mm_struct *mm, unsigned long address)
{
	bool sleep = mm->users > 1 && (regs->eflags & X86_EFLAGS_IF) && !in_atomic();
	int err;

	if (sleep) {
		local_irq_enable();
		lock_kernel();
	}
	err = handle_mm_fault(mm, address, regs->error_code & PF_WRITE);
	if (err == -ENOMEM)
		out_of_memory(); /* and the instruction faults again, or its process is killed */
	if (sleep) {
		unlock_kernel();
		raw_local_irq_disable(); /* as the trap came in: off, the interrupt lock not held */
	}
	return err == -ENOMEM ? 0 : err;
}

bool do_page_fault(struct pt_regs *regs, unsigned long address)
{
	struct mm_struct *mm = current->user.mm;
	int err = mm && address < TASK_SIZE ? fault_in(regs, mm, address) : -EFAULT;

	if (err == 0)
		return true;
	if (!user_mode(regs))
		return fixup_exception(regs); /* none: a kernel bug, the oops */
	if (current->user.sighand->action[SIGSEGV - 1].handler <= SIG_IGN)
		show_segfault(regs, address);
	force_sig(SIGSEGV, current);
	return true;
}

/* Linux's trap table: the signal each exception sends a process. */
bool do_user_trap(struct pt_regs *regs)
{
	static const u8 trap_signal[32] = {
		[0] = SIGFPE,
		[1] = SIGTRAP,
		[3] = SIGTRAP,
		[4] = SIGSEGV,
		[5] = SIGSEGV,
		[6] = SIGILL,
		[7] = SIGSEGV,
		[9] = SIGFPE,
		[10] = SIGSEGV,
		[11] = SIGBUS,
		[12] = SIGBUS,
		[13] = SIGSEGV,
		[16] = SIGFPE,
		[17] = SIGBUS,
		[19] = SIGFPE,
	};
	int sig;

	if (!user_mode(regs) || regs->vector >= 32)
		return false;
	sig = trap_signal[regs->vector] ? trap_signal[regs->vector] : SIGSEGV;
	if (regs->vector == 13)
		printk(KERN_INFO "traps: %s[%d] general protection fault ip:%x sp:%x error:%x\n",
		       current->comm, current->pid, regs->eip, regs->esp, regs->error_code);
	force_sig(sig, current);
	return true;
}

unsigned long search_exception_tables(unsigned long eip)
{
	extern const struct exception_table_entry __start___ex_table[], __stop___ex_table[];

	for (const struct exception_table_entry *e = __start___ex_table; e < __stop___ex_table; e++)
		if (e->insn == eip)
			return e->fixup;
	return 0;
}

bool fixup_exception(struct pt_regs *regs)
{
	unsigned long fixup = regs->vector < 32 ? search_exception_tables(regs->eip) : 0;

	if (fixup)
		regs->eip = fixup;
	return fixup != 0;
}

long strncpy_from_user(char *dst, const char __user *src, long count)
{
	unsigned long room = (unsigned long)src < TASK_SIZE ? TASK_SIZE - (unsigned long)src : 0;

	if (!room)
		return -EFAULT;
	if ((unsigned long)count > room)
		count = (long)room;
	return __strncpy_from_user(dst, src, count);
}
