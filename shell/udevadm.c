/*
 * udevadm.c: udevadm info and udevadm monitor as systemd prints them, plus
 * kobjects and trace: the shell's windows onto the device model at work.
 */
#include <kobold/clock.h>
#include <kobold/console.h>
#include <kobold/errno.h>
#include <kobold/kmod.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/mutex.h>
#include <kobold/printk.h>
#include <kobold/shell.h>
#include <kobold/shell_fs.h>
#include <kobold/signal.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/smp_lock.h>
#include <kobold/string.h>
#include <kobold/sysfs.h>
#include <kobold/udevd.h>
#include <kobold/workqueue.h>

struct udev_buffers {
	char path[SYSFS_PATH_MAX];
	char link[SYSFS_PATH_MAX];
	char value[SYSFS_PAGE_SIZE + 1];
};

static struct sysfs_dirent *child(struct sysfs_dirent *dir, const char *name, bool follow)
{
	struct sysfs_dirent *sd;

	return sysfs_lookup(dir, name, follow, &sd) ? NULL : sd;
}

/* "/sys/class/block/vda" -> "/class/block/vda": DEVPATH is relative to /sys. */
static const char *devpath(const char *path)
{
	return strncmp(path, "/sys/", 5) == 0 ? path + 4 : path;
}

/* SUBSYSTEM: the class a class device sits in, else its "subsystem" link's name. */
static void subsystem_of(struct sysfs_dirent *sd, const char *path, struct udev_buffers *b,
			 char *out, size_t size)
{
	struct sysfs_dirent *link;
	const char *p, *end;

	out[0] = '\0';
	if (strncmp(path, "/sys/class/", 11) == 0) {
		p = path + 11;
		end = strchr(p, '/');
		if (end)
			scnprintf(out, size, "%.*s", (int)(end - p), p);
		return;
	}
	link = child(sd, "subsystem", false);
	if (link && sysfs_readlink(link, b->link, sizeof(b->link)) >= 0)
		strscpy(out, strrchr(b->link, '/') ? strrchr(b->link, '/') + 1 : b->link, size);
	if (link)
		sysfs_put(link);
}

static void driver_of(struct sysfs_dirent *sd, struct udev_buffers *b, char *out, size_t size)
{
	struct sysfs_dirent *link = child(sd, "driver", false);

	out[0] = '\0';
	if (link && sysfs_readlink(link, b->link, sizeof(b->link)) >= 0)
		strscpy(out, strrchr(b->link, '/') ? strrchr(b->link, '/') + 1 : b->link, size);
	if (link)
		sysfs_put(link);
}

static void print_link_line(const char *link, void *arg)
{
	sh_printf("S: %s\n", link);
}

static void print_devlink(const char *link, void *arg)
{
	int *n = arg;

	sh_printf("%s/dev/%s", (*n)++ ? " " : "", link);
}

/* As systemd's: P, N, an S line for each link udev made (relative to /dev), the E lines. */
static int info_env(struct sysfs_dirent *sd, struct udev_buffers *b)
{
	struct sysfs_dirent *ue = child(sd, "uevent", false);
	char subsys[64];
	const char *dn;

	subsystem_of(sd, b->path, b, subsys, sizeof(subsys));
	sh_printf("P: %s\n", devpath(b->path));
	if (ue && sysfs_read_uevent(ue, b->value, sizeof(b->value)) == 0 &&
	    (dn = strstr(b->value, "DEVNAME="))) {
		const char *e = strchr(dn, '\n');

		sh_printf("N: %.*s\n", e ? (int)(e - dn - 8) : (int)strlen(dn + 8), dn + 8);
	}
	udevd_for_each_link(devpath(b->path), print_link_line, NULL);
	sh_printf("E: DEVPATH=%s\n", devpath(b->path));
	if (subsys[0])
		sh_printf("E: SUBSYSTEM=%s\n", subsys);
	if (ue) {
		for (char *line = b->value, *nl; *line; line = nl + 1) {
			nl = strchr(line, '\n');
			if (!nl)
				break;
			*nl = '\0';
			if (*line)
				sh_printf("E: %s\n", line);
		}
		sysfs_put(ue);
	}
	if (udevd_for_each_link(devpath(b->path), NULL, NULL)) {
		int n = 0;

		sh_printf("E: DEVLINKS=");
		udevd_for_each_link(devpath(b->path), print_devlink, &n);
		sh_printf("\n");
	}
	return 0;
}

