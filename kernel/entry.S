/*
 * entry.S: the first code of every trap and interrupt, and of the system
 * call (int 0x80). Each vector pushes a dummy error code where the CPU gives
 * none, then its number, so that trap_dispatch() sees one struct pt_regs
 * layout for all 86 vectors. From ring 3 the CPU has switched to the task's
 * kernel stack (the TSS's esp0) and pushed the user's ss:esp as well.
 */
#include <asm/desc.h>

.macro VECTOR n, has_error
	.globl vector\n
vector\n:
	.if \has_error == 0
	pushl $0
	.endif
	pushl $\n
	jmp common_entry
.endm

	.text
/* Vectors with a CPU error code: Intel SDM vol. 3, table 6-1. */
VECTOR 0, 0
VECTOR 1, 0
VECTOR 2, 0
VECTOR 3, 0
VECTOR 4, 0
VECTOR 5, 0
VECTOR 6, 0
VECTOR 7, 0
VECTOR 8, 1
VECTOR 9, 0
VECTOR 10, 1
VECTOR 11, 1
VECTOR 12, 1
VECTOR 13, 1
VECTOR 14, 1
VECTOR 15, 0
VECTOR 16, 0
VECTOR 17, 1
VECTOR 18, 0
VECTOR 19, 0
VECTOR 20, 0
VECTOR 21, 1
VECTOR 22, 0
VECTOR 23, 0
VECTOR 24, 0
VECTOR 25, 0
VECTOR 26, 0
VECTOR 27, 0
VECTOR 28, 0
VECTOR 29, 1
VECTOR 30, 1
VECTOR 31, 0
/* IRQ 0-15 from the remapped PICs. */
VECTOR 32, 0
VECTOR 33, 0
VECTOR 34, 0
VECTOR 35, 0
VECTOR 36, 0
VECTOR 37, 0
VECTOR 38, 0
VECTOR 39, 0
VECTOR 40, 0
VECTOR 41, 0
VECTOR 42, 0
VECTOR 43, 0
VECTOR 44, 0
VECTOR 45, 0
VECTOR 46, 0
VECTOR 47, 0
/* IRQ 16-47: MSI-X messages through the local APIC; then the system call,
 * the local APIC timer, the interprocessor interrupts (call function,
 * reschedule) and the APIC's spurious vector. */
.irp n, 48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,128,239,251,252,255
VECTOR \n, 0
.endr

common_entry:
	pushl %gs		/* the user's TLS segment: the kernel leaves it alone */
	pushl %fs
	pushl %es
	pushl %ds
	pushal
	cld			/* a program may leave DF set: the kernel's string copies run upwards */
	movl $KERNEL_DS, %eax
	movl %eax, %ds
	movl %eax, %es
	xorl %eax, %eax		/* the kernel runs with null %fs and %gs: a frame saved */
	movl %eax, %fs		/* in the kernel never holds a TLS selector that a later */
	movl %eax, %gs		/* switch could leave naming an empty slot */
	pushl %esp		/* struct pt_regs * */
	call trap_dispatch
	addl $4, %esp
	.globl ret_from_trap
ret_from_trap:
	popal
1:	popl %ds
2:	popl %es
3:	popl %fs
4:	popl %gs
	addl $8, %esp		/* the vector and the error code */
	iret

/*
 * A selector that no longer loads (a TLS slot emptied since, or one a sigreturn
 * frame named) faults in the kernel: its fixup puts the null selector in its
 * place and pops again, as 2.6's RESTORE_REGS does for %ds and %es. The
 * program goes on with that register null.
 */
5:	movl $0, (%esp)
	jmp 1b
6:	movl $0, (%esp)
	jmp 2b
7:	movl $0, (%esp)
	jmp 3b
8:	movl $0, (%esp)
	jmp 4b
	.pushsection __ex_table, "a"
	.align 4
	.long 1b, 5b
	.long 2b, 6b
	.long 3b, 7b
	.long 4b, 8b
	.popsection

/* void start_user(struct pt_regs *regs): a new process's first return to ring 3. */
	.globl start_user
start_user:
	movl 4(%esp), %esp
	jmp ret_from_trap

	.section .rodata
	.align 4
	.globl vector_table
vector_table:
	.irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79
	.long vector\n
	.endr
	.globl spurious_vector_entry, call_function_vector_entry, reschedule_vector_entry
	.globl local_timer_vector_entry, syscall_vector_entry
local_timer_vector_entry:
	.long vector239
syscall_vector_entry:
	.long vector128
spurious_vector_entry:
	.long vector255
call_function_vector_entry:
	.long vector251
reschedule_vector_entry:
	.long vector252
