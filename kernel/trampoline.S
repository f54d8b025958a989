/*
 * trampoline.S: where an AP starts. Its STARTUP message puts it in real
 * mode at the page this code is copied to (smpboot.c, below 1 MiB); it
 * loads a flat GDT, enters protected mode, turns on paging with a copy of
 * the kernel's page directory that also maps the first 4 MiB where they
 * are (for its own next instructions), and jumps to start_secondary, above
 * PAGE_OFFSET, on its own stack; start_secondary switches to swapper_pg_dir
 * (Intel SDM vol. 3, 8.4.4 and 9.9.1). smpboot.c fills in the four words
 * at the end before each start.
 */
#define TRAMPOLINE_PHYS 0x8000
#define AT(sym) (TRAMPOLINE_PHYS + (sym) - trampoline_start)

	.section .rodata
	.balign 16
	.globl trampoline_start, trampoline_end
	.globl trampoline_cr3, trampoline_cr4, trampoline_stack, trampoline_entry
	.code16
trampoline_start:
	cli
	cld
	movw %cs, %ax			/* CS = TRAMPOLINE_PHYS >> 4 */
	movw %ax, %ds
	lgdtl tr_gdt_ptr - trampoline_start
	movl %cr0, %eax
	orl $1, %eax			/* PE */
	movl %eax, %cr0
	ljmpl $0x08, $AT(tr_protected)

	.code32
tr_protected:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movw %ax, %fs
	movw %ax, %gs
	movl AT(trampoline_cr4), %eax
	movl %eax, %cr4
	movl AT(trampoline_cr3), %eax
	movl %eax, %cr3
	movl %cr0, %eax
	orl $0x80010000, %eax		/* PG and WP, as paging_init sets them */
	movl %eax, %cr0
	movl AT(trampoline_stack), %esp
	xorl %ebp, %ebp			/* a zero frame pointer ends every backtrace */
	pushl $0
	popfl
	movl AT(trampoline_entry), %eax
	call *%eax
1:	cli
	hlt
	jmp 1b

	.balign 8
tr_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff	/* 0x08: ring 0 code, flat */
	.quad 0x00cf92000000ffff	/* 0x10: ring 0 data, flat */
tr_gdt_ptr:
	.word 3 * 8 - 1
	.long AT(tr_gdt)

	.balign 4
trampoline_cr3:
	.long 0
trampoline_cr4:
	.long 0
trampoline_stack:
	.long 0
trampoline_entry:
	.long 0
trampoline_end:
