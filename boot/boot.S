/*
 * boot.S: the multiboot-1 header and the first instructions. GRUB or QEMU's
 * -kernel loads us at 1 MiB in 32-bit protected mode with paging off;
 * EAX holds the multiboot magic and EBX the info structure (multiboot 1, §3.2).
 * The kernel is linked at PAGE_OFFSET + 1 MiB (linker.ld): this first code
 * runs at its load address, maps low memory both where it is and at
 * PAGE_OFFSET, turns paging on and jumps up, as Linux i386's head.S does.
 */
#include <asm/page.h>

#define MB_MAGIC 0x1BADB002
#define MB_FLAGS 0x00000003	/* bit 0: align modules; bit 1: give us the memory map */
#define PDE_PRESENT_RW_4M 0x083
#define CR4_PSE 0x00000010
#define CR0_PG_WP 0x80010000
#define PA(sym) ((sym) - PAGE_OFFSET)

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	/* The boot thread's stack, aligned to its size: its struct thread_info
	 * is at the bottom (include/kobold/thread_info.h). */
	.section .bss
	.align 32768
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.skip 32768
boot_stack_top:

	/* Linked and run at the load address: paging is still off. */
	.section .boot.text, "ax"
	.globl _start
	.type _start, @function
_start:
	cli
	/* Read the time stamp counter first thing: the boot clock starts here. */
	movl %eax, %esi
	rdtsc
	movl %eax, PA(boot_tsc)
	movl %edx, PA(boot_tsc) + 4
	/* Low memory in 4 MiB pages, twice: at 0 (this code, until paging_init)
	 * and at PAGE_OFFSET (the kernel from now on). */
	movl $PA(swapper_pg_dir), %edi
	xorl %ecx, %ecx
1:	movl %ecx, %eax
	shll $22, %eax
	orl $PDE_PRESENT_RW_4M, %eax
	movl %eax, (%edi,%ecx,4)
	movl %eax, (PAGE_OFFSET >> 20)(%edi,%ecx,4)
	incl %ecx
	cmpl $LOWMEM_PDES, %ecx
	jb 1b
	movl %cr4, %eax
	orl $CR4_PSE, %eax
	movl %eax, %cr4
	movl %edi, %cr3
	movl %cr0, %eax
	orl $CR0_PG_WP, %eax
	movl %eax, %cr0
	movl $start_kernel_high, %eax
	jmp *%eax
	.size _start, . - _start

	.section .text
	.type start_kernel_high, @function
start_kernel_high:
	movl $boot_stack_top, %esp
	movl $init_task, boot_stack_bottom	/* thread_info.task: current is PID 1 */
	xorl %ebp, %ebp		/* a zero frame pointer ends every backtrace */
	pushl $0
	popfl
	pushl %ebx		/* the multiboot info's physical address */
	pushl %esi		/* the magic, 0x2BADB002 */
	call kmain
1:	cli
	hlt
	jmp 1b
	.size start_kernel_high, . - start_kernel_high

	.section .data
	.align 8
	.globl boot_tsc
boot_tsc:
	.quad 0
