/*
 * kobject.c: kobject and kset lifetimes (Linux 2.6's lib/kobject.c), plus a
 * registry of every kobject not yet released, for the shell's `kobjects`.
 * Misuse (a second add, a put too many, the last put of an object still in
 * sysfs) warns with a backtrace and does nothing else, so a student's bug
 * shows up in the log, not as corruption.
 */
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/mutex.h>
#include <kobold/preempt_inject.h>
#include <kobold/slab.h>
#include <kobold/string.h>

/* Initialised and not yet released, in kobject_init order (Kobold's registry, for `kobjects`). */
static LIST_HEAD(kobject_live);
static DEFINE_MUTEX(kobject_live_mutex); /* the registry: a leaf, taken by init, release and walks */

static void live_add(struct kobject *kobj)
{
	mutex_lock(&kobject_live_mutex);
	list_add_tail(&kobj->live, &kobject_live);
	mutex_unlock(&kobject_live_mutex);
}

static void live_del(struct kobject *kobj)
{
	mutex_lock(&kobject_live_mutex);
	list_del_init(&kobj->live);
	mutex_unlock(&kobject_live_mutex);
}

/* The kset's list, under its rwsem (2.6's subsys->rwsem, taken for write). */
static void kset_list_add(struct kobject *kobj)
{
	struct kset *kset = kobj->kset;

	down_write(&kset->rwsem);
	list_add_tail(&kobj->entry, &kset->list);
	up_write(&kset->rwsem);
}

static void kset_list_del(struct kobject *kobj)
{
	struct kset *kset = kobj->kset;

	if (!kset) {
		list_del_init(&kobj->entry);
		return;
	}
	down_write(&kset->rwsem);
	list_del_init(&kobj->entry);
	up_write(&kset->rwsem);
}

static const char *const state_names[] = {
	[KOBJ_STATE_NONE] = "uninitialized",
	[KOBJ_STATE_INITIALIZED] = "initialized",
	[KOBJ_STATE_ADDED] = "added",
	[KOBJ_STATE_DELETED] = "deleted",
	[KOBJ_STATE_RELEASED] = "released",
};

const char *kobject_state_name(const struct kobject *kobj)
{
	if ((unsigned int)kobj->state >= ARRAY_SIZE(state_names))
		return "invalid";
	return state_names[kobj->state];
}

static bool kobject_in_registry(const struct kobject *kobj)
{
	return kobj->state == KOBJ_STATE_INITIALIZED ||
	       kobj->state == KOBJ_STATE_ADDED || kobj->state == KOBJ_STATE_DELETED;
}

/* For warnings: the name, even of an object that never got one. */
static const char *safe_name(const struct kobject *kobj)
{
	return kobj->k_name ? kobj->k_name : "(unnamed)";
}

struct kobj_type *get_ktype(struct kobject *kobj)
{
	if (kobj->kset && kobj->kset->ktype)
		return kobj->kset->ktype;
	return kobj->ktype;
}

/* The kobject must start zeroed (kzalloc or static), as in Linux. */
void kobject_init(struct kobject *kobj)
{
	if (WARN(kobject_in_registry(kobj),
		 "kobject: '%s' (%p): tried to init an initialized object",
		 safe_name(kobj), (void *)kobj))
		return;
	kref_init(&kobj->kref);
	INIT_LIST_HEAD(&kobj->entry);
	kobj->sd = NULL;
	kobj->state = KOBJ_STATE_INITIALIZED;
	live_add(kobj);
}

int kobject_set_name(struct kobject *kobj, const char *fmt, ...)
{
	const char *old = kobj->k_name;
	char small[KOBJ_NAME_LEN];
	char *name = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return -EINVAL;
	if (n >= KOBJ_NAME_LEN) { /* too long for the inline buffer */
		name = kmalloc((size_t)n + 1);
		if (!name)
			return -ENOMEM;
		va_start(ap, fmt);
		vsnprintf(name, (size_t)n + 1, fmt, ap);
		va_end(ap);
		kobj->k_name = name;
	} else {
		memcpy(kobj->name, small, (size_t)n + 1);
		kobj->k_name = kobj->name;
	}
	if (old && old != kobj->name)
		kfree(old);
	return 0;
}

static bool valid_name(const char *name)
{
	return name && *name && !strchr(name, '/') && strcmp(name, ".") != 0 &&
	       strcmp(name, "..") != 0;
}

static int populate_dir(struct kobject *kobj)
{
	struct kobj_type *t = get_ktype(kobj);
	struct attribute **a;
	int err;

	for (a = t ? t->default_attrs : NULL; a && *a; a++) {
		err = sysfs_create_file(kobj, *a);
		if (err)
			return err;
	}
	return 0;
}