/* Every readable attribute of one directory, as ATTR{name}=="value". */
static void print_attrs(struct sysfs_dirent *dir, const char *key, struct udev_buffers *b)
{
	for (struct sysfs_dirent *c = sysfs_dirent_first_child(dir); c; c = sysfs_dirent_next(c)) {
		const char *name = sysfs_dirent_name(c);
		int n;

		if (sysfs_dirent_type(c) != SYSFS_KOBJ_ATTR || strcmp(name, "uevent") == 0)
			continue;
		n = shell_read_attr(c, b->value, sizeof(b->value));
		if (n < 0)
			continue;
		while (n > 0 && b->value[n - 1] == '\n')
			b->value[--n] = '\0';
		if (strchr(b->value, '\n'))
			continue; /* udev shows single-line values only */
		sh_printf("    %s{%s}==\"%s\"\n", key, name, b->value);
	}
}

static void info_one_device(struct sysfs_dirent *sd, bool parent, struct udev_buffers *b)
{
	char subsys[64], driver[64];

	subsystem_of(sd, b->path, b, subsys, sizeof(subsys));
	driver_of(sd, b, driver, sizeof(driver));
	sh_printf("  looking at %sdevice '%s':\n", parent ? "parent " : "", devpath(b->path));
	sh_printf("    KERNEL%s==\"%s\"\n", parent ? "S" : "", sysfs_dirent_name(sd));
	sh_printf("    SUBSYSTEM%s==\"%s\"\n", parent ? "S" : "", subsys);
	sh_printf("    DRIVER%s==\"%s\"\n", parent ? "S" : "", driver);
	print_attrs(sd, parent ? "ATTRS" : "ATTR", b);
	sh_printf("\n");
}

static int slashes(const char *path)
{
	int n = 0;

	for (; *path; path++)
		n += *path == '/';
	return n;
}

/*
 * udev's parent of a device: for a class device its "device" link (a link:
 * a device's own "device" is a file), or the class device it sits in; for
 * a device the directory above, skipping ones that are no device (no uevent).
 */
static struct sysfs_dirent *udev_parent(struct sysfs_dirent *sd, const char *path,
					char *scratch, size_t size)
{
	struct sysfs_dirent *link, *up = sysfs_get(sd), *next;
	bool is_class = strncmp(path, "/sys/class/", 11) == 0;

	link = is_class ? child(sd, "device", false) : NULL;
	if (link && sysfs_dirent_type(link) == SYSFS_KOBJ_LINK) {
		sysfs_put(link);
		sysfs_put(up);
		return child(sd, "device", true);
	}
	if (link)
		sysfs_put(link);
	if (is_class && slashes(path) < 5)
		goto none; /* /sys/class/C/X: the class is no device */
	while (!sysfs_dirent_removed(up) && (next = child(up, "..", true))) {
		sysfs_put(up);
		up = next;
		if (sysfs_path(up, scratch, size) < 0 || slashes(scratch) < 3)
			break; /* /sys/devices itself: the top */
		if ((link = child(up, "uevent", false))) {
			sysfs_put(link);
			return up;
		}
	}
none:
	sysfs_put(up);
	return NULL;
}

