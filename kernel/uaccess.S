/*
 * uaccess.S: the only instructions that touch user memory on behalf of a
 * system call. Each one that may fault has an __ex_table entry: the page
 * fault handler resumes at its fixup instead of oopsing (Linux's
 * arch/x86/lib/usercopy_32.c and getuser.S work the same way).
 */
#define EFAULT 14

	.text
/* unsigned long __copy_user(void *to, const void *from, unsigned long n): bytes left */
	.globl __copy_user
__copy_user:
	pushl %esi
	pushl %edi
	movl 12(%esp), %edi
	movl 16(%esp), %esi
	movl 20(%esp), %ecx
1:	rep movsb
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
