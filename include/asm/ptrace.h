/* ptrace.h: the registers saved on the stack by every trap and interrupt. */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#include <kobold/types.h>

/* Built by kernel/entry.S: pusha order, then the vector, error code and CPU frame. */
struct pt_regs {
	u32 edi, esi, ebp, esp_dummy, ebx, edx, ecx, eax;
	u32 ds, es;
	u32 vector;
	u32 error_code;
	u32 eip, cs, eflags;
};

#endif
