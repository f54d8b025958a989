/*
 * kobject.h: the object at the root of the device model (Linux 2.6's
 * lib/kobject.c): a name, a reference count, a parent, a kset and a type.
 * Every kobject that is added has a directory in sysfs.
 *
 * Kobold is single-CPU and the device model is never used from interrupts,
 * so nothing here (or in sysfs or drivers/base) takes a lock.
 */
#ifndef KOBOLD_KOBJECT_H
#define KOBOLD_KOBJECT_H

#include <kobold/kref.h>
#include <kobold/list.h>
#include <kobold/rwsem.h>
#include <kobold/sysfs.h>
#include <kobold/types.h>

#define KOBJ_NAME_LEN 20 /* names this short live inside the kobject */

/* Kobold's lifecycle bookkeeping, shown by the shell's `kobjects`. */
enum kobject_state {
	KOBJ_STATE_NONE, /* zeroed memory: kobject_init not called yet */
	KOBJ_STATE_INITIALIZED,
	KOBJ_STATE_ADDED,    /* in sysfs */
	KOBJ_STATE_DELETED,  /* out of sysfs, still referenced */
	KOBJ_STATE_RELEASED, /* release() has run (seen only if it kept the memory) */
};

struct kobject {
	const char *k_name; /* name, or points at name[] when it fits */
	char name[KOBJ_NAME_LEN];
	struct kref kref;
	struct list_head entry; /* in kset->list */
	struct kobject *parent; /* a reference is held from add to release */
	struct kset *kset;
	struct kobj_type *ktype;
	struct sysfs_dirent *sd; /* our directory while added (counted) */
	enum kobject_state state;
	struct list_head live; /* in the registry of unreleased kobjects */
};

struct kobj_type {
	void (*release)(struct kobject *kobj);
	const struct sysfs_ops *sysfs_ops;
	struct attribute **default_attrs; /* NULL-terminated; created at add */
};

struct kset_hotplug_ops {
	/* 0 to suppress the event for this kobject. */
	int (*filter)(struct kset *kset, struct kobject *kobj);
	/* The SUBSYSTEM value. */
	const char *(*name)(struct kset *kset, struct kobject *kobj);
	/* Add variables to envp/buffer (see add_hotplug_env_var); -ENOMEM if full. */
	int (*hotplug)(struct kset *kset, struct kobject *kobj, char **envp,
		       int num_envp, char *buffer, int buffer_size);
};

/*
 * A set of kobjects of one kind, itself a kobject (a directory). Linux
 * 2.6.0-2.6.21 wrapped it in a struct subsystem whose rwsem guarded the
 * list until 2.6.12 gave the kset a list_lock spinlock for it; Kobold keeps
 * the kset alone and the rwsem in it, as 2.6.0-2.6.11 took it.
 */
struct kset {
	struct kobj_type *ktype;   /* type of the members, if uniform */
	struct list_head list;	   /* members, in add order */
	struct rw_semaphore rwsem; /* the list: write to add or remove, read to walk */
	struct kobject kobj;
	struct kset_hotplug_ops *hotplug_ops;
};

/* An attribute of a kset's own directory (e.g. /sys/kernel/uevent_seqnum). */
struct subsys_attribute {
	struct attribute attr;
	ssize_t (*show)(struct kset *kset, char *buf);
	ssize_t (*store)(struct kset *kset, const char *buf, size_t count);
};

static inline const char *kobject_name(const struct kobject *kobj)
{
	return kobj->k_name;
}

/* The two steps of kobject_register, usable separately. */
void kobject_init(struct kobject *kobj);
int kobject_add(struct kobject *kobj);
void kobject_del(struct kobject *kobj);
/* init + add + an add event; and event + del + put. */
int kobject_register(struct kobject *kobj);
void kobject_unregister(struct kobject *kobj);

struct kobject *kobject_get(struct kobject *kobj);
void kobject_put(struct kobject *kobj);
/* After a failed registration: back to uninitialised, no release (Kobold's). */
void kobject_forget(struct kobject *kobj);
int kobject_set_name(struct kobject *kobj, const char *fmt, ...) __printf(2, 3);
struct kobj_type *get_ktype(struct kobject *kobj);

/* Path below /sys ("/class/block/vda"); a deleted object gives its name. */
int kobject_get_path(struct kobject *kobj, char *buf, size_t size);
const char *kobject_state_name(const struct kobject *kobj);
/* Every kobject initialised and not yet released, oldest first. */
/* fn runs with the registry's mutex held: it may sleep, but not release a kobject. */
void kobject_for_each_live(void (*fn)(struct kobject *kobj, void *arg), void *arg);
/* The same, from inside such an fn (the mutex already held). */
void __kobject_for_each_live(void (*fn)(struct kobject *kobj, void *arg), void *arg);
static inline unsigned int kobject_refcount(const struct kobject *kobj)
{
	return kref_read(&kobj->kref);
}

void kset_init(struct kset *kset);
int kset_add(struct kset *kset);
int kset_register(struct kset *kset);
void kset_unregister(struct kset *kset);

static inline struct kset *to_kset(struct kobject *kobj)
{
	return kobj ? container_of(kobj, struct kset, kobj) : NULL;
}

static inline struct kset *kset_get(struct kset *kset)
{
	return kset ? to_kset(kobject_get(&kset->kobj)) : NULL;
}

static inline void kset_put(struct kset *kset)
{
	kobject_put(&kset->kobj);
}

int subsys_create_file(struct kset *kset, struct subsys_attribute *attr);
void subsys_remove_file(struct kset *kset, struct subsys_attribute *attr);

/* /sys/kernel: kernel-wide attributes. */
extern struct kset kernel_subsys;

/*
 * Trace of the device model (the shell's `trace on`): when on, each
 * registration, removal, binding, interface call, event and release prints
 * "trace: <function> <path or name>".
 */
void devmodel_set_trace(bool on);
bool devmodel_trace_enabled(void);
void devmodel_trace(const char *func, const char *what, const char *extra);
void devmodel_trace_kobj(const char *func, struct kobject *kobj, const char *extra);

#endif
