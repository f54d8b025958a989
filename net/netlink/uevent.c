/*
 * uevent.c: the uevent netlink datagram (Linux 2.6.10's send_uevent in
 * kobject_uevent.c): one event as "ACTION@DEVPATH" followed by its
 * KEY=VALUE strings, each NUL-terminated, broadcast to group 1 of
 * NETLINK_KOBJECT_UEVENT.
 */
#include <kobold/netlink.h>
#include <kobold/errno.h>
#include <kobold/kobject_uevent.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

/* The head and every variable: at most this much (HOTPLUG_BUFFER_SIZE of variables). */
#define UEVENT_DATAGRAM_MAX (HOTPLUG_BUFFER_SIZE + 512)

static const char *env_value(char **envp, const char *key)
{
	size_t n = strlen(key);

	for (int i = 0; envp[i]; i++)
		if (strncmp(envp[i], key, n) == 0 && envp[i][n] == '=')
			return envp[i] + n + 1;
	return NULL;
}

/* Appends s and its NUL at *len; false if it does not fit. */
static bool put_string(char *buf, size_t size, size_t *len, const char *s)
{
	size_t n = strlen(s) + 1;

	if (n > size - *len)
		return false;
	memcpy(buf + *len, s, n);
	*len += n;
	return true;
}

int uevent_datagram_build(char *buf, size_t size, char **envp)
{
	const char *action = env_value(envp, "ACTION"), *devpath = env_value(envp, "DEVPATH");
	size_t len;
	int n;

	if (!action || !devpath)
		return -EINVAL;
	n = snprintf(buf, size, "%s@%s", action, devpath);
	if (n < 0 || (size_t)n + 1 > size)
		return -EMSGSIZE;
	len = (size_t)n + 1;
	for (int i = 0; envp[i]; i++)
		if (!put_string(buf, size, &len, envp[i]))
			return -EMSGSIZE;
	return (int)len;
}

/* No listener, no allocation: an event costs the netlink side nothing then. */
void kobject_uevent_net_broadcast(char **envp)
{
	char *buf;
	int len;

	if (!netlink_has_listeners(NETLINK_KOBJECT_UEVENT, 1))
		return;
	buf = kmalloc(UEVENT_DATAGRAM_MAX);
	len = buf ? uevent_datagram_build(buf, UEVENT_DATAGRAM_MAX, envp) : -ENOMEM;
	if (len < 0)
		pr_warn("kobject_uevent: netlink datagram not sent (%s)\n", kstrerror(len));
	else
		netlink_broadcast(NETLINK_KOBJECT_UEVENT, 1, buf, (size_t)len);
	kfree(buf);
}
