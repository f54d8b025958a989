/*
 * net.h: sockets as files (Linux's include/linux/net.h): a socket, the
 * operations its address family gives it, and the families by number.
 * net/socket.c holds the system calls; each family its own file
 * (AF_NETLINK: net/netlink/af_netlink.c).
 */
#ifndef KOBOLD_NET_H
#define KOBOLD_NET_H

#include <kobold/fs.h>
#include <kobold/types.h>

#define AF_UNSPEC 0
#define AF_UNIX 1
#define AF_INET 2
#define NPROTO 46 /* Linux's AF_MAX: families 0-45 */

#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_TYPE_MASK 0xf
#define SOCK_NONBLOCK 04000   /* O_NONBLOCK */
#define SOCK_CLOEXEC 02000000 /* O_CLOEXEC */

#ifndef S_IFSOCK
#define S_IFSOCK 0140000
#endif

#define SOL_SOCKET 1
#define SO_TYPE 3
#define SO_RCVBUF 8
#define SO_PASSCRED 16
#define SO_RCVBUFFORCE 33
#define SO_PROTOCOL 38
#define SO_DOMAIN 39
#define SCM_CREDENTIALS 2

/* recv flags */
#define MSG_PEEK 0x02
#define MSG_TRUNC 0x20
#define MSG_DONTWAIT 0x40

struct socket;

/* What a received datagram came with, for recvfrom's and recvmsg's caller. */
struct sock_recv {
	size_t full;	   /* the datagram's whole length */
	char addr[16];	   /* the sender's address */
	int addrlen;	   /* its length in addr; 0: none */
	bool want_creds;   /* SO_PASSCRED: a SCM_CREDENTIALS message goes with it */
	u32 pid, uid, gid; /* the sender's credentials (the kernel: 0) */
};

/* A family's calls (Linux's proto_ops); NULL: EOPNOTSUPP, as Linux's sock_no_*. */
struct proto_ops {
	int family;
	void (*release)(struct socket *sock);
	/* addr: a kernel copy of the caller's, len bytes */
	int (*bind)(struct socket *sock, const void *addr, int len);
	int (*getname)(struct socket *sock, void *addr, int *len);
	/* Into buf (kernel): the bytes copied, or -errno; nonblock: -EAGAIN instead of sleeping. */
	ssize_t (*recvmsg)(struct socket *sock, char *buf, size_t size, int flags, bool nonblock,
			   struct sock_recv *info);
	unsigned int (*poll)(struct file *file, struct socket *sock, struct poll_table_struct *wait);
	int (*setsockopt)(struct socket *sock, int level, int name, int val);
	int (*getsockopt)(struct socket *sock, int level, int name, int *val);
};

/* A family: create fills sock->ops and sock->sk for protocol, or -errno. */
struct net_proto_family {
	int family;
	int (*create)(struct socket *sock, int protocol);
};

struct socket {
	short type; /* SOCK_DGRAM, SOCK_RAW, ... */
	int protocol;
	const struct proto_ops *ops;
	void *sk;	    /* the family's state */
	bool passcred;	    /* SO_PASSCRED: recvmsg adds the sender's credentials */
	struct inode inode; /* S_IFSOCK, for fstat */
};

/* The families there are (net/socket.c's table holds them). */
extern const struct net_proto_family netlink_family_ops;

#endif