/* The device, then each parent udev_parent finds, up to /sys/devices or /sys/class. */
static int info_attribute_walk(struct sysfs_dirent *sd, struct udev_buffers *b)
{
	struct sysfs_dirent *cur = sysfs_get(sd), *next;
	bool parent = false;
	int depth = 0;

	sh_printf("\nUdevadm info starts with the device specified by the devpath and then\n"
		  "walks up the chain of parent devices. It prints for every device\n"
		  "found, all possible attributes in the udev rules key format.\n"
		  "A rule to match, can be composed by the attributes of the device\n"
		  "and the attributes from one single parent device.\n\n");
	/* a path has at most SYSFS_PATH_MAX / 2 levels: no loop runs longer */
	while (cur && depth++ < SYSFS_PATH_MAX / 2) {
		if (sysfs_path(cur, b->path, sizeof(b->path)) < 0 || slashes(b->path) < 3)
			break;
		info_one_device(cur, parent, b);
		next = udev_parent(cur, b->path, b->link, sizeof(b->link));
		sysfs_put(cur);
		cur = next;
		parent = true;
	}
	if (cur)
		sysfs_put(cur);
	return 0;
}

/* As systemd's: a device is a directory with a uevent file (not a class, bus or kset). */
static int udev_device(struct sysfs_dirent *sd, struct udev_buffers *b)
{
	struct sysfs_dirent *ue = child(sd, "uevent", false);

	if (!ue)
		return -ENODEV;
	sysfs_put(ue);
	return sysfs_path(sd, b->path, sizeof(b->path)) < 0 ? -ENOMEM : 0;
}

static int cmd_udevadm_info(int argc, char **argv)
{
	bool walk = argc == 4 && strcmp(argv[2], "-a") == 0;
	const char *path = argv[argc - 1];
	struct udev_buffers *b;
	struct sysfs_dirent *sd;
	int err;

	if (argc < 3 || argc > 4 || (argc == 4 && !walk)) {
		sh_err("usage: udevadm info [-a] PATH\n");
		return 1;
	}
	err = shell_lookup(path, true, &sd);
	if (err) {
		sh_err("udevadm: %s: %s\n", path, kstrerror(err));
		return 1;
	}
	b = kmalloc(sizeof(*b));
	err = b ? udev_device(sd, b) : -ENOMEM;
	if (err) {
		kfree(b);
		sysfs_put(sd);
		sh_err("udevadm: %s: %s\n", path, kstrerror(err));
		return 1;
	}
	if (walk)
		info_attribute_walk(sd, b);
	else
		info_env(sd, b);
	kfree(b);
	sysfs_put(sd);
	return 0;
}

struct monitor {
	struct hotplug_listener listener; /* while following */
	struct udev_listener udev_listener;
	bool props;	       /* -p: the KEY=VALUE lines too */
	bool kernel, udev;     /* which events: -k, -u, or both */
	const char *subsystem; /* --subsystem-match, or NULL for all */
	u64 printed;	       /* the last event's seqnum shown */
	bool started;	       /* an event has been seen */
};

static void print_event_line(const char *source, u64 ns, const char *action,
			     const char *devpath, const char *subsystem)
{
	unsigned long us = (unsigned long)(ns / 1000);

	sh_printf("%s[%lu.%06lu] %-8s %s (%s)\n", source, us / 1000000, us % 1000000, action,
		  devpath, subsystem);
}

static void monitor_event(const struct uevent_record *r, void *arg)
{
	struct monitor *m = arg;

	if (m->started && r->seqnum <= m->printed)
		return;
	if (m->started && r->seqnum > m->printed + 1)
		sh_printf("(%lu events lost: more came at once than the journal holds)\n",
			  (unsigned long)(r->seqnum - m->printed - 1));
	m->started = true;
	m->printed = r->seqnum;
	if (m->subsystem && strcmp(r->subsystem, m->subsystem) != 0)
		return;
	print_event_line("KERNEL", r->timestamp_ns, r->action, r->devpath, r->subsystem);
	if (!m->props)
		return;
	for (const char *v = uevent_record_next_var(r, NULL); v; v = uevent_record_next_var(r, v))
		sh_printf("%s\n", v);
	sh_printf("\n");
}

/*
 * The KERNEL and UDEV listeners run in whichever thread sends or handles
 * the event (events/0, or this shell running the work itself): each
 * event's lines are printed whole, not mixed with the other kind's.
 */
static DEFINE_MUTEX(monitor_print_lock);

