/* ptrace.h: the registers saved on the stack by every trap and interrupt. */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <kobold/types.h>

/*
 * Built by kernel/entry.S: pusha order, the data segments, then the vector,
 * error code and CPU frame; esp and ss are there only for a trap from ring 3.
 */
struct pt_regs {
	u32 edi, esi, ebp, esp_dummy, ebx, edx, ecx, eax;
	u32 ds, es, fs, gs;
	u32 vector;
	u32 error_code;
	u32 eip, cs, eflags;
	u32 esp, ss; /* user mode only */
};

/* The trap came from ring 3 (the saved code selector's RPL). */
static inline bool user_mode(const struct pt_regs *regs) { return (regs->cs & 3) == 3; }

/* Jumps to ret_from_trap with regs as its frame: into ring 3 (kernel/entry.S). */
__noreturn void start_user(struct pt_regs *regs);

#endif
