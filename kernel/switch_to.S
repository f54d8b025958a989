/*
 * switch_to.S: changing from one thread's stack to another's. The
 * callee-saved registers go on the old stack, its stack pointer into the
 * old thread's thread.esp; the new thread's stack pointer comes back, its
 * registers off its stack, and the ret returns into wherever it left off:
 * its own call of switch_to in schedule(), or, for a thread that has never
 * run, thread_start (create_thread lays its stack out so).
 *
 * void switch_to(unsigned long *prev_esp, unsigned long next_esp);
 */
	.text
	.globl switch_to
switch_to:
	movl 4(%esp), %eax	/* &prev->thread.esp */
	movl 8(%esp), %edx	/* next->thread.esp */
	pushl %ebp
	pushl %ebx
	pushl %esi
	pushl %edi
	movl %esp, (%eax)	/* prev is now saved */
	movl %edx, %esp		/* and from here on we are next */
	popl %edi
	popl %esi
	popl %ebx
	popl %ebp
	ret