/* Each event as it is sent, in the middle of the work that sends it. */
static void monitor_listen(struct hotplug_listener *l, const char *action, char **envp)
{
	const struct uevent_record *r = uevent_journal_last();

	if (!r)
		return;
	mutex_lock(&monitor_print_lock);
	monitor_event(r, container_of(l, struct monitor, listener));
	mutex_unlock(&monitor_print_lock);
}

static void print_udev_event(struct monitor *m, const struct udev_monitor_event *e)
{
	print_event_line("UDEV  ", e->timestamp_ns, e->action, e->devpath, e->subsystem);
	if (!m->props)
		return;
	for (int i = 0; i < e->nr_env; i++)
		sh_printf("%s\n", e->env[i]);
	sh_printf("\n");
}

/* Each event once udevd's rules ran on it, with what they added. */
static void monitor_udev_listen(struct udev_listener *l, const struct udev_monitor_event *e)
{
	struct monitor *m = container_of(l, struct monitor, udev_listener);

	if (m->subsystem && strcmp(e->subsystem, m->subsystem) != 0)
		return;
	mutex_lock(&monitor_print_lock);
	print_udev_event(m, e);
	mutex_unlock(&monitor_print_lock);
}

/*
 * Follows events as they happen, until Ctrl-C. Events come from work that
 * interrupts queue (a QEMU device_add raises the ACPI SCI; acpiphp's work
 * scans the bus), and that work runs here, while the monitor waits; so
 * does udevd's, which sends the UDEV events.
 */
static void monitor_follow(struct monitor *m)
{
	sh_printf("monitor will print the received events for:\n");
	if (m->udev)
		sh_printf("UDEV - the event which udev sends out after rule processing\n");
	if (m->kernel)
		sh_printf("KERNEL - the kernel uevent\n");
	sh_printf("\n");
	m->started = true;
	m->printed = uevent_seqnum;
	m->listener.name = "udevadm monitor";
	m->listener.event = monitor_listen;
	m->udev_listener.event = monitor_udev_listen;
	if (m->kernel)
		hotplug_listener_register(&m->listener);
	if (m->udev)
		udev_listener_register(&m->udev_listener);
	while (!signal_pending())
		if (!run_scheduled_work() && !udevd_run_one())
			console_wait();
	if (m->kernel)
		hotplug_listener_unregister(&m->listener);
	if (m->udev)
		udev_listener_unregister(&m->udev_listener);
}

static int monitor_usage(void)
{
	sh_err("usage: udevadm monitor [--journal] [-p|--property] [-k|--kernel] [-u|--udev] "
	       "[-s|--subsystem-match=SUBSYSTEM]\n");
	return 1;
}

static int cmd_udevadm_monitor(int argc, char **argv)
{
	struct monitor m = { 0 };
	bool journal = false;

	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (strcmp(a, "-p") == 0 || strcmp(a, "--property") == 0)
			m.props = true;
		else if (strcmp(a, "--journal") == 0)
			journal = true;
		else if (strcmp(a, "-k") == 0 || strcmp(a, "--kernel") == 0)
			m.kernel = true;
		else if (strcmp(a, "-u") == 0 || strcmp(a, "--udev") == 0)
			m.udev = true;
		else if (strncmp(a, "--subsystem-match=", 18) == 0 && a[18])
			m.subsystem = a + 18;
		else if (strcmp(a, "-s") == 0 && i + 1 < argc)
			m.subsystem = argv[++i];
		else
			return monitor_usage();
	}
	if (!m.kernel && !m.udev)
		m.kernel = m.udev = true; /* neither named: both, as systemd's */
	if (!journal) {
		monitor_follow(&m);
		return 0;
	}
	if (!m.kernel) {
		sh_err("udevadm: --journal keeps the kernel's events only: drop --udev\n");
		return 1;
	}
	if (uevent_journal_dropped())
		sh_printf("(%lu older events dropped from the journal)\n", uevent_journal_dropped());
	uevent_journal_for_each(monitor_event, &m);
	return 0;
}

/* udevadm trigger: each device's uevent file is written, as systemd's does. */
struct trigger {
	const char *action;
	const char *subsystem;
	bool verbose;
	int count, failed;
	char path[SYSFS_PATH_MAX];
	char subsys[64];
};

