/*
 * kobject_uevent.c: hotplug events (Linux 2.6's kobject_hotplug): build the
 * KEY=VALUE environment, number it, keep it in the journal and hand it to
 * the in-kernel listeners.
 */
#include <kobold/kobject_uevent.h>
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/mutex.h>
#include <kobold/netlink.h>
#include <kobold/slab.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>

u64 uevent_seqnum;
static DEFINE_SPINLOCK(sequence_lock); /* the number: 2.6.10's kobject_hotplug took it so */
static LIST_HEAD(listeners);
/*
 * Kobold's: one event sent at a time, so the journal and every listener
 * see them in SEQNUM order (2.6's helper and netlink could see them out of
 * order, and udevd sorted them); also the listener list.
 */
static DEFINE_MUTEX(uevent_mutex);

/* A static ring, so events since boot cost no allocation (and no test leaks). */
static struct uevent_record journal[UEVENT_JOURNAL_LEN];
static unsigned int journal_head; /* the slot the next event takes */
static unsigned int journal_count;
static unsigned long journal_dropped;

static const char *const action_strings[] = {
	[KOBJ_ADD] = "add",
	[KOBJ_REMOVE] = "remove",
	[KOBJ_CHANGE] = "change",
	[KOBJ_OFFLINE] = "offline",
	[KOBJ_ONLINE] = "online",
};

const char *kobject_action_string(enum kobject_action action)
{
	if ((unsigned int)action >= ARRAY_SIZE(action_strings))
		return "unknown";
	return action_strings[action];
}

int kobject_action_type(const char *buf, size_t count, enum kobject_action *type)
{
	char word[8];
	unsigned int i;

	if (count == 0 || count >= sizeof(word))
		return -EINVAL;
	memcpy(word, buf, count);
	word[count] = '\0';
	for (i = 0; i < ARRAY_SIZE(action_strings); i++) {
		if (sysfs_streq(word, action_strings[i])) {
			*type = (enum kobject_action)i;
			return 0;
		}
	}
	return -EINVAL;
}

int add_hotplug_env_var(char **envp, int num_envp, int *cur_index, char *buffer,
			int buffer_size, int *cur_len, const char *format, ...)
{
	int start = *cur_len, n;
	va_list ap;

	/* keep one slot for the NULL that ends envp */
	if (*cur_index >= num_envp - 1 || start >= buffer_size)
		return -ENOMEM;
	va_start(ap, format);
	n = vsnprintf(buffer + start, (size_t)(buffer_size - start), format, ap);
	va_end(ap);
	if (n < 0 || n + 1 > buffer_size - start)
		return -ENOMEM;
	envp[(*cur_index)++] = buffer + start;
	*cur_len = start + n + 1;
	return 0;
}

int add_uevent_var(struct kobj_uevent_env *env, const char *format, ...)
{
	size_t room = sizeof(env->buf) - (size_t)env->buflen;
	va_list ap;
	int n;

	if (WARN(env->envp_idx >= (int)ARRAY_SIZE(env->envp), "add_uevent_var: too many keys"))
		return -ENOMEM;
	va_start(ap, format);
	n = vsnprintf(&env->buf[env->buflen], room, format, ap);
	va_end(ap);
	if (WARN(n < 0 || (size_t)n >= room, "add_uevent_var: buffer size too small"))
		return -ENOMEM;
	env->envp[env->envp_idx++] = &env->buf[env->buflen];
	env->buflen += n + 1;
	return 0;
}

/* One event being built: NUM_ENVP + 1 slots so envp always ends in NULL. */
struct uevent_env {
	char *envp[NUM_ENVP + 1];
	int envc;
	int buflen;
	char buf[HOTPLUG_BUFFER_SIZE];
};

static int env_add(struct uevent_env *env, const char *fmt, const char *s)
{
	return add_hotplug_env_var(env->envp, NUM_ENVP, &env->envc, env->buf,
				   HOTPLUG_BUFFER_SIZE, &env->buflen, fmt, s);
}