int kobject_add(struct kobject *kobj)
{
	struct kobject *old_parent, *parent;
	int err;

	if (!kobj)
		return -ENOENT;
	/* a deleted kobject still pins its old parent: it is not added again */
	if (WARN(kobj->state != KOBJ_STATE_INITIALIZED,
		 "kobject: '%s' (%p): kobject_add in state %s", safe_name(kobj),
		 (void *)kobj, kobject_state_name(kobj)))
		return -EINVAL;
	if (!valid_name(kobj->k_name)) {
		pr_err("kobject: (%p): attempted to be registered with an invalid name '%s'\n",
		       (void *)kobj, kobj->k_name ? kobj->k_name : "");
		return -EINVAL;
	}
	old_parent = kobj->parent;
	parent = kobject_get(kobj->parent);
	if (!parent && kobj->kset) /* no parent: the kset's directory */
		parent = kobject_get(&kobj->kset->kobj);
	kobj->parent = parent;
	if (kobj->kset)
		kset_list_add(kobj);
	err = sysfs_create_dir(kobj);
	if (err)
		goto out_unlink;
	err = populate_dir(kobj);
	if (err)
		goto out_dir;
	kobj->state = KOBJ_STATE_ADDED;
	devmodel_trace_kobj("kobject_add", kobj, NULL);
	return 0;

out_dir:
	sysfs_remove_dir(kobj);
out_unlink:
	kset_list_del(kobj);
	kobj->parent = old_parent;
	kobject_put(parent);
	return err;
}

/* Out of sysfs and its kset; the parent stays pinned until our release. */
void kobject_del(struct kobject *kobj)
{
	if (!kobj)
		return;
	if (WARN(kobj->state != KOBJ_STATE_ADDED,
		 "kobject: '%s' (%p): kobject_del in state %s (not added)",
		 safe_name(kobj), (void *)kobj, kobject_state_name(kobj)))
		return;
	devmodel_trace_kobj("kobject_del", kobj, NULL);
	sysfs_remove_dir(kobj);
	kset_list_del(kobj);
	kobj->state = KOBJ_STATE_DELETED;
}

int kobject_register(struct kobject *kobj)
{
	int err;

	if (!kobj)
		return -EINVAL;
	kobject_init(kobj);
	err = kobject_add(kobj);
	if (err) {
		pr_err("kobject_register failed for %s (%d)\n", safe_name(kobj), err);
		return err; /* the caller still drops its reference with kobject_put */
	}
	kobject_hotplug(kobj, KOBJ_ADD);
	return 0;
}

void kobject_unregister(struct kobject *kobj)
{
	if (!kobj)
		return;
	kobject_hotplug(kobj, KOBJ_REMOVE);
	kobject_del(kobj);
	kobject_put(kobj);
}

struct kobject *kobject_get(struct kobject *kobj)
{
	if (!kobj)
		return NULL;
	WARN(atomic_read(&kobj->kref.refcount) <= 0 || !kobject_in_registry(kobj),
	     "kobject: '%s' (%p): kobject_get with no reference left (state %s)",
	     safe_name(kobj), (void *)kobj, kobject_state_name(kobj));
	if (atomic_read(&kobj->kref.refcount) > 0)
		kref_get(&kobj->kref);
	return kobj;
}

/* Keep the name readable after release: the heap copy goes, a prefix stays. */
static void kobject_keep_name(struct kobject *kobj)
{
	const char *old = kobj->k_name;

	if (!old || old == kobj->name)
		return;
	strscpy(kobj->name, old, sizeof(kobj->name));
	kobj->k_name = kobj->name;
	kfree(old);
}

/*
 * As Linux 2.6.0 to 2.6.24 did: the parent is put after our release, so a
 * parent (a class, say) outlives every child that still has a reference
 * (2.6.25 on put it at kobject_del). The counts are 2.6.25's: kobject_add
 * takes no reference on the object itself, where 2.6.0-2.6.24's did.
 */
static void kobject_cleanup(struct kobject *kobj)
{
	struct kobj_type *t = get_ktype(kobj);
	/* held from a successful add on (never added: the caller's pointer only) */
	struct kobject *parent = kobj->state == KOBJ_STATE_DELETED ? kobj->parent : NULL;

	devmodel_trace("kobject_release", safe_name(kobj), NULL);
	live_del(kobj);
	kobj->state = KOBJ_STATE_RELEASED;
	kobject_keep_name(kobj);
	/* no release: Linux's pr_debug from 2.6.25 (nothing before); Kobold's is loud */
	if (t && t->release)
		t->release(kobj); /* may free kobj: nothing touches it after */
	else
		WARN(1, "kobject: '%s' does not have a release() function, it is broken and must be fixed.",
		     safe_name(kobj));
	kobject_put(parent);
}

static void kobject_release(struct kref *kref)
{
	kobject_cleanup(container_of(kref, struct kobject, kref));
}

