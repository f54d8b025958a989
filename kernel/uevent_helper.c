/*
 * uevent_helper.c: the hotplug helper, 2.6's /sbin/hotplug. Every event
 * runs it with argv[1] the subsystem and the event's keys as its
 * environment, through call_usermodehelper without waiting: the helpers
 * of a burst of events run side by side and may finish in any order (the
 * reason udevd sorted them by SEQNUM). The path is /proc/sys/kernel/hotplug
 * (kernel/sysctl.c) and, since Linux 2.6.16, /sys/kernel/uevent_helper.
 */
#include <kobold/kmod.h>
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/kobject_uevent.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/sysctl.h>

/* An empty string runs no helper. Guarded by sysctl_data_lock. */
char uevent_helper[UEVENT_HELPER_PATH_LEN] = "/sbin/hotplug";

static void helper_path(char *buf)
{
	unsigned long flags;

	spin_lock_irqsave(&sysctl_data_lock, flags);
	memcpy(buf, uevent_helper, UEVENT_HELPER_PATH_LEN);
	spin_unlock_irqrestore(&sysctl_data_lock, flags);
}

static const char *env_value(char **envp, const char *key)
{
	size_t n = strlen(key);

	for (; *envp; envp++)
		if (strncmp(*envp, key, n) == 0 && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* The listener: in the sender's context, so it only queues the helper on khelper. */
static void uevent_helper_event(struct hotplug_listener *l, const char *action, char **envp)
{
	char path[UEVENT_HELPER_PATH_LEN];
	char *argv[3], *env[NUM_ENVP + 3], **e;
	int i = 0, err;

	helper_path(path);
	if (!path[0])
		return;
	argv[0] = path;
	argv[1] = (char *)env_value(envp, "SUBSYSTEM"); /* the kset's name, as kobject_hotplug's */
	argv[2] = NULL;
	env[i++] = "HOME=/"; /* 2.6's kobject_hotplug put these two first */
	env[i++] = "PATH=/sbin:/bin:/usr/sbin:/usr/bin";
	for (e = envp; *e && i < NUM_ENVP + 2; e++)
		env[i++] = *e;
	env[i] = NULL;
	err = call_usermodehelper(path, argv, env, UMH_NO_WAIT);
	if (err)
		pr_warn("kobject_hotplug: %s %s: %s\n", path, env_value(envp, "SEQNUM") ?: "",
			kstrerror(err));
}

static struct hotplug_listener uevent_helper_listener = {
	.name = "uevent_helper",
	.event = uevent_helper_event,
};

static ssize_t uevent_helper_show(struct kset *kset __unused, char *buf)
{
	char path[UEVENT_HELPER_PATH_LEN];

	helper_path(path);
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%s\n", path);
}

/* As 2.6.16's: a path that does not fit is -ENOENT, and the old one stays. */
static ssize_t uevent_helper_store(struct kset *kset __unused, const char *buf, size_t count)
{
	unsigned long flags;

	if (count + 1 > UEVENT_HELPER_PATH_LEN)
		return -ENOENT;
	spin_lock_irqsave(&sysctl_data_lock, flags);
	memcpy(uevent_helper, buf, count);
	uevent_helper[count] = '\0';
	if (count && uevent_helper[count - 1] == '\n')
		uevent_helper[count - 1] = '\0';
	spin_unlock_irqrestore(&sysctl_data_lock, flags);
	return (ssize_t)count;
}

static struct subsys_attribute uevent_helper_attr = {
	.attr = { .name = "uevent_helper", .mode = S_IRUGO | S_IWUSR },
	.show = uevent_helper_show,
	.store = uevent_helper_store,
};

void uevent_helper_init(void)
{
	int err = subsys_create_file(&kernel_subsys, &uevent_helper_attr);

	if (err)
		pr_err("uevent_helper: /sys/kernel/uevent_helper not made: %s\n", kstrerror(err));
	hotplug_listener_register(&uevent_helper_listener);
}