/* The kset whose hotplug_ops decide for kobj: its own, or the nearest parent's. */
static struct kset *hotplug_kset(struct kobject *kobj)
{
	while (!kobj->kset && kobj->parent)
		kobj = kobj->parent;
	if (kobj->kset && kobj->kset->hotplug_ops)
		return kobj->kset;
	return NULL;
}

/* Let the subsystem add its variables; the slots and bytes left are exact. */
static int env_add_subsystem_vars(struct uevent_env *env, struct kset *kset,
				  struct kobject *kobj)
{
	char **first = &env->envp[env->envc];
	int err, n;

	if (!kset->hotplug_ops->hotplug)
		return 0;
	err = kset->hotplug_ops->hotplug(kset, kobj, first, NUM_ENVP - env->envc,
					 env->buf + env->buflen,
					 HOTPLUG_BUFFER_SIZE - env->buflen);
	if (err)
		return err;
	for (n = 0; env->envc + n < NUM_ENVP && first[n]; n++)
		if (first[n] < env->buf || first[n] >= env->buf + HOTPLUG_BUFFER_SIZE)
			return -EFAULT; /* a pointer outside the buffer it was given */
	env->envc += n;
	env->envp[env->envc] = NULL;
	return 0;
}

/* Fill env for kobj's event; -ENODEV if kobj's kset sends no events for it. */
static int uevent_build(struct kobject *kobj, enum kobject_action action, u64 seq,
			struct uevent_env *env)
{
	struct kset *kset = hotplug_kset(kobj);
	const char *subsystem;
	char path[256], seqstr[24];
	int err;

	if (!kset || (kset->hotplug_ops->filter && !kset->hotplug_ops->filter(kset, kobj)))
		return -ENODEV;
	subsystem = kset->hotplug_ops->name ? kset->hotplug_ops->name(kset, kobj) : NULL;
	if (!subsystem) /* as 2.6: no name() or a NULL one gives the kset's name */
		subsystem = kobject_name(&kset->kobj);
	err = kobject_get_path(kobj, path, sizeof(path));
	if (err < 0)
		return err;
	scnprintf(seqstr, sizeof(seqstr), "%llu", (unsigned long long)seq);
	memset(env->envp, 0, sizeof(env->envp));
	env->envc = env->buflen = 0;
	if (env_add(env, "ACTION=%s", kobject_action_string(action)) ||
	    env_add(env, "DEVPATH=%s", path) ||
	    env_add(env, "SUBSYSTEM=%s", subsystem) ||
	    env_add(env, "SEQNUM=%s", seqstr))
		return -ENOMEM;
	return env_add_subsystem_vars(env, kset, kobj);
}

static const char *var_value(const char *var, const char *key)
{
	size_t n = strlen(key);

	return strncmp(var, key, n) == 0 && var[n] == '=' ? var + n + 1 : NULL;
}

static void journal_store(u64 seq, char **envp)
{
	struct uevent_record *rec = &journal[journal_head];
	size_t pos = 0;
	int i;

	journal_head = (journal_head + 1) % UEVENT_JOURNAL_LEN;
	if (journal_count == UEVENT_JOURNAL_LEN)
		journal_dropped++;
	else
		journal_count++;
	rec->timestamp_ns = ktime_get_ns();
	rec->seqnum = seq;
	rec->envc = 0;
	rec->truncated = false;
	for (i = 0; envp[i]; i++) {
		size_t n = strlen(envp[i]) + 1;

		if (pos + n > sizeof(rec->env)) {
			rec->truncated = true;
			break;
		}
		memcpy(rec->env + pos, envp[i], n);
		pos += n;
		rec->envc++;
	}
	rec->env_len = (unsigned int)pos;
	rec->action = uevent_record_get(rec, "ACTION");
	rec->devpath = uevent_record_get(rec, "DEVPATH");
	rec->subsystem = uevent_record_get(rec, "SUBSYSTEM");
	if (!rec->devpath)
		rec->devpath = "";
	if (!rec->subsystem)
		rec->subsystem = "";
}

static void notify_listeners(const char *action, char **envp)
{
	struct hotplug_listener *l, *next;

	list_for_each_entry_safe(l, next, &listeners, node)
		l->event(l, action, envp);
}

