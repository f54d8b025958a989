/* version.h: the kernel's release, shown at boot and in /proc/version (Linux's UTS_RELEASE). */
#ifndef KOBOLD_VERSION_H
#define KOBOLD_VERSION_H

#define KOBOLD_VERSION "0.1"

#endif