static void trigger_one(struct sysfs_dirent *dev, struct sysfs_dirent *ue, struct trigger *t)
{
	struct sysfs_open_file *of;
	ssize_t n = -ENODEV;

	if (sysfs_path(dev, t->path, sizeof(t->path)) < 0)
		return;
	if (t->subsystem) {
		udev_sysfs_ops.property(NULL, devpath(t->path), UDEV_PROP_SUBSYSTEM, t->subsys,
					sizeof(t->subsys));
		if (strcmp(t->subsys, t->subsystem) != 0)
			return;
	}
	if (sysfs_open(ue, 0, &of) == 0) {
		n = sysfs_write(of, t->action, strlen(t->action));
		sysfs_close(of);
	}
	if (n < 0) {
		sh_err("udevadm: %s: %s\n", t->path, kstrerror((int)n));
		t->failed++;
		return;
	}
	t->count++;
	if (t->verbose)
		sh_printf("%s\n", t->path);
}

/* Every device below dir (a directory with a uevent file), parents first. */
static void trigger_dir(struct sysfs_dirent *dir, struct trigger *t, int depth)
{
	struct sysfs_dirent *ue;

	if (depth > 16)
		return;
	for (struct sysfs_dirent *c = sysfs_dirent_first_child(dir); c; c = sysfs_dirent_next(c)) {
		if (sysfs_dirent_type(c) != SYSFS_DIR)
			continue;
		if ((ue = child(c, "uevent", false))) {
			trigger_one(c, ue, t);
			sysfs_put(ue);
		}
		trigger_dir(c, t, depth + 1);
	}
}

static int trigger_usage(void)
{
	sh_err("usage: udevadm trigger [-v|--verbose] [-c|--action=add|remove|change] "
	       "[-s|--subsystem-match=SUBSYSTEM]\n");
	return 1;
}

static int cmd_udevadm_trigger(int argc, char **argv)
{
	struct trigger *t = kzalloc(sizeof(*t));
	static const char *const tops[] = { "/sys/devices", "/sys/class" };
	enum kobject_action type;
	struct sysfs_dirent *top;
	int err;

	if (!t) {
		sh_err("udevadm: %s\n", kstrerror(-ENOMEM));
		return 1;
	}
	t->action = "change"; /* systemd's default */
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];

		if (strncmp(a, "--action=", 9) == 0)
			t->action = a + 9;
		else if (strcmp(a, "-c") == 0 && i + 1 < argc)
			t->action = argv[++i];
		else if (strncmp(a, "--subsystem-match=", 18) == 0 && a[18])
			t->subsystem = a + 18;
		else if (strcmp(a, "-s") == 0 && i + 1 < argc)
			t->subsystem = argv[++i];
		else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
			t->verbose = true;
		else {
			kfree(t);
			return trigger_usage();
		}
	}
	if (kobject_action_type(t->action, strlen(t->action), &type)) {
		sh_err("udevadm: unknown action '%s'\n", t->action);
		kfree(t);
		return 1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(tops); i++)
		if ((top = child(NULL, tops[i], true))) {
			trigger_dir(top, t, 0);
			sysfs_put(top);
		}
	err = t->failed ? 1 : 0;
	kfree(t);
	return err;
}

#define SETTLE_TIMEOUT_DEFAULT 120 /* seconds, as systemd's udevadm settle */

static int settle_usage(void)
{
	sh_err("usage: udevadm settle [-t|--timeout=SECONDS]\n");
	return 1;
}

static void print_queued(const char *devpath, const char *seqnum, void *arg)
{
	sh_printf("/sys%s (%s)\n", devpath, seqnum);
}

