/*
 * udevd.c: udev's daemon as deferred work. The kernel's events are queued by
 * a listener, in the sender's context and nothing more; a work item takes
 * them one at a time, in order: rules, /dev links and mode, RUN+=, and the
 * event sent on as udev's (the UDEV lines of `udevadm monitor`).
 */
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/irqflags.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/module.h>
#include <kobold/mutex.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/udevd.h>
#include <kobold/workqueue.h>

/* One kernel event, copied when it was sent. */
struct udevd_event {
	struct list_head node;
	bool from_rule; /* sent by the work of another event's rules (RUN+=, ATTR=) */
	char *envp[NUM_ENVP + 1];
	char buf[];
};

/* The links udev made for a device, removed with it. */
struct udev_db_entry {
	struct list_head node;
	char *devpath;
	char *links[UDEV_LINKS_MAX];
	int nr_links;
};

static LIST_HEAD(queue);
static unsigned int queued;
static unsigned long dropped;
static unsigned long dropped_said; /* jiffies of the last report; 0: none yet */
static bool processing;
static struct task_struct *processing_task;  /* the thread handling an event (for settle) */
static struct udevd_event *processing_event; /* that event: still "in the queue" for settle */
static struct work_struct udevd_work;
static LIST_HEAD(udev_listeners);
static LIST_HEAD(db);
static struct udev_rules rules;
/*
 * udevd's state: the rules, the database of links, the listeners (Kobold's:
 * the real udevd is one process). Held while the rules are applied and
 * their nodes and links made, not while RUN+= programs run, which may
 * call udevadm.
 */
static DEFINE_MUTEX(udevd_mutex);
static int (*executor)(const char *line);
static int (*executor_enter)(void);
static void (*executor_leave)(void);

/* Seconds an event's work may take, systemd-udevd's default (udev.event_timeout=). */
static unsigned int event_timeout = 180;
__param("udev", event_timeout, event_timeout, uint,
	"seconds an event's rules and RUN+= programs may take before they are killed (180)");

/*
 * The built-in rules: the virtio lines of systemd's
 * 60-persistent-storage.rules (by-id from the serial, by-path from
 * path_id's ID_PATH), and 80-drivers.rules's module loading. A file of the
 * same name in /etc/udev/rules.d replaces one, as /etc overrides /usr/lib.
 */
static const struct builtin_rules {
	const char *name;
	const char *text;
} builtin_rules[] = {
	{ "60-persistent-storage.rules",
	  "# persistent links for virtio disks and their partitions\n"
	  "ACTION==\"remove\", GOTO=\"persistent_storage_end\"\n"
	  "SUBSYSTEM!=\"block\", GOTO=\"persistent_storage_end\"\n"
	  "KERNEL!=\"vd*\", GOTO=\"persistent_storage_end\"\n"
	  "KERNEL==\"vd*[!0-9]\", ATTRS{serial}==\"?*\", ENV{ID_SERIAL}=\"$attr{serial}\", "
	  "SYMLINK+=\"disk/by-id/virtio-$env{ID_SERIAL}\"\n"
	  "KERNEL==\"vd*[0-9]\", ATTRS{serial}==\"?*\", ENV{ID_SERIAL}=\"$attr{serial}\", "
	  "SYMLINK+=\"disk/by-id/virtio-$env{ID_SERIAL}-part%n\"\n"
	  "IMPORT{builtin}=\"path_id\"\n"
	  "KERNEL==\"vd*[!0-9]\", ENV{ID_PATH}==\"?*\", SYMLINK+=\"disk/by-path/$env{ID_PATH}\"\n"
	  "KERNEL==\"vd*[0-9]\", ENV{ID_PATH}==\"?*\", "
	  "SYMLINK+=\"disk/by-path/$env{ID_PATH}-part%n\"\n"
	  "LABEL=\"persistent_storage_end\"\n" },
	{ "80-drivers.rules",
	  "# a new device's module, by its MODALIAS (kmod's alias patterns)\n"
	  "ACTION==\"add\", ENV{MODALIAS}==\"?*\", RUN{builtin}+=\"kmod load\"\n" },
};

#define BUILTIN_PREFIX "(built-in)/"

