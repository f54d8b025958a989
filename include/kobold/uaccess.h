/*
 * uaccess.h: moving data between the kernel and user space. Every user
 * pointer is checked to lie below TASK_SIZE (access_ok); the copy itself
 * may still fault (an unmapped page, a read-only one), and then the page
 * fault handler finds the faulting instruction in the exception table
 * (__ex_table, built by kernel/uaccess.S) and resumes at its fixup, which
 * returns -EFAULT: a bad pointer never oopses, as in Linux.
 */
#ifndef KOBOLD_UACCESS_H
#define KOBOLD_UACCESS_H

#include <kobold/errno.h>
#include <kobold/mm_types.h>
#include <kobold/string.h>
#include <kobold/thread_info.h>
#include <kobold/types.h>

#define __user

/*
 * Below TASK_SIZE; or anywhere while the thread has uaccess_kernel set,
 * which the VFS does around a driver's read or write called with a kernel
 * buffer (fs/read_write.c), as 2.6's set_fs(KERNEL_DS) raised addr_limit.
 */
static inline bool access_ok(const void __user *addr, unsigned long size)
{
	unsigned long a = (unsigned long)addr;

	if (a + size < a)
		return false;
	return a + size <= TASK_SIZE || current_thread_info()->uaccess_kernel;
}

/* kernel/uaccess.S: bytes not copied (0 on success). */
unsigned long __copy_user(void *to, const void *from, unsigned long n);
/* Length of the string copied (without its NUL; count if none within), or -EFAULT. */
long __strncpy_from_user(char *dst, const char __user *src, long count);
/* Bytes not cleared. */
unsigned long __clear_user(void __user *to, unsigned long n);

static inline unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return access_ok(to, n) ? __copy_user(to, from, n) : n;
}

static inline unsigned long copy_from_user(void *to, const void __user *from, unsigned long n)
{
	return access_ok(from, n) ? __copy_user(to, from, n) : n;
}

static inline unsigned long clear_user(void __user *to, unsigned long n)
{
	return access_ok(to, n) ? __clear_user(to, n) : n;
}

long strncpy_from_user(char *dst, const char __user *src, long count);

#define get_user(x, ptr)                                                                    \
	({                                                                                  \
		union {                                                                     \
			__typeof__(*(ptr)) v;                                               \
			char b[sizeof(*(ptr))];                                             \
		} __gu;                                                                     \
		int __gu_err = copy_from_user(__gu.b, (ptr), sizeof(*(ptr))) ? -EFAULT : 0; \
		if (__gu_err)                                                               \
			memset(__gu.b, 0, sizeof(__gu.b));                                  \
		(x) = __gu.v;                                                               \
		__gu_err;                                                                   \
	})

#define put_user(x, ptr)                                                      \
	({                                                                    \
		__typeof__(*(ptr)) __pu_val = (x);                            \
		copy_to_user((ptr), &__pu_val, sizeof(*(ptr))) ? -EFAULT : 0; \
	})

/* A user path name into a kernel buffer of PATH_MAX: 0, -EFAULT or -ENAMETOOLONG. */
int getname(const char __user *name, char **out);
void putname(char *name);

/* The exception table: a faulting instruction's address, and where to resume. */
struct exception_table_entry {
	unsigned long insn, fixup;
};
/* The fixup for a fault at eip in the kernel, or 0. */
unsigned long search_exception_tables(unsigned long eip);
struct pt_regs;
/*
 * A kernel fault at an instruction the table names (a user access, a segment
 * load in ret_from_trap) resumes at its fixup: true if it had one.
 */
bool fixup_exception(struct pt_regs *regs);

#endif