static int settle_args(int argc, char **argv, unsigned int *timeout)
{
	const char *val;

	*timeout = SETTLE_TIMEOUT_DEFAULT;
	for (int i = 2; i < argc; i++) {
		if (strncmp(argv[i], "--timeout=", 10) == 0)
			val = argv[i] + 10;
		else if ((strcmp(argv[i], "-t") == 0 || strcmp(argv[i], "--timeout") == 0) &&
			 i + 1 < argc)
			val = argv[++i];
		else
			return settle_usage();
		if (kstrtouint(val, 10, timeout) || *timeout > 86400) {
			sh_err("udevadm: invalid timeout value '%s'\n", val);
			return 1;
		}
	}
	return 0;
}

/* Kobold's: the events' hotplug helpers started too (not finished: one may never end). */
static void settle_helpers(u64 end)
{
	int depth;

	while (usermodehelper_in_flight() && !signal_pending() && ktime_get_ns() < end) {
		depth = release_kernel_lock(); /* khelper takes it to start a helper */
		schedule_timeout_interruptible(1);
		reacquire_kernel_lock(depth);
	}
}

/*
 * Runs queued work (udevd's among it) until none is queued or running
 * elsewhere and udevd has nothing left, the timeout, or Ctrl-C: work that
 * an interrupt queued (a hot-add's scan after the SCI) sends events yet to
 * come, whether the shell or events/N got the CPU first. Given up, it
 * names the events still queued, as udev's settle printed it before
 * systemd took udev in.
 */
static int cmd_udevadm_settle(int argc, char **argv)
{
	unsigned int timeout;
	u64 end;

	if (settle_args(argc, argv, &timeout))
		return 1;
	end = ktime_get_ns() + (u64)timeout * 1000000000ull;
	while ((udevd_busy() || keventd_busy()) && !signal_pending() && ktime_get_ns() < end) {
		if (run_scheduled_work())
			continue;
		/* udevd busy further up (a RUN+= runs this): nothing to wait for */
		if (udevd_busy_here())
			break;
		udevd_wait_elsewhere(); /* another thread handles one, or is about to: wait */
	}
	settle_helpers(end);
	if (!udevd_busy())
		return 0;
	if (ktime_get_ns() >= end) {
		sh_printf("udevadm settle - timeout of %u seconds reached, the event queue contains:\n",
			  timeout);
		udevd_for_each_queued(print_queued, NULL);
	}
	return 1;
}

static int cmd_udevadm_control(int argc, char **argv)
{
	if (argc == 3 && (strcmp(argv[2], "--exit") == 0 || strcmp(argv[2], "-e") == 0)) {
		udevd_exit(); /* as systemd's: the daemon stops; events go on to the helper and netlink */
		return 0;
	}
	if (argc != 3 || (strcmp(argv[2], "--reload") != 0 && strcmp(argv[2], "-R") != 0 &&
			  strcmp(argv[2], "--reload-rules") != 0)) {
		sh_err("usage: udevadm control --reload|--exit\n");
		return 1;
	}
	udevd_reload();
	return 0;
}

static bool is_device_dir(struct sysfs_dirent *sd)
{
	struct sysfs_dirent *ue = child(sd, "uevent", false);

	if (ue)
		sysfs_put(ue);
	return ue != NULL;
}

static void test_line(const char *line)
{
	sh_printf("%s\n", line);
}

/* A DEVPATH, or a path below /sys (links followed): the rules on its device. */
static int test_device(const char *path, const char *action)
{
	char *buf = kmalloc(SYSFS_PATH_MAX);
	struct sysfs_dirent *sd = NULL;
	int err = buf ? 0 : -ENOMEM;

	if (!err && strncmp(path, "/sys/", 5) != 0 &&
	    scnprintf(buf, SYSFS_PATH_MAX, "/sys%s", path) < SYSFS_PATH_MAX - 1)
		err = sysfs_lookup(NULL, buf, true, &sd);
	else if (!err)
		err = sysfs_lookup(NULL, path, true, &sd);
	if (!err && !is_device_dir(sd))
		err = -ENODEV;
	if (!err)
		err = sysfs_path(sd, buf, SYSFS_PATH_MAX) < 0 ? -ENAMETOOLONG : 0;
	if (!err)
		err = udevd_test(devpath(buf), action, test_line);
	if (sd)
		sysfs_put(sd);
	kfree(buf);
	return err == -ENOENT ? -ENODEV : err;
}

