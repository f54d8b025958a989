/*
 * cred.h: the ids a process touches files with (2.6's current->fsuid and
 * fsgid). Kobold has no setfsuid: as in Linux without it, they follow the
 * effective ids. Root (fsuid 0) holds every capability, as in 2.6.
 */
#ifndef KOBOLD_CRED_H
#define KOBOLD_CRED_H

#include <kobold/sched.h>

static inline unsigned int current_fsuid(void) { return current->user.euid; }
static inline unsigned int current_fsgid(void) { return current->user.egid; }

/* 2.6's capable(CAP_CHOWN), CAP_FOWNER, CAP_FSETID: root's. */
static inline bool fs_capable(void) { return current_fsuid() == 0; }

/* The caller's group is gid (no supplementary groups: getgroups lists none). */
static inline bool in_group_p(unsigned int gid) { return gid == current_fsgid(); }

/*
 * For the kernel's own files (devtmpfs's nodes), made in whichever
 * process's call added the device: root's ids meanwhile, as 2.6.32's
 * kdevtmpfs thread had them (2.6.29's override_creds and revert_creds).
 */
struct fs_ids {
	unsigned int euid, egid;
};

static inline struct fs_ids override_creds_root(void)
{
	struct fs_ids old = { current->user.euid, current->user.egid };

	current->user.euid = 0;
	current->user.egid = 0;
	return old;
}

static inline void revert_creds(struct fs_ids old)
{
	current->user.euid = old.euid;
	current->user.egid = old.egid;
}

#endif
