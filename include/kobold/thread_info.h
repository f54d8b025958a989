/*
 * thread_info.h: what a thread keeps at the bottom of its kernel stack, as
 * Linux 2.6 i386's struct thread_info: its task, the CPU it runs on, its
 * preemption count and its need-resched flag. Every stack is THREAD_SIZE
 * bytes and aligned to THREAD_SIZE, so the running thread finds its own by
 * masking the stack pointer: current and smp_processor_id() cost one AND
 * and one load, on every CPU, with nothing per CPU to set up.
 */
#ifndef KOBOLD_THREAD_INFO_H
#define KOBOLD_THREAD_INFO_H

#include <kobold/types.h>

/*
 * Each thread's kernel stack: 32 KiB, the boot stack's size (2.6 i386 had
 * 8 KiB). Work items run udev's rules, whose path buffers take 4 KiB
 * frames; a word just above the thread_info (Linux's STACK_END_MAGIC value)
 * is checked at each switch, so an overflow panics instead of corrupting.
 */
#define THREAD_SIZE 32768
#define STACK_END_MAGIC 0x57ac6e9dUL

#define TIF_NEED_RESCHED 0x1

struct task_struct;

struct thread_info {
	struct task_struct *task;
	volatile unsigned int cpu;    /* the CPU it runs on, or last ran on */
	volatile int preempt_count;   /* include/kobold/preempt.h */
	volatile unsigned long flags; /* TIF_NEED_RESCHED */
	unsigned long stack_end;      /* STACK_END_MAGIC, the stack's last word */
	bool uaccess_kernel;	      /* copy_*_user take kernel addresses: 2.6's set_fs(KERNEL_DS) */
};

#ifdef KOBOLD_HOST
/* The host test binary is one thread on one CPU. */
extern struct thread_info host_thread_info;
static inline struct thread_info *current_thread_info(void) { return &host_thread_info; }
#else
static inline struct thread_info *current_thread_info(void)
{
	unsigned long sp;

	__asm__("movl %%esp, %0" : "=r"(sp));
	return (struct thread_info *)(sp & ~(THREAD_SIZE - 1UL));
}
#endif

#endif
