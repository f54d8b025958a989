/*
 * cred.h: the ids a process touches files with (2.6's current->fsuid and
 * fsgid). Kobold has no setfsuid: as in Linux without it, they follow the
 * effective ids. Root (fsuid 0) holds every capability, as in 2.6.
 */
#ifndef KOBOLD_CRED_H
#define KOBOLD_CRED_H

#include <kobold/atomic.h>
#include <kobold/sched.h>

static inline unsigned int current_fsuid(void) { return current->user.euid; }
static inline unsigned int current_fsgid(void) { return current->user.egid; }

/* 2.6's capable(CAP_CHOWN), CAP_FOWNER, CAP_FSETID: root's. */
static inline bool fs_capable(void) { return current_fsuid() == 0; }

/*
 * A process's supplementary groups (setgroups), as 2.6's struct group_info:
 * sorted, never changed once made, shared by a fork's parent and child.
 */
struct group_info {
	atomic_t usage;
	unsigned int ngroups;
	unsigned int gid[];
};

/* Whether gid is in gi (NULL: no groups), by halving the sorted list. */
static inline bool groups_search(const struct group_info *gi, unsigned int gid)
{
	unsigned int lo = 0, hi = gi ? gi->ngroups : 0;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (gi->gid[mid] == gid)
			return true;
		if (gi->gid[mid] < gid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/* The caller's group is gid, or one of its supplementary groups (2.6's in_group_p). */
static inline bool in_group_p(unsigned int gid)
{
	return gid == current_fsgid() || groups_search(current->user.group_info, gid);
}

/* kernel/groups.c: one more holder of gi (NULL is fine), and one fewer. */
struct group_info *get_group_info(struct group_info *gi);
void put_group_info(struct group_info *gi);

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
