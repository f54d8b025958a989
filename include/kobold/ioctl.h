/*
 * ioctl.h: ioctl command numbers as Linux i386 builds them
 * (asm-generic/ioctl.h): 8 bits of number, 8 of type (the driver's magic
 * letter), 14 of argument size, 2 of direction, so that a command says
 * which way its argument goes and how big it is.
 */
#ifndef KOBOLD_IOCTL_H
#define KOBOLD_IOCTL_H

#define _IOC_NRBITS 8
#define _IOC_TYPEBITS 8
#define _IOC_SIZEBITS 14
#define _IOC_DIRBITS 2

#define _IOC_NRSHIFT 0
#define _IOC_TYPESHIFT (_IOC_NRSHIFT + _IOC_NRBITS)
#define _IOC_SIZESHIFT (_IOC_TYPESHIFT + _IOC_TYPEBITS)
#define _IOC_DIRSHIFT (_IOC_SIZESHIFT + _IOC_SIZEBITS)

#define _IOC_NONE 0U
#define _IOC_WRITE 1U /* user space writes the argument: the kernel reads it */
#define _IOC_READ 2U  /* user space reads it: the kernel writes it */

#define _IOC(dir, type, nr, size)                                              \
	(((dir) << _IOC_DIRSHIFT) | ((unsigned int)(type) << _IOC_TYPESHIFT) | \
	 ((unsigned int)(nr) << _IOC_NRSHIFT) | ((unsigned int)(size) << _IOC_SIZESHIFT))

#define _IO(type, nr) _IOC(_IOC_NONE, (type), (nr), 0)
#define _IOR(type, nr, argtype) _IOC(_IOC_READ, (type), (nr), sizeof(argtype))
#define _IOW(type, nr, argtype) _IOC(_IOC_WRITE, (type), (nr), sizeof(argtype))
#define _IOWR(type, nr, argtype) _IOC(_IOC_READ | _IOC_WRITE, (type), (nr), sizeof(argtype))

#define _IOC_DIR(nr) (((nr) >> _IOC_DIRSHIFT) & ((1U << _IOC_DIRBITS) - 1))
#define _IOC_TYPE(nr) (((nr) >> _IOC_TYPESHIFT) & ((1U << _IOC_TYPEBITS) - 1))
#define _IOC_NR(nr) (((nr) >> _IOC_NRSHIFT) & ((1U << _IOC_NRBITS) - 1))
#define _IOC_SIZE(nr) (((nr) >> _IOC_SIZESHIFT) & ((1U << _IOC_SIZEBITS) - 1))

#endif
