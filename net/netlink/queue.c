/*
 * queue.c: the kernel side of netlink sockets (Linux's af_netlink.c, its
 * netlink_broadcast and receive queue): each protocol's bound sockets, a
 * bounded queue of datagrams per socket, and the overrun rule that keeps
 * the sender from ever waiting on a slow reader.
 */
#include <kobold/netlink.h>
#include <kobold/errno.h>
#include <kobold/mutex.h>
#include <kobold/slab.h>
#include <kobold/string.h>

/* The bound sockets of each protocol, and their ports: Linux's nl_table. */
static struct list_head nl_table[MAX_LINKS];
static bool nl_table_ready;
static DEFINE_MUTEX(nl_table_mutex); /* nl_table and every socket's portid, groups, node */

static struct list_head *protocol_list(int protocol)
{
	if (!nl_table_ready) {
		for (int i = 0; i < MAX_LINKS; i++)
			INIT_LIST_HEAD(&nl_table[i]);
		nl_table_ready = true;
	}
	return &nl_table[protocol];
}

u32 netlink_protocol_groups(int protocol)
{
	return protocol == NETLINK_KOBJECT_UEVENT ? (1u << UEVENT_NETLINK_GROUPS) - 1 : 0;
}

void netlink_sock_init(struct netlink_sock *nlk, int protocol)
{
	memset(nlk, 0, sizeof(*nlk));
	nlk->protocol = protocol;
	nlk->rcvbuf = NETLINK_RCVBUF_DEFAULT;
	spin_lock_init(&nlk->lock);
	INIT_LIST_HEAD(&nlk->queue);
	INIT_LIST_HEAD(&nlk->node);
	init_waitqueue_head(&nlk->wait);
}

static bool portid_taken(int protocol, u32 portid)
{
	struct netlink_sock *s;

	list_for_each_entry(s, protocol_list(protocol), node)
		if (s->portid == portid)
			return true;
	return false;
}

static u32 autobind_locked(int protocol, u32 preferred)
{
	static s32 rover = -4096; /* Linux's first port for a taken pid */

	if (preferred && !portid_taken(protocol, preferred))
		return preferred;
	while (portid_taken(protocol, (u32)rover))
		rover = rover < -4096 ? rover - 1 : -4097;
	return (u32)rover--;
}

u32 netlink_autobind_portid(int protocol, u32 preferred)
{
	u32 id;

	mutex_lock(&nl_table_mutex);
	id = autobind_locked(protocol, preferred);
	mutex_unlock(&nl_table_mutex);
	return id;
}

int netlink_sock_bind(struct netlink_sock *nlk, u32 portid, u32 groups)
{
	int err = 0;

	mutex_lock(&nl_table_mutex);
	if (nlk->portid != portid) {
		if (portid_taken(nlk->protocol, portid)) {
			err = -EADDRINUSE;
			goto out;
		}
		nlk->portid = portid;
	}
	nlk->groups = groups; /* all kept, as Linux: a kernel socket has 32 groups at least */
	if (list_empty(&nlk->node))
		list_add_tail(&nlk->node, protocol_list(nlk->protocol));
out:
	mutex_unlock(&nl_table_mutex);
	return err;
}

static void free_queue(struct netlink_sock *nlk)
{
	struct nl_skb *skb, *next;

	list_for_each_entry_safe(skb, next, &nlk->queue, list) {
		list_del(&skb->list);
		kfree(skb);
	}
	nlk->rmem = 0;
}

void netlink_sock_destroy(struct netlink_sock *nlk)
{
	mutex_lock(&nl_table_mutex);
	if (!list_empty(&nlk->node))
		list_del_init(&nlk->node);
	mutex_unlock(&nl_table_mutex);
	free_queue(nlk);
}

static size_t truesize(size_t len)
{
	return sizeof(struct nl_skb) + ALIGN_UP(len, 16);
}

/* Linux's netlink_overrun: the first loss sets the error; later ones only count. */
static void overrun(struct netlink_sock *nlk)
{
	if (!nlk->congested) {
		nlk->congested = true;
		nlk->err = ENOBUFS;
	}
	nlk->drops++;
}

/* 1 if queued; 0 if dropped. The datagram may take the queue past rcvbuf once, as Linux. */
static int deliver(struct netlink_sock *nlk, const void *data, size_t len)
{
	struct nl_skb *skb = NULL;
	bool room;

	spin_lock(&nlk->lock);
	room = nlk->rmem <= nlk->rcvbuf && !nlk->congested;
	spin_unlock(&nlk->lock);
	if (room)
		skb = kmalloc(sizeof(*skb) + len);
	spin_lock(&nlk->lock);
	if (!skb || nlk->congested) {
		overrun(nlk);
		spin_unlock(&nlk->lock);
		kfree(skb);
		return 0;
	}
	skb->len = len;
	memcpy(skb->data, data, len);
	list_add_tail(&skb->list, &nlk->queue);
	nlk->rmem += truesize(len);
	spin_unlock(&nlk->lock);
	return 1;
}

int netlink_broadcast(int protocol, u32 group, const void *data, size_t len)
{
	struct netlink_sock *nlk;
	int delivered = 0;

	if (protocol < 0 || protocol >= MAX_LINKS || group < 1 || group > 32)
		return 0;
	mutex_lock(&nl_table_mutex);
	list_for_each_entry(nlk, protocol_list(protocol), node) {
		if (!(nlk->groups & (1u << (group - 1))))
			continue;
		delivered += deliver(nlk, data, len);
		wake_up(&nlk->wait); /* an overrun wakes the reader too: it has an error */
	}
	mutex_unlock(&nl_table_mutex);
	return delivered;
}

bool netlink_has_listeners(int protocol, u32 group)
{
	struct netlink_sock *nlk;
	bool any = false;

	if (protocol < 0 || protocol >= MAX_LINKS || group < 1 || group > 32)
		return false;
	mutex_lock(&nl_table_mutex);
	list_for_each_entry(nlk, protocol_list(protocol), node)
		any |= (nlk->groups & (1u << (group - 1))) != 0;
	mutex_unlock(&nl_table_mutex);
	return any;
}

bool netlink_readable(struct netlink_sock *nlk)
{
	return nlk->err || !list_empty(&nlk->queue);
}

ssize_t netlink_dequeue(struct netlink_sock *nlk, void *buf, size_t size, int flags,
			size_t *full)
{
	struct nl_skb *skb;
	ssize_t n;

	spin_lock(&nlk->lock);
	if (nlk->err) {
		n = -nlk->err;
		nlk->err = 0;
		goto out;
	}
	if (list_empty(&nlk->queue)) {
		n = -EAGAIN;
		goto out;
	}
	skb = list_first_entry(&nlk->queue, struct nl_skb, list);
	n = (ssize_t)min(size, skb->len);
	memcpy(buf, skb->data, (size_t)n);
	*full = skb->len;
	if (flags & MSG_PEEK)
		goto out;
	list_del(&skb->list);
	nlk->rmem -= truesize(skb->len);
	if (list_empty(&nlk->queue))
		nlk->congested = false; /* Linux's netlink_rcv_wake */
	spin_unlock(&nlk->lock);
	kfree(skb);
	return n;
out:
	spin_unlock(&nlk->lock);
	return n;
}
