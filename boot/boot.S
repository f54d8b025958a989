/*
 * boot.S: the multiboot-1 header and the first instructions. GRUB or QEMU's
 * -kernel loads us at 1 MiB in 32-bit protected mode with paging off;
 * EAX holds the multiboot magic and EBX the info structure (multiboot 1, §3.2).
 */
#define MB_MAGIC 0x1BADB002
#define MB_FLAGS 0x00000003	/* bit 0: align modules; bit 1: give us the memory map */

	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC
	.long MB_FLAGS
	.long -(MB_MAGIC + MB_FLAGS)

	.section .bss
	.align 16
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.skip 32768
boot_stack_top:

	.section .text
	.globl _start
	.type _start, @function
_start:
	cli
	/* Read the time stamp counter first thing: the boot clock starts here. */
	movl %eax, %esi
	rdtsc
	movl %eax, boot_tsc
	movl %edx, boot_tsc + 4
	movl $boot_stack_top, %esp
	xorl %ebp, %ebp		/* a zero frame pointer ends every backtrace */
	pushl $0
	popfl
	pushl %ebx		/* struct multiboot_info * */
	pushl %esi		/* the magic, 0x2BADB002 */
	call kmain
1:	cli
	hlt
	jmp 1b
	.size _start, . - _start

	.section .data
	.align 8
	.globl boot_tsc
boot_tsc:
	.quad 0