int kobject_hotplug(struct kobject *kobj, enum kobject_action action)
{
	struct uevent_env *env = kmalloc(sizeof(*env));
	int err = -ENOMEM;
	u64 seq;

	mutex_lock(&uevent_mutex);
	if (env)
		err = uevent_build(kobj, action, uevent_seqnum + 1, env);
	if (err == -ENODEV) { /* not an object that sends events */
		err = 0;
		goto out;
	}
	if (err) {
		pr_warn("kobject_hotplug: %s: %s event not sent (%s)\n", kobject_name(kobj),
			kobject_action_string(action), kstrerror(err));
		goto out;
	}
	spin_lock(&sequence_lock);
	seq = ++uevent_seqnum;
	spin_unlock(&sequence_lock);
	devmodel_trace_kobj("kobject_hotplug", kobj, kobject_action_string(action));
	journal_store(seq, env->envp);
	notify_listeners(kobject_action_string(action), env->envp);
	kobject_uevent_net_broadcast(env->envp);
out:
	mutex_unlock(&uevent_mutex);
	kfree(env);
	return err;
}

static bool is_event_key(const char *var)
{
	return var_value(var, "ACTION") || var_value(var, "DEVPATH") ||
	       var_value(var, "SUBSYSTEM") || var_value(var, "SEQNUM");
}

ssize_t kobject_uevent_show(struct kobject *kobj, char *buf)
{
	struct uevent_env *env = kmalloc(sizeof(*env));
	int err, i, len = 0;

	if (!env)
		return -ENOMEM;
	err = uevent_build(kobj, KOBJ_CHANGE, uevent_seqnum, env);
	for (i = 0; !err && env->envp[i]; i++)
		if (!is_event_key(env->envp[i]))
			len += scnprintf(buf + len, SYSFS_PAGE_SIZE - (size_t)len, "%s\n",
					 env->envp[i]);
	kfree(env);
	if (err == -ENODEV)
		return 0;
	return err ? err : len;
}

ssize_t kobject_uevent_store(struct kobject *kobj, const char *buf, size_t count)
{
	enum kobject_action action;
	int err = kobject_action_type(buf, count, &action);

	if (!err)
		err = kobject_hotplug(kobj, action);
	return err ? err : (ssize_t)count;
}

void hotplug_listener_register(struct hotplug_listener *l)
{
	mutex_lock(&uevent_mutex);
	list_add_tail(&l->node, &listeners);
	mutex_unlock(&uevent_mutex);
}

void hotplug_listener_unregister(struct hotplug_listener *l)
{
	mutex_lock(&uevent_mutex);
	list_del_init(&l->node);
	mutex_unlock(&uevent_mutex);
}

void uevent_journal_for_each(void (*fn)(const struct uevent_record *rec, void *arg),
			     void *arg)
{
	unsigned int i, first = (journal_head + UEVENT_JOURNAL_LEN - journal_count) %
				UEVENT_JOURNAL_LEN;

	mutex_lock(&uevent_mutex);
	for (i = 0; i < journal_count; i++)
		fn(&journal[(first + i) % UEVENT_JOURNAL_LEN], arg);
	mutex_unlock(&uevent_mutex);
}

const struct uevent_record *uevent_journal_last(void)
{
	if (!journal_count)
		return NULL;
	return &journal[(journal_head + UEVENT_JOURNAL_LEN - 1) % UEVENT_JOURNAL_LEN];
}

unsigned long uevent_journal_dropped(void)
{
	return journal_dropped;
}

const char *uevent_record_next_var(const struct uevent_record *rec, const char *prev)
{
	const char *p = prev ? prev + strlen(prev) + 1 : rec->env;

	return p < rec->env + rec->env_len ? p : NULL;
}

const char *uevent_record_get(const struct uevent_record *rec, const char *key)
{
	const char *var, *v;

	for (var = uevent_record_next_var(rec, NULL); var;
	     var = uevent_record_next_var(rec, var)) {
		v = var_value(var, key);
		if (v)
			return v;
	}
	return NULL;
}
