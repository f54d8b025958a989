/* errname.c: errno values to the strerror texts that Linux's libc prints. */
#include <kobold/errno.h>
#include <kobold/types.h>

static const char *const errtext[] = {
	[EPERM] = "Operation not permitted",
	[ENOENT] = "No such file or directory",
	[EINTR] = "Interrupted system call",
	[EIO] = "Input/output error",
	[ENXIO] = "No such device or address",
	[E2BIG] = "Argument list too long",
	[ENOEXEC] = "Exec format error",
	[EBADF] = "Bad file descriptor",
	[EAGAIN] = "Resource temporarily unavailable",
	[ESRCH] = "No such process",
	[ECHILD] = "No child processes",
	[ENFILE] = "Too many open files in system",
	[EPIPE] = "Broken pipe",
	[ENOMEM] = "Cannot allocate memory",
	[EACCES] = "Permission denied",
	[EFAULT] = "Bad address",
	[EBUSY] = "Device or resource busy",
	[EEXIST] = "File exists",
	[EXDEV] = "Invalid cross-device link",
	[ENODEV] = "No such device",
	[ENOTDIR] = "Not a directory",
	[EISDIR] = "Is a directory",
	[EINVAL] = "Invalid argument",
	[EMFILE] = "Too many open files",
	[ENOTTY] = "Inappropriate ioctl for device",
	[EFBIG] = "File too large",
	[ENOSPC] = "No space left on device",
	[ESPIPE] = "Illegal seek",
	[EROFS] = "Read-only file system",
	[ERANGE] = "Numerical result out of range",
	[ENAMETOOLONG] = "File name too long",
	[ENOSYS] = "Function not implemented",
	[ENOTEMPTY] = "Directory not empty",
	[ELOOP] = "Too many levels of symbolic links",
	[EOPNOTSUPP] = "Operation not supported",
	[ETIMEDOUT] = "Connection timed out",
	[ENOTSOCK] = "Socket operation on non-socket",
	[EMSGSIZE] = "Message too long",
	[ENOPROTOOPT] = "Protocol not available",
	[EPROTONOSUPPORT] = "Protocol not supported",
	[ESOCKTNOSUPPORT] = "Socket type not supported",
	[EAFNOSUPPORT] = "Address family not supported by protocol",
	[EADDRINUSE] = "Address already in use",
	[ENOBUFS] = "No buffer space available",
};

const char *kstrerror(int err)
{
	unsigned int e = err < 0 ? 0u - (unsigned int)err : (unsigned int)err;

	if (e < ARRAY_SIZE(errtext) && errtext[e])
		return errtext[e];
	if (e >= ERESTARTSYS && e <= ERESTART_RESTARTBLOCK)
		return errtext[EINTR]; /* an interrupted sleep, which a process sees as EINTR */
	return "Unknown error";
}
