/*
 * kobject_uevent.h: hotplug events (Linux 2.6's kobject_hotplug). Each event
 * is a list of KEY=VALUE strings: ACTION, DEVPATH, SUBSYSTEM, SEQNUM, then the
 * subsystem's own. Events go to a journal since boot (the shell's
 * `udevadm monitor --journal`) and to in-kernel listeners (a live `udevadm
 * monitor` is one), where 2.6 ran /sbin/hotplug.
 */
#ifndef KOBOLD_KOBJECT_UEVENT_H
#define KOBOLD_KOBJECT_UEVENT_H

#include <kobold/list.h>
#include <kobold/sysfs.h>
#include <kobold/types.h>

struct kobject;

enum kobject_action {
	KOBJ_ADD,
	KOBJ_REMOVE,
	KOBJ_CHANGE,
	KOBJ_OFFLINE, /* a CPU taken down through its online file */
	KOBJ_ONLINE,
};

#define NUM_ENVP 32		 /* variables in one event, as 2.6 */
#define HOTPLUG_BUFFER_SIZE 2048 /* bytes for all of them, as 2.6.16 on (1024 before) */

/* The last event's number; events are numbered from 1 without gaps. */
extern u64 uevent_seqnum;

/*
 * Send an event for kobj, if the kset above it wants events for it.
 * 0, or the error that kept it from being sent (no seqnum is used then).
 */
int kobject_hotplug(struct kobject *kobj, enum kobject_action action);
/* Its name from Linux 2.6.16 on, when "hotplug" became "uevent". */
static inline int kobject_uevent(struct kobject *kobj, enum kobject_action action)
{
	return kobject_hotplug(kobj, action);
}
const char *kobject_action_string(enum kobject_action action);
/* "add", "remove" or "change" (with an optional newline) to an action; else -EINVAL. */
int kobject_action_type(const char *buf, size_t count, enum kobject_action *type);

/*
 * For hotplug callbacks: append one formatted variable. envp has num_envp
 * slots, one of which is kept for the ending NULL; buffer holds buffer_size
 * bytes. *cur_index and *cur_len count what is used. -ENOMEM when full.
 */
int add_hotplug_env_var(char **envp, int num_envp, int *cur_index, char *buffer,
			int buffer_size, int *cur_len, const char *format, ...)
	__printf(7, 8);

/*
 * The newer API (Linux 2.6.24): the variables of one event as a struct, so a
 * callback takes one argument. Limits as 2.6.24 (later kernels allow 64
 * variables); add_uevent_var warns and returns -ENOMEM when either is full.
 */
#define UEVENT_NUM_ENVP 32
#define UEVENT_BUFFER_SIZE 2048

struct kobj_uevent_env {
	char *envp[UEVENT_NUM_ENVP];
	int envp_idx;
	char buf[UEVENT_BUFFER_SIZE];
	int buflen;
};

int add_uevent_var(struct kobj_uevent_env *env, const char *format, ...) __printf(2, 3);

/* The `uevent` attribute: the object's own keys as lines; writing sends an event. */
ssize_t kobject_uevent_show(struct kobject *kobj, char *buf);
ssize_t kobject_uevent_store(struct kobject *kobj, const char *buf, size_t count);

/* In-kernel listeners, called for every event sent, in registration order. */
struct hotplug_listener {
	const char *name;
	/* envp: every KEY=VALUE string of the event, ACTION first, NULL-ended */
	void (*event)(struct hotplug_listener *l, const char *action, char **envp);
	struct list_head node;
};
void hotplug_listener_register(struct hotplug_listener *l);
void hotplug_listener_unregister(struct hotplug_listener *l);

/* The journal: the last UEVENT_JOURNAL_LEN events since boot. */
#define UEVENT_JOURNAL_LEN 1024
#define UEVENT_RECORD_SIZE 512 /* bytes of KEY=VALUE text kept per event */

struct uevent_record {
	u64 timestamp_ns; /* ktime_get_ns() when sent */
	u64 seqnum;
	const char *action; /* values, pointing into env */
	const char *devpath;
	const char *subsystem;
	int envc;		      /* KEY=VALUE strings kept in env */
	bool truncated;		      /* some variables did not fit */
	unsigned int env_len;	      /* bytes of env in use */
	char env[UEVENT_RECORD_SIZE]; /* the strings, each NUL-ended, in order */
};

/* Oldest first. The records must not be kept past the callback. */
void uevent_journal_for_each(void (*fn)(const struct uevent_record *rec, void *arg),
			     void *arg);
/* The newest record (a listener's event, while it runs), or NULL. */
const struct uevent_record *uevent_journal_last(void);
/* Events pushed out of the full journal since boot. */
unsigned long uevent_journal_dropped(void);
/* The KEY=VALUE strings of rec: pass NULL for the first; NULL after the last. */
const char *uevent_record_next_var(const struct uevent_record *rec, const char *prev);
/* The value of KEY in rec, or NULL. */
const char *uevent_record_get(const struct uevent_record *rec, const char *key);

#endif
