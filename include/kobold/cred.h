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

#endif
