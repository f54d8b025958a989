/*
 * af_netlink.c: the AF_NETLINK family's socket calls (Linux's
 * net/netlink/af_netlink.c): socket(AF_NETLINK, SOCK_DGRAM or SOCK_RAW,
 * NETLINK_KOBJECT_UEVENT), bind to group 1, and recv, which sleeps until
 * the kernel broadcasts a datagram (net/netlink/queue.c).
 */
#include <kobold/netlink.h>
#include <kobold/errno.h>
#include <kobold/poll.h>
#include <kobold/printk.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>

static struct netlink_sock *nlk_of(struct socket *sock) { return sock->sk; }

static void netlink_release(struct socket *sock)
{
	netlink_sock_destroy(nlk_of(sock));
	kfree(sock->sk);
}

/* Linux's netlink_bind checks, in its order; groups nothing is sent to are kept, and logged. */
static int netlink_bind(struct socket *sock, const void *addr, int len)
{
	struct netlink_sock *nlk = nlk_of(sock);
	const struct sockaddr_nl *nl = addr;
	u32 portid, extra;

	if (len < (int)sizeof(*nl) || nl->nl_family != AF_NETLINK)
		return -EINVAL;
	if (nlk->portid && nl->nl_pid != nlk->portid)
		return -EINVAL;
	extra = nl->nl_groups & ~netlink_protocol_groups(nlk->protocol);
	if (extra)
		pr_info("netlink: %s[%d]: bind to groups 0x%x: protocol %d has group 1 only; "
			"nothing is sent there\n",
			current->comm, current->pid, extra, nlk->protocol);
	portid = nlk->portid  ? nlk->portid
		 : nl->nl_pid ? nl->nl_pid
			      : netlink_autobind_portid(nlk->protocol, (u32)current->user.tgid);
	return netlink_sock_bind(nlk, portid, nl->nl_groups);
}

static int netlink_getname(struct socket *sock, void *addr, int *len)
{
	struct netlink_sock *nlk = nlk_of(sock);
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = nlk->portid, .nl_groups = nlk->groups };

	memcpy(addr, &nl, sizeof(nl));
	*len = sizeof(nl);
	return 0;
}

static ssize_t netlink_recvmsg(struct socket *sock, char *buf, size_t size, int flags,
			       bool nonblock, struct sock_recv *info)
{
	struct netlink_sock *nlk = nlk_of(sock);
	struct sockaddr_nl from = { .nl_family = AF_NETLINK, .nl_groups = 1 }; /* the kernel, group 1 */
	ssize_t r;

	for (;;) {
		r = netlink_dequeue(nlk, buf, size, flags, &info->full);
		if (r != -EAGAIN || nonblock)
			break;
		r = wait_event_interruptible(nlk->wait, netlink_readable(nlk));
		if (r)
			return r; /* -ERESTARTSYS: again after SA_RESTART, as 2.6's sock_intr_errno (no SO_RCVTIMEO) */
	}
	if (r >= 0) {
		memcpy(info->addr, &from, sizeof(from));
		info->addrlen = sizeof(from);
	}
	return r;
}

static unsigned int netlink_poll(struct file *file, struct socket *sock, poll_table *wait)
{
	struct netlink_sock *nlk = nlk_of(sock);
	unsigned int mask = POLLOUT | POLLWRNORM;

	poll_wait(file, &nlk->wait, wait);
	if (!list_empty(&nlk->queue))
		mask |= POLLIN | POLLRDNORM;
	if (nlk->err)
		mask |= POLLERR;
	return mask;
}

/* SO_RCVBUF as Linux's sock_setsockopt: doubled, within rmem_max (FORCE: without it). */
static int netlink_setsockopt(struct socket *sock, int level, int name, int val)
{
	struct netlink_sock *nlk = nlk_of(sock);
	u32 v = (u32)val;

	if (level != SOL_SOCKET || (name != SO_RCVBUF && name != SO_RCVBUFFORCE))
		return -ENOPROTOOPT;
	if (name == SO_RCVBUF)
		v = min(v, (u32)NETLINK_RCVBUF_MAX);
	else if (val < 0)
		v = 0;
	v = v > 0x3fffffff ? 0x7ffffffe : v * 2;
	nlk->rcvbuf = v < NETLINK_RCVBUF_MIN ? NETLINK_RCVBUF_MIN : v;
	return 0;
}

static int netlink_getsockopt(struct socket *sock, int level, int name, int *val)
{
	if (level != SOL_SOCKET || name != SO_RCVBUF)
		return -ENOPROTOOPT;
	*val = (int)nlk_of(sock)->rcvbuf;
	return 0;
}

static const struct proto_ops netlink_ops = {
	.family = AF_NETLINK,
	.release = netlink_release,
	.bind = netlink_bind,
	.getname = netlink_getname,
	.recvmsg = netlink_recvmsg,
	.poll = netlink_poll,
	.setsockopt = netlink_setsockopt,
	.getsockopt = netlink_getsockopt,
};

/* Linux's netlink_create: datagram types only; a protocol no kernel socket serves: EPROTONOSUPPORT. */
static int netlink_create(struct socket *sock, int protocol)
{
	struct netlink_sock *nlk;

	if (sock->type != SOCK_RAW && sock->type != SOCK_DGRAM)
		return -ESOCKTNOSUPPORT;
	if (protocol < 0 || protocol >= MAX_LINKS || protocol != NETLINK_KOBJECT_UEVENT)
		return -EPROTONOSUPPORT;
	nlk = kmalloc(sizeof(*nlk));
	if (!nlk)
		return -ENOMEM;
	netlink_sock_init(nlk, protocol);
	sock->ops = &netlink_ops;
	sock->sk = nlk;
	return 0;
}

const struct net_proto_family netlink_family_ops = {
	.family = AF_NETLINK,
	.create = netlink_create,
};