void kobject_put(struct kobject *kobj)
{
	if (!kobj)
		return;
	if (WARN(atomic_read(&kobj->kref.refcount) <= 0 || !kobject_in_registry(kobj),
		 "kobject: '%s' (%p): kobject_put with no reference left (state %s)",
		 safe_name(kobj), (void *)kobj, kobject_state_name(kobj)))
		return;
	/*
	 * A put without a del. 2.6.0-2.6.24 never got here (kobject_add held a
	 * reference of its own: the object leaked); 2.6.25 deleted and released
	 * it, a class device still on its class's list. Kobold refuses.
	 */
	if (WARN(atomic_read(&kobj->kref.refcount) == 1 && kobj->state == KOBJ_STATE_ADDED,
		 "kobject: '%s' (%p): last reference put while still in sysfs; kept (unregister it first)",
		 safe_name(kobj), (void *)kobj))
		return;
	preempt_point(PI_KOBJECT_PUT);
	kref_put(&kobj->kref, kobject_release);
	preempt_point(PI_KOBJECT_PUT);
}

/*
 * Undo kobject_init (and a del) after a failed registration, without the
 * release: the caller still owns the object, as after a failed 2.6
 * kobject_register. Only for the one reference registration made.
 */
void kobject_forget(struct kobject *kobj)
{
	if (WARN(atomic_read(&kobj->kref.refcount) != 1 || kobj->state == KOBJ_STATE_ADDED ||
			 !kobject_in_registry(kobj),
		 "kobject: '%s' (%p): kobject_forget in state %s, refcount %d",
		 safe_name(kobj), (void *)kobj, kobject_state_name(kobj),
		 atomic_read(&kobj->kref.refcount)))
		return;
	live_del(kobj);
	atomic_set(&kobj->kref.refcount, 0);
	kobject_keep_name(kobj); /* a name on the heap would leak with the object */
	if (kobj->state == KOBJ_STATE_DELETED)
		kobject_put(kobj->parent);
	kobj->state = KOBJ_STATE_NONE;
}

int kobject_get_path(struct kobject *kobj, char *buf, size_t size)
{
	struct kobject *k;
	size_t len = 0, n;

	if (kobj->state != KOBJ_STATE_ADDED) /* unlinked: only the name is left */
		return strscpy(buf, safe_name(kobj), size) < 0 ? -ENAMETOOLONG
							       : (int)strlen(buf);
	for (k = kobj; k; k = k->parent)
		len += strlen(safe_name(k)) + 1;
	if (len >= size)
		return -ENAMETOOLONG;
	buf[len] = '\0';
	for (k = kobj, n = len; k; k = k->parent) {
		size_t l = strlen(safe_name(k));

		n -= l;
		memcpy(buf + n, safe_name(k), l);
		buf[--n] = '/';
	}
	return (int)len;
}

void __kobject_for_each_live(void (*fn)(struct kobject *kobj, void *arg), void *arg)
{
	struct kobject *k, *next;

	list_for_each_entry_safe(k, next, &kobject_live, live)
		fn(k, arg);
}

void kobject_for_each_live(void (*fn)(struct kobject *kobj, void *arg), void *arg)
{
	mutex_lock(&kobject_live_mutex);
	__kobject_for_each_live(fn, arg);
	mutex_unlock(&kobject_live_mutex);
}

/* Ksets are mostly static in Kobold; a dynamic one sets its own ktype. */
static void kset_release(struct kobject *kobj __unused)
{
}

static ssize_t subsys_attr_show(struct kobject *kobj, struct attribute *attr, char *buf)
{
	struct subsys_attribute *sa = container_of(attr, struct subsys_attribute, attr);

	return sa->show ? sa->show(to_kset(kobj), buf) : -EIO;
}

static ssize_t subsys_attr_store(struct kobject *kobj, struct attribute *attr,
				 const char *buf, size_t count)
{
	struct subsys_attribute *sa = container_of(attr, struct subsys_attribute, attr);

	return sa->store ? sa->store(to_kset(kobj), buf, count) : -EIO;
}

static const struct sysfs_ops subsys_sysfs_ops = {
	.show = subsys_attr_show,
	.store = subsys_attr_store,
};

static struct kobj_type kset_ktype = {
	.release = kset_release,
	.sysfs_ops = &subsys_sysfs_ops,
};

void kset_init(struct kset *kset)
{
	if (!get_ktype(&kset->kobj))
		kset->kobj.ktype = &kset_ktype;
	kobject_init(&kset->kobj);
	INIT_LIST_HEAD(&kset->list);
	init_rwsem(&kset->rwsem); /* every kset's one class: none is taken inside another */
}

int kset_add(struct kset *kset)
{
	return kobject_add(&kset->kobj);
}

/*
 * On failure the kset is as before the call, and its release has not run:
 * the caller still owns it (and may free it), as in 2.6.
 */
int kset_register(struct kset *kset)
{
	int err;

	kset_init(kset);
	err = kset_add(kset);
	if (err)
		kobject_forget(&kset->kobj);
	return err;
}

void kset_unregister(struct kset *kset)
{
	if (!kset)
		return;
	kobject_del(&kset->kobj);
	kobject_put(&kset->kobj);
}

int subsys_create_file(struct kset *kset, struct subsys_attribute *attr)
{
	return sysfs_create_file(&kset->kobj, &attr->attr);
}

void subsys_remove_file(struct kset *kset, struct subsys_attribute *attr)
{
	sysfs_remove_file(&kset->kobj, &attr->attr);
}