static int cmd_udevadm_test(int argc, char **argv)
{
	const char *action = "add", *path = NULL;
	bool bad = false;
	int err;

	for (int i = 2; i < argc; i++) {
		if (strncmp(argv[i], "--action=", 9) == 0)
			action = argv[i] + 9;
		else if (strcmp(argv[i], "-a") == 0 && i + 1 < argc)
			action = argv[++i];
		else if (!path && argv[i][0] == '/')
			path = argv[i];
		else
			bad = true;
	}
	if (!path || bad) {
		sh_err("usage: udevadm test [--action=ACTION] DEVPATH\n");
		return 1;
	}
	err = test_device(path, action);
	if (err) {
		sh_err("udevadm: %s: %s\n", path, kstrerror(err));
		return 1;
	}
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} udevadm_cmds[] = {
	{ "info", cmd_udevadm_info },
	{ "monitor", cmd_udevadm_monitor },
	{ "trigger", cmd_udevadm_trigger },
	{ "settle", cmd_udevadm_settle },
	{ "control", cmd_udevadm_control },
	{ "test", cmd_udevadm_test },
};

static int cmd_udevadm(int argc, char **argv)
{
	for (size_t i = 0; argc >= 2 && i < ARRAY_SIZE(udevadm_cmds); i++)
		if (strcmp(argv[1], udevadm_cmds[i].name) == 0)
			return udevadm_cmds[i].fn(argc, argv);
	sh_err("usage: udevadm info|monitor|trigger|settle|control|test ... (help udevadm)\n");
	return 1;
}
SHELL_COMMAND("udevadm", "info|monitor|trigger|settle|control|test ...",
	      "devices and their events, udev's rules at work", cmd_udevadm);

struct kset_count {
	const struct kobject *kset;
	unsigned int members;
};

static void count_member(struct kobject *kobj, void *arg)
{
	struct kset_count *c = arg;

	if (kobj->kset && &kobj->kset->kobj == c->kset)
		c->members++;
}

/* An object outside sysfs has no path: its name, and what it is. */
static void kobject_line(struct kobject *kobj, void *arg)
{
	struct kset_count c = { kobj, 0 };
	char *path = arg;

	if (kobject_get_path(kobj, path, SYSFS_PATH_MAX) < 0)
		strscpy(path, kobj->k_name ? kobj->k_name : "(unnamed)", SYSFS_PATH_MAX);
	sh_printf("%4u %-11s %s", kobject_refcount(kobj), kobject_state_name(kobj), path);
	if (kobj->state == KOBJ_STATE_INITIALIZED) {
		__kobject_for_each_live(count_member, &c); /* inside cmd_kobjects' walk */
		sh_printf(" (not in sysfs%s", kobj->kset ? ", in kset " : "");
		sh_printf("%s", kobj->kset ? kobject_name(&kobj->kset->kobj) : "");
		if (c.members)
			sh_printf(", the kset of %u object%s", c.members, c.members == 1 ? "" : "s");
		sh_printf(")");
	}
	sh_printf("\n");
}

static int cmd_kobjects(int argc, char **argv)
{
	char *path = kmalloc(SYSFS_PATH_MAX);

	if (!path) {
		sh_err("kobjects: %s\n", kstrerror(-ENOMEM));
		return 1;
	}
	sh_printf("REFS STATE       PATH\n");
	kobject_for_each_live(kobject_line, path);
	kfree(path);
	return 0;
}
SHELL_COMMAND("kobjects", "", "every kobject not yet released: refcount, state, path", cmd_kobjects);

static int cmd_trace(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "on") == 0)
		devmodel_set_trace(true);
	else if (argc == 2 && strcmp(argv[1], "off") == 0)
		devmodel_set_trace(false);
	else if (argc == 1)
		sh_printf("trace is %s\n", devmodel_trace_enabled() ? "on" : "off");
	else {
		sh_err("usage: trace on|off\n");
		return 1;
	}
	return 0;
}
SHELL_COMMAND("trace", "on|off", "log each device-model call as it happens", cmd_trace);
