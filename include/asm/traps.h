/* traps.h: exception handling, the oops report and the kernel's backtraces. */
#ifndef ASM_TRAPS_H
#define ASM_TRAPS_H

#include <asm/ptrace.h>

void trap_dispatch(struct pt_regs *regs);

#endif