static const char *envp_get(char *const *envp, const char *key)
{
	size_t n = strlen(key);

	for (; *envp; envp++)
		if (strncmp(*envp, key, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

static void db_drop(const char *devpath);

/*
 * A remove event that cannot be handled still takes the device's links
 * away. From a rule's own write (udevd_handle holds the mutex) the mutex is
 * not taken again.
 */
static void drop_links_of_lost(const char *action, const char *devpath)
{
	bool mine = udevd_mutex.owner == current;

	if (!action || !devpath || strcmp(action, "remove") != 0)
		return;
	if (!mine)
		mutex_lock(&udevd_mutex);
	db_drop(devpath);
	if (!mine)
		mutex_unlock(&udevd_mutex);
}

/*
 * Off (udev.enabled=0 at boot, `udevadm control --exit` at run time): the
 * kernel's events reach only the hotplug helper and netlink, and user
 * space (mdev, a /sbin/hotplug script) owns /dev beside devtmpfs.
 */
static bool udevd_enabled = true;
__param("udev", enabled, udevd_enabled, bool,
	"0: the in-kernel udev handles no events (a hotplug helper or netlink listener does)");

/* The listener: a copy of the event, queued; all else happens in the work. */
static void udevd_listen(struct hotplug_listener *l, const char *action, char **envp)
{
	struct udevd_event *e;
	size_t len = 0, off = 0;
	unsigned long flags;
	int n = 0;

	if (!udevd_enabled)
		return;
	for (char **v = envp; *v && n < NUM_ENVP; v++, n++)
		len += strlen(*v) + 1;
	if (queued >= UDEVD_QUEUE_MAX) {
		/*
		 * Once a burst, and at most once in 5 s (printk_ratelimit's
		 * interval): the queue drains beside the sender and fills again,
		 * and a flood of reports would bury the console.
		 */
		if (dropped++ == 0 && (!dropped_said || (long)(jiffies - (dropped_said + 5 * HZ)) > 0)) {
			dropped_said = jiffies ?: 1;
			pr_warn("udevd: queue full (%d events): events not handled\n", UDEVD_QUEUE_MAX);
		}
		drop_links_of_lost(action, envp_get(envp, "DEVPATH"));
		return;
	}
	e = kmalloc(sizeof(*e) + len);
	if (!e) {
		pr_warn("udevd: %s event could not be queued: %s\n", action, kstrerror(-ENOMEM));
		drop_links_of_lost(action, envp_get(envp, "DEVPATH"));
		return;
	}
	for (int i = 0; i < n; i++) {
		e->envp[i] = e->buf + off;
		off += strlen(envp[i]) + 1;
		memcpy(e->envp[i], envp[i], strlen(envp[i]) + 1);
	}
	e->envp[n] = NULL;
	e->from_rule = processing;
	flags = local_irq_save();
	list_add_tail(&e->node, &queue);
	queued++;
	local_irq_restore(flags);
	schedule_work(&udevd_work);
}

static struct hotplug_listener udevd_listener = { .name = "udevd", .event = udevd_listen };

void udev_listener_register(struct udev_listener *l)
{
	mutex_lock(&udevd_mutex);
	list_add_tail(&l->node, &udev_listeners);
	mutex_unlock(&udevd_mutex);
}

void udev_listener_unregister(struct udev_listener *l)
{
	mutex_lock(&udevd_mutex);
	list_del_init(&l->node);
	mutex_unlock(&udevd_mutex);
}

void udevd_set_executor(int (*run)(const char *line))
{
	executor = run;
}

void udevd_set_executor_lock(int (*enter)(void), void (*leave)(void))
{
	executor_enter = enter;
	executor_leave = leave;
}

void udevd_kick(void)
{
	unsigned long flags = local_irq_save();
	bool pending = !list_empty(&queue);

	local_irq_restore(flags);
	if (pending)
		schedule_work(&udevd_work);
}

bool udevd_busy(void)
{
	return queued || processing;
}

bool udevd_busy_elsewhere(void)
{
	return processing && processing_task != current;
}

bool udevd_busy_here(void) { return processing && processing_task == current; }

void udevd_wait_elsewhere(void)
{
	int depth = release_kernel_lock(); /* the other thread may need it */

	schedule_timeout_uninterruptible(10);
	reacquire_kernel_lock(depth);
}

bool udevd_next_sent_by_rule(void)
{
	unsigned long flags = local_irq_save();
	bool ret = !list_empty(&queue) && list_first_entry(&queue, struct udevd_event, node)->from_rule;

	local_irq_restore(flags);
	return ret;
}

void udevd_flush_work(void)
{
	while (!udevd_next_sent_by_rule()) {
		if (run_scheduled_work())
			continue;
		if (!udevd_busy_elsewhere())
			break;
		udevd_wait_elsewhere(); /* events/0 handles one: wait for it */
	}
}

void udevd_for_each_queued(void (*fn)(const char *devpath, const char *seqnum, void *arg),
			   void *arg)
{
	struct udevd_event *e;
	char devpath[UDEV_VALUE_MAX] = "", seqnum[24] = "";
	unsigned long flags = local_irq_save();

	/* The event being handled first: as systemd's queue, it leaves when done. */
	if (processing_event) {
		strscpy(devpath, envp_get(processing_event->envp, "DEVPATH") ?: "", sizeof(devpath));
		strscpy(seqnum, envp_get(processing_event->envp, "SEQNUM") ?: "", sizeof(seqnum));
	}
	local_irq_restore(flags);
	if (*devpath)
		fn(devpath, seqnum, arg);
	list_for_each_entry(e, &queue, node)
		fn(envp_get(e->envp, "DEVPATH") ?: "", envp_get(e->envp, "SEQNUM") ?: "", arg);
}

/* The next word of *p (cut out in place), or NULL at the end. */
static char *strsep_space(char **p)
{
	char *w = *p;

	while (*w == ' ')
		w++;
	if (!*w)
		return NULL;
	*p = w;
	while (**p && **p != ' ')
		(*p)++;
	if (**p)
		*(*p)++ = '\0';
	return w;
}

/* The link database: what each device got, to take away on remove. */

static struct udev_db_entry *db_find(const char *devpath)
{
	struct udev_db_entry *d;

	list_for_each_entry(d, &db, node)
		if (strcmp(d->devpath, devpath) == 0)
			return d;
	return NULL;
}

static void db_free(struct udev_db_entry *d)
{
	while (d->nr_links)
		kfree(d->links[--d->nr_links]);
	kfree(d->devpath);
	kfree(d);
}

static void db_drop(const char *devpath)
{
	struct udev_db_entry *d = db_find(devpath);

	if (!d)
		return;
	udev_node_remove_links(d->links, d->nr_links);
	list_del(&d->node);
	db_free(d);
}

/* The entry for the links ev asks for, made whole before any link is: a link not remembered would stay. */
static struct udev_db_entry *db_prepare(const char *devpath, const struct udev_event *ev)
{
	struct udev_db_entry *d = kzalloc(sizeof(*d));

	if (!d || !(d->devpath = kstrdup(devpath)))
		goto fail;
	for (; d->nr_links < ev->nr_links; d->nr_links++)
		if (!(d->links[d->nr_links] = kstrdup(ev->links[d->nr_links])))
			goto fail;
	return d;
fail:
	if (d)
		db_free(d);
	return NULL;
}

/* The links udev made for the device at devpath, in the order made (udevadm info's S: lines). */
int udevd_for_each_link(const char *devpath, void (*fn)(const char *link, void *arg), void *arg)
{
	struct udev_db_entry *d;
	int n;

	mutex_lock(&udevd_mutex);
	d = db_find(devpath);
	for (int i = 0; d && fn && i < d->nr_links; i++)
		fn(d->links[i], arg);
	n = d ? d->nr_links : 0;
	mutex_unlock(&udevd_mutex);
	return n;
}

/* DEVLINKS, as udev sets it: every link's path, separated by spaces. */
static void set_devlinks(struct udev_event *ev)
{
	char buf[UDEV_VALUE_MAX * 2];
	size_t n = 0;

	if (!ev->nr_links)
		return;
	for (int i = 0; i < ev->nr_links; i++)
		n += scnprintf(buf + n, sizeof(buf) - n, "%s/dev/%s", i ? " " : "", ev->links[i]);
	udev_event_setenv(ev, "DEVLINKS", buf);
}

/* The /dev side of an event: links and mode for add and change, none after remove. */
static void apply_nodes(struct udev_event *ev)
{
	const char *devpath = udev_event_getenv(ev, "DEVPATH");
	const char *devname = udev_event_getenv(ev, "DEVNAME");
	const char *action = udev_event_getenv(ev, "ACTION");
	struct udev_db_entry *d;

	if (!devpath)
		return;
	db_drop(devpath);
	if (!devname || (action && strcmp(action, "remove") == 0))
		return;
	if (ev->mode >= 0 && udev_node_set_mode(devname, ev->mode))
		pr_warn("udevd: %s: cannot set mode %04o\n", devname, ev->mode);
	if (!ev->nr_links)
		return;
	d = db_prepare(devpath, ev);
	if (!d) {
		pr_err("udevd: %s: no memory to remember its links: none made\n", devpath);
		return;
	}
	udev_node_add_links(devname, ev->links, ev->nr_links);
	list_add_tail(&d->node, &db);
	set_devlinks(ev);
}

static int load_alias(const char *alias)
{
	if (!*alias || !module_alias_exists(alias))
		return 0;
	devmodel_trace("request_module", alias, NULL);
	return request_module(alias);
}

/* RUN{builtin}="kmod load [ALIAS...]": each alias's module (MODALIAS's if none named). */
static int run_builtin(const struct udev_event *ev, const char *cmd)
{
	char words[UDEV_VALUE_MAX], *p, *alias;

	if (strncmp(cmd, "kmod load", 9) != 0 || (cmd[9] && cmd[9] != ' ')) {
		pr_warn("udevd: unknown builtin '%s'\n", cmd);
		return -ENOENT;
	}
	if (!cmd[9]) {
		strscpy(words, udev_event_getenv(ev, "MODALIAS") ?: "", sizeof(words));
		return load_alias(words);
	}
	strscpy(words, cmd + 10, sizeof(words));
	for (p = words; (alias = strsep_space(&p));)
		load_alias(alias);
	return 0;
}

/*
 * A program still running at the event's deadline is killed, as
 * systemd-udevd kills its worker: here the command sees signal_pending()
 * and stops, and the event's later programs are not run.
 */
static bool timed_out(const struct udev_event *ev, const char *cmd)
{
	if (!signal_deadline_passed())
		return false;
	pr_err("udevd: SEQNUM=%s DEVPATH=%s: '%s' timed out after %u s, killed\n",
	       udev_event_getenv(ev, "SEQNUM") ?: "?", udev_event_getenv(ev, "DEVPATH") ?: "?", cmd,
	       event_timeout);
	return true;
}

static void run_program(const struct udev_event *ev, int i)
{
	int status;

	if (ev->run_builtin[i]) {
		run_builtin(ev, ev->run[i]);
		return;
	}
	if (!executor) {
		pr_warn("udevd: no shell to run '%s'\n", ev->run[i]);
		return;
	}
	status = executor(ev->run[i]);
	if (status && !signal_deadline_passed())
		pr_info("udevd: '%s' exited with status %d\n", ev->run[i], status);
}

static void run_programs(const struct udev_event *ev)
{
	for (int i = 0; i < ev->nr_run; i++) {
		run_program(ev, i);
		if (timed_out(ev, ev->run[i]))
			return;
	}
}

static void send_udev_event(struct udev_event *ev)
{
	struct udev_monitor_event e = {
		.timestamp_ns = ktime_get_ns(),
		.action = udev_event_getenv(ev, "ACTION"),
		.devpath = udev_event_getenv(ev, "DEVPATH"),
		.subsystem = udev_event_getenv(ev, "SUBSYSTEM"),
		.env = ev->env,
		.nr_env = ev->nr_env,
	};
	struct udev_listener *l, *n;

	if (!e.action || !e.devpath || !e.subsystem)
		return;
	list_for_each_entry_safe(l, n, &udev_listeners, node)
		l->event(l, &e);
}

/* The trace names an event only if its rules asked for something: a link, a mode, a program. */
static void trace_rules(const struct udev_event *ev)
{
	bool program = false;

	for (int i = 0; i < ev->nr_run; i++)
		program |= !ev->run_builtin[i];
	if (ev->nr_links || ev->mode >= 0 || program)
		devmodel_trace("udev_rules_apply", udev_event_getenv(ev, "DEVPATH"),
			       udev_event_getenv(ev, "ACTION"));
}

static void udevd_handle(struct udevd_event *e)
{
	struct udev_event *ev = kmalloc(sizeof(*ev));
	u64 deadline = ktime_get_ns() + (u64)event_timeout * 1000000000ull;
	u64 outer;

	if (!ev || udev_event_init(ev, &udev_sysfs_ops, NULL, e->envp)) {
		kfree(ev);
		pr_err("udevd: no memory for an event\n");
		drop_links_of_lost(envp_get(e->envp, "ACTION"), envp_get(e->envp, "DEVPATH"));
		return;
	}
	mutex_lock(&udevd_mutex);
	if (udev_rules_apply(&rules, ev))
		pr_err("udevd: %s: no memory to apply the rules\n", udev_event_getenv(ev, "DEVPATH"));
	trace_rules(ev);
	apply_nodes(ev);
	mutex_unlock(&udevd_mutex);
	outer = signal_set_deadline(deadline);
	if (outer && outer < deadline)
		signal_set_deadline(outer); /* run inside work that has less time left */
	run_programs(ev);
	signal_set_deadline(outer);
	mutex_lock(&udevd_mutex);
	send_udev_event(ev);
	mutex_unlock(&udevd_mutex);
	udev_event_free(ev);
	kfree(ev);
}

/*
 * One event a run, so a key typed meanwhile waits for one event at most.
 * The next run is queued first (`ps` shows it); a RUN+= command that runs
 * work itself (udevadm settle) finds udevd busy and leaves it to this run.
 */
static bool udevd_handle_next(void)
{
	unsigned long flags;
	struct udevd_event *e = NULL;

	flags = local_irq_save();
	if (!processing && !list_empty(&queue)) { /* one event at a time, whoever runs the work */
		e = list_first_entry(&queue, struct udevd_event, node);
		list_del(&e->node);
		queued--;
		processing = true;
	}
	local_irq_restore(flags);
	if (!e)
		return false;
	if (queued)
		schedule_work(&udevd_work);
	else
		dropped = 0; /* drained: the next overflow is reported again */
	flags = local_irq_save();
	processing = true;
	processing_task = current;
	processing_event = e;
	local_irq_restore(flags);
	udevd_handle(e);
	flags = local_irq_save();
	processing_event = NULL;
	processing_task = NULL;
	processing = false;
	local_irq_restore(flags);
	kfree(e);
	if (queued)
		schedule_work(&udevd_work);
	return true;
}

static void udevd_work_fn(struct work_struct *work)
{
	int entered = executor_enter ? executor_enter() : 0;

	if (entered < 0)
		return; /* a command runs: its end kicks us, or the shell runs us itself */
	udevd_handle_next();
	if (entered > 0)
		executor_leave();
}

bool udevd_run_one(void)
{
	return udevd_handle_next();
}

/* ID_PATH_TAG, as systemd's path_id: ID_PATH with all but letters, digits and '-' as '_'. */
static int set_path_tag(struct udev_event *ev, char *path)
{
	for (char *p = path; *p; p++)
		if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      *p == '-'))
			*p = '_';
	return udev_event_setenv(ev, "ID_PATH_TAG", path);
}

/* IMPORT{builtin}="path_id": ID_PATH (and ID_PATH_TAG) from the PCI function above the device. */
int udev_builtin_import(void *ctx, struct udev_event *ev, const char *name)
{
	char cur[UDEV_VALUE_MAX], next[UDEV_VALUE_MAX], subsys[32], path[64];
	const char *devpath = udev_event_getenv(ev, "DEVPATH");

	if (strcmp(name, "path_id") != 0)
		return -ENOENT;
	if (!devpath)
		return -EINVAL;
	strscpy(cur, devpath, sizeof(cur));
	for (int depth = 0; depth < UDEV_DEPTH_MAX; depth++) {
		if (ev->ops->property(ctx, cur, UDEV_PROP_SUBSYSTEM, subsys, sizeof(subsys)) == 0 &&
		    strcmp(subsys, "pci") == 0) {
			scnprintf(path, sizeof(path), "pci-%s", strrchr(cur, '/') + 1);
			return udev_event_setenv(ev, "ID_PATH", path) ?: set_path_tag(ev, path);
		}
		if (ev->ops->parent(ctx, cur, next, sizeof(next)))
			return 0; /* no PCI parent: no ID_PATH, as for a virtual disk */
		strscpy(cur, next, sizeof(cur));
	}
	return 0;
}

/*
 * Rules loading: the files in /etc/udev/rules.d and the built-in ones, in
 * the order of their names. The built-in files are parsed first, so that
 * they always fit under UDEV_RULES_MAX (their room is kept for them), and
 * spliced in at their place; an /etc file of the same name frees their room.
 */
struct load_state {
	struct udev_rules *set;
	struct udev_rules builtin[ARRAY_SIZE(builtin_rules)];
	bool builtin_done[ARRAY_SIZE(builtin_rules)];
};

static void parse_builtins(struct load_state *s)
{
	char file[64];

	for (size_t i = 0; i < ARRAY_SIZE(builtin_rules); i++) {
		udev_rules_init(&s->builtin[i]);
		s->builtin[i].report = s->set->report;
		s->builtin[i].report_arg = s->set->report_arg;
		scnprintf(file, sizeof(file), BUILTIN_PREFIX "%s", builtin_rules[i].name);
		if (udev_rules_parse(&s->builtin[i], file, builtin_rules[i].text,
				     strlen(builtin_rules[i].text)))
			pr_err("udevd: %s: %s\n", file, kstrerror(-ENOMEM));
		s->set->nr_rules += s->builtin[i].nr_rules; /* their room, kept */
	}
}

static void place_builtin(struct load_state *s, size_t i, bool replaced)
{
	s->builtin_done[i] = true;
	if (replaced) {
		s->set->nr_rules -= s->builtin[i].nr_rules;
		udev_rules_free(&s->builtin[i]);
		return;
	}
	list_splice_tail_init(&s->builtin[i].rules, &s->set->rules);
	s->builtin[i].nr_rules = 0;
}

/* Built-in files that sort before name go first; one named name is replaced. */
static void load_file(const char *path, const char *name, const char *text, size_t len,
		      void *arg)
{
	struct load_state *s = arg;

	for (size_t i = 0; i < ARRAY_SIZE(builtin_rules); i++) {
		int cmp = strcmp(builtin_rules[i].name, name);

		if (!s->builtin_done[i] && cmp <= 0)
			place_builtin(s, i, cmp == 0);
	}
	if (udev_rules_parse(s->set, path, text, len))
		pr_err("udevd: %s: %s\n", path, kstrerror(-ENOMEM));
}

/* All the rules, from /etc/udev/rules.d and built in, into set; the bad ones reported. */
static void load_rules(struct udev_rules *set)
{
	struct load_state *s = kzalloc(sizeof(*s));
	int err;

	if (!s) {
		pr_err("udevd: rules: %s\n", kstrerror(-ENOMEM));
		return;
	}
	s->set = set;
	parse_builtins(s);
	err = udev_rules_dir_for_each(UDEV_RULES_DIR, load_file, s);
	if (err && err != -ENOENT)
		pr_err("udevd: %s: %s\n", UDEV_RULES_DIR, kstrerror(err));
	for (size_t i = 0; i < ARRAY_SIZE(builtin_rules); i++)
		if (!s->builtin_done[i])
			place_builtin(s, i, false);
	kfree(s);
}

static void report_bad_rule(void *arg, const char *file, int line, const char *msg)
{
	char buf[UDEV_VALUE_MAX + 128];

	udev_rules_format_error(buf, sizeof(buf), file, line, msg);
	pr_err("udevd: %s\n", buf);
}

int udevd_reload(void)
{
	int errors;

	mutex_lock(&udevd_mutex);
	udev_rules_free(&rules);
	udev_rules_init(&rules);
	rules.report = report_bad_rule;
	load_rules(&rules);
	errors = rules.nr_errors;
	mutex_unlock(&udevd_mutex);
	return errors;
}

void udevd_init(void)
{
	INIT_WORK(&udevd_work, udevd_work_fn);
	udev_rules_init(&rules);
	udev_rules_dir_create();
	udevd_reload();
	hotplug_listener_register(&udevd_listener);
	if (udevd_enabled)
		pr_info("udevd: %d rules\n", rules.nr_rules);
	else
		pr_info("udevd: off (udev.enabled=0): no event is handled in the kernel\n");
}

void udevd_exit(void)
{
	if (udevd_enabled)
		pr_info("udevd: exiting: no further event is handled in the kernel\n");
	udevd_enabled = false;
}

/* udevadm test: the rules on a made-up event, nothing written or run. */

struct test_ctx {
	void (*out)(const char *line);
};

static int test_parent(void *ctx, const char *devpath, char *buf, size_t size)
{
	return udev_sysfs_ops.parent(NULL, devpath, buf, size);
}

static int test_property(void *ctx, const char *devpath, enum udev_property what, char *buf,
			 size_t size)
{
	return udev_sysfs_ops.property(NULL, devpath, what, buf, size);
}

static int test_attr_read(void *ctx, const char *devpath, const char *attr, char *buf,
			  size_t size)
{
	return udev_sysfs_ops.attr_read(NULL, devpath, attr, buf, size);
}

static int test_attr_write(void *ctx, const char *devpath, const char *attr, const char *value)
{
	return udev_sysfs_attr_writable(devpath, attr); /* shown by the trace, not written */
}

static void test_trace(void *ctx, const char *line)
{
	struct test_ctx *t = ctx;

	t->out(line);
}

/* A bad rule, as systemd's udevadm test prints it when it reads the files. */
static void test_report(void *arg, const char *file, int line, const char *msg)
{
	struct test_ctx *t = arg;
	char buf[UDEV_VALUE_MAX + 128];

	udev_rules_format_error(buf, sizeof(buf), file, line, msg);
	t->out(buf);
}

static const struct udev_device_ops test_ops = {
	.parent = test_parent,
	.property = test_property,
	.attr_read = test_attr_read,
	.attr_write = test_attr_write,
	.import_builtin = udev_builtin_import,
	.trace = test_trace,
};

/* ACTION, DEVPATH, SUBSYSTEM, then the uevent file's lines. */
static int test_env(const char *devpath, const char *action, char *buf, size_t size,
		    char **envp)
{
	char subsys[64];
	size_t n;
	int i = 0, err;

	err = udev_sysfs_ops.property(NULL, devpath, UDEV_PROP_SUBSYSTEM, subsys, sizeof(subsys));
	if (err)
		return err;
	n = scnprintf(buf, size, "ACTION=%s", action) + 1;
	n += scnprintf(buf + n, size - n, "DEVPATH=%s", devpath) + 1;
	n += scnprintf(buf + n, size - n, "SUBSYSTEM=%s", subsys) + 1;
	if (udev_sysfs_ops.attr_read(NULL, devpath, "uevent", buf + n, size - n) < 0)
		buf[n] = '\0';
	for (char *p = buf; p < buf + n && i < NUM_ENVP - 1; p += strlen(p) + 1)
		envp[i++] = p;
	for (char *p = buf + n, *nl; *p && i < NUM_ENVP - 1; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		envp[i++] = p;
	}
	envp[i] = NULL;
	return 0;
}

/*
 * As systemd's, the rules are read from the files again, so that an edited
 * rule is tested at once (udevd keeps the set it loaded).
 */
int udevd_test(const char *devpath, const char *action, void (*out)(const char *line))
{
	struct {
		struct udev_rules rules;
		struct udev_event ev;
		char buf[SYSFS_PAGE_SIZE + 256];
		char *envp[NUM_ENVP];
		char line[UDEV_VALUE_MAX + 16];
	} *t = kmalloc(sizeof(*t));
	struct test_ctx ctx = { out };
	int err;

	if (!t)
		return -ENOMEM;
	err = test_env(devpath, action, t->buf, sizeof(t->buf), t->envp);
	udev_rules_init(&t->rules);
	t->rules.report = test_report;
	t->rules.report_arg = &ctx;
	if (!err)
		load_rules(&t->rules);
	if (!err)
		err = udev_event_init(&t->ev, &test_ops, &ctx, t->envp);
	if (!err) {
		err = udev_rules_apply(&t->rules, &t->ev);
		set_devlinks(&t->ev);
		for (int i = 0; i < t->ev.nr_env; i++)
			out(t->ev.env[i]);
		for (int i = 0; i < t->ev.nr_run; i++) {
			scnprintf(t->line, sizeof(t->line), "run: '%s'", t->ev.run[i]);
			out(t->line);
		}
		udev_event_free(&t->ev);
	}
	udev_rules_free(&t->rules);
	kfree(t);
	return err;
}
