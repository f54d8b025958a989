/*
 * kmod.h: programs the kernel starts in user space, call_usermodehelper
 * (kernel/kmod.c), and the hotplug helper it runs per event
 * (kernel/uevent_helper.c).
 */
#ifndef KOBOLD_KMOD_H
#define KOBOLD_KMOD_H

#include <kobold/types.h>

/* How long call_usermodehelper waits: 2.6.23's enum umh_wait, with its values. */
enum umh_wait {
	UMH_NO_WAIT = -1,  /* not at all: the helper is queued, 0 returned */
	UMH_WAIT_EXEC = 0, /* until the exec: its error, or 0 once the program runs */
	UMH_WAIT_PROC = 1, /* until the program exits: its wait status, or the exec's error */
};

/*
 * Runs path with argv and envp (each NULL-terminated; copied, so the
 * caller's may go at once) as a new process, made by the khelper thread,
 * its stdio the console. An empty path runs nothing and returns 0, as 2.6.
 * -EBUSY before khelper runs (usermodehelper_init).
 */
int call_usermodehelper(const char *path, char *const argv[], char *const envp[],
			enum umh_wait wait);
/* Starts the khelper work queue (end of boot: the programs need a root filesystem). */
void usermodehelper_init(void);
/* Helpers queued or between khelper and their exec (they then run on their own). */
int usermodehelper_in_flight(void);

/* kernel/uevent_helper.c: /proc/sys/kernel/hotplug, /sys/kernel/uevent_helper */
#define UEVENT_HELPER_PATH_LEN 256
extern char uevent_helper[UEVENT_HELPER_PATH_LEN];
/* The /sys/kernel attribute and the event listener that runs the helper. */
void uevent_helper_init(void);

#endif
