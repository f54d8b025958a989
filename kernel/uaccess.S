/*
 * uaccess.S: the only instructions that touch user memory on behalf of a
 * system call. Each one that may fault has an __ex_table entry: the page
 * fault handler resumes at its fixup instead of oopsing (Linux's
 * arch/x86/lib/usercopy_32.c and getuser.S work the same way).
 */
#define EFAULT 14

	.text
/*
 * One word of a 32-byte block: a load and a store, each allowed to fault
 * (the fixup counts the whole block as not copied).
 */
.macro CU_WORD off
.Lcu_ld\@:	movl \off(%esi), %eax
.Lcu_st\@:	movl %eax, \off(%edi)
	.pushsection __ex_table, "a"
	.long .Lcu_ld\@, .Lcu_fault
	.long .Lcu_st\@, .Lcu_fault
	.popsection
.endm

/*
 * unsigned long __copy_user(void *to, const void *from, unsigned long n): bytes left.
 * 32-byte blocks of plain moves, then the tail with rep movsb: under QEMU's
 * TCG each step of a rep string instruction costs a trip out of the
 * translated block, so a megabyte by rep movs took milliseconds (the
 * O_DIRECT bounce buffers of fs/direct-io.c copy that much per request).
 */
	.globl __copy_user
__copy_user:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
.Lcu_block:
	cmpl $32, %ecx
	jb .Lcu_tail
	CU_WORD 0
	CU_WORD 4
	CU_WORD 8
	CU_WORD 12
	CU_WORD 16
	CU_WORD 20
	CU_WORD 24
	CU_WORD 28
	addl $32, %esi
	addl $32, %edi
	subl $32, %ecx
	jmp .Lcu_block
.Lcu_tail:
1:	rep movsb
.Lcu_fault:
2:	movl %ecx, %eax
	popl %edi
	popl %esi
	ret

/* unsigned long __clear_user(void *to, unsigned long n): bytes left */
	.globl __clear_user
__clear_user:
	pushl %edi
	movl 8(%esp), %edi
	movl 12(%esp), %ecx
	xorl %eax, %eax
3:	rep stosb
4:	movl %ecx, %eax
	popl %edi
	ret

/* long __strncpy_from_user(char *dst, const char *src, long count) */
	.globl __strncpy_from_user
__strncpy_from_user:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
	xorl %edx, %edx
5:	cmpl %ecx, %edx
	je 7f
6:	movb (%esi,%edx), %al
	movb %al, (%edi,%edx)
	testb %al, %al
	je 7f
	incl %edx
	jmp 5b
7:	movl %edx, %eax
	popl %edi
	popl %esi
	ret
8:	movl $-EFAULT, %eax
	popl %edi
	popl %esi
	ret

	.section __ex_table, "a"
	.align 4
	.long 1b, 2b
	.long 3b, 4b
	.long 6b, 8b
