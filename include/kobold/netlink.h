/*
 * netlink.h: netlink sockets' kernel side (Linux's net/netlink/af_netlink.c
 * and include/linux/netlink.h): a netlink socket's receive queue, the
 * multicast groups it subscribes to, and netlink_broadcast, which the
 * kernel uses to hand one datagram to every subscriber without ever
 * blocking. This part is portable (unit-tested on the host); the socket
 * calls around it are net/netlink/af_netlink.c's.
 */
#ifndef KOBOLD_NETLINK_H
#define KOBOLD_NETLINK_H

#include <kobold/list.h>
#include <kobold/net.h>
#include <kobold/spinlock.h>
#include <kobold/types.h>
#include <kobold/wait.h>

#define AF_NETLINK 16
#define NETLINK_KOBJECT_UEVENT 15 /* Linux 2.6.10's protocol number */
#define MAX_LINKS 32		  /* protocols 0-31, as Linux */
#define UEVENT_NETLINK_GROUPS 1	  /* the uevent protocol has group 1 only */

/* Receive buffer sizes (Linux's rmem_default and rmem_max, SOCK_MIN_RCVBUF). */
#define NETLINK_RCVBUF_DEFAULT 212992
#define NETLINK_RCVBUF_MAX 212992
#define NETLINK_RCVBUF_MIN 2304

struct sockaddr_nl {
	u16 nl_family; /* AF_NETLINK */
	u16 nl_pad;
	u32 nl_pid;    /* port: 0 is the kernel */
	u32 nl_groups; /* multicast groups, bit N-1 for group N */
};

/* One queued datagram: Linux's sk_buff, reduced to its bytes. */
struct nl_skb {
	struct list_head list;
	size_t len;
	char data[];
};

/*
 * A netlink socket's state. rmem counts the queued datagrams' bytes (each
 * with its record, as Linux's truesize) against rcvbuf; a datagram that
 * would pass it is dropped, err becomes ENOBUFS and the socket stays
 * congested, dropping every datagram, until its reader empties the queue
 * (Linux's netlink_overrun and NETLINK_S_CONGESTED).
 */
struct netlink_sock {
	int protocol;
	u32 portid;	 /* 0 until bound */
	u32 groups;	 /* subscribed groups, masked to the protocol's */
	spinlock_t lock; /* queue, rmem, err, congested */
	struct list_head queue;
	size_t rmem, rcvbuf;
	int err; /* a pending error for the next recv: ENOBUFS */
	bool congested;
	unsigned long drops;	     /* datagrams lost to overrun */
	struct wait_queue_head wait; /* readers; woken on every datagram */
	struct list_head node;	     /* in the protocol's list of sockets */
};

void netlink_sock_init(struct netlink_sock *nlk, int protocol);
/* Unsubscribes nlk, frees its queue and releases its port. */
void netlink_sock_destroy(struct netlink_sock *nlk);
/* Sets nlk's groups and its port. 0, or -EADDRINUSE. */
int netlink_sock_bind(struct netlink_sock *nlk, u32 portid, u32 groups);
/* A port number no socket of protocol holds: preferred if free, else -4096, -4097, ... */
u32 netlink_autobind_portid(int protocol, u32 preferred);
/* The groups the kernel side of protocol sends to: a mask (the uevent protocol: group 1). */
u32 netlink_protocol_groups(int protocol);

/*
 * Copies data to every socket of protocol subscribed to group (1-32).
 * Never sleeps on a reader. The number of sockets that got it.
 */
int netlink_broadcast(int protocol, u32 group, const void *data, size_t len);

/* Whether a socket of protocol is subscribed to group: a sender may skip its work if not. */
bool netlink_has_listeners(int protocol, u32 group);

/*
 * Takes the next datagram into buf (at most size bytes): the bytes copied,
 * its whole length in *full; MSG_PEEK leaves it queued. -ENOBUFS once after
 * an overrun (the error goes first, as Linux's sock_error), -EAGAIN if empty.
 */
ssize_t netlink_dequeue(struct netlink_sock *nlk, void *buf, size_t size, int flags,
			size_t *full);
/* Something to read: a datagram or a pending error. */
bool netlink_readable(struct netlink_sock *nlk);

/*
 * The uevent datagram of one event: "ACTION@DEVPATH" and then each of
 * envp's KEY=VALUE strings, every one NUL-terminated (Linux 2.6.10's
 * send_uevent). Its length, or -EINVAL (no ACTION or DEVPATH in envp),
 * -EMSGSIZE (more than size bytes).
 */
int uevent_datagram_build(char *buf, size_t size, char **envp);
/* Builds it and broadcasts it to NETLINK_KOBJECT_UEVENT group 1: kobject_hotplug's call. */
void kobject_uevent_net_broadcast(char **envp);

#endif
