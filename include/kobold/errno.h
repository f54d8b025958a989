/* errno.h: error numbers, the same values as Linux's; returned negated. */
#ifndef KOBOLD_ERRNO_H
#define KOBOLD_ERRNO_H

#define EPERM 1
#define ENOENT 2
#define ESRCH 3
#define EINTR 4
#define EIO 5
#define ENXIO 6
#define E2BIG 7
#define ENOEXEC 8
#define EBADF 9
#define ECHILD 10
#define EAGAIN 11
#define ENOMEM 12
#define EACCES 13
#define EFAULT 14
#define EBUSY 16
#define EEXIST 17
#define EXDEV 18
#define ENODEV 19
#define ENOTDIR 20
#define EISDIR 21
#define EINVAL 22
#define ENFILE 23
#define EMFILE 24
#define ENOTTY 25
#define EFBIG 27
#define ENOSPC 28
#define ESPIPE 29
#define EROFS 30
#define EPIPE 32
#define ERANGE 34
#define ENAMETOOLONG 36
#define ENOSYS 38
#define ENOTEMPTY 39
#define ELOOP 40
#define ETIMEDOUT 110
#define EOPNOTSUPP 95
#define ENOTSOCK 88
#define EAFNOSUPPORT 97
#define EMSGSIZE 90
#define ENOPROTOOPT 92
#define EPROTONOSUPPORT 93
#define ESOCKTNOSUPPORT 94
#define EADDRINUSE 98
#define ENOBUFS 105

/*
 * A sleeping system call a signal interrupted (Linux's include/linux/errno.h):
 * never seen by user space. On the way out do_signal turns it into EINTR or
 * runs the call again, as 2.6 i386's signal.c.
 */
#define ERESTARTSYS 512		  /* again after a handler with SA_RESTART, or none */
#define ERESTARTNOINTR 513	  /* always again */
#define ERESTARTNOHAND 514	  /* again only if no handler ran */
#define ERESTART_RESTARTBLOCK 516 /* EINTR after a handler; else restart_syscall */

/* strerror-style text for a positive or negative errno ("No such device"). */
const char *kstrerror(int err);

#endif
