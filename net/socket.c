/*
 * socket.c: the BSD socket calls (Linux's net/socket.c): a socket is an
 * open file whose operations lead to its family's (AF_NETLINK only), so
 * close, dup, fork, poll and fcntl(O_NONBLOCK) work on it as on any file.
 * i386 reaches these calls two ways, as Linux: socketcall (102), one
 * entry for all, and since Linux 4.3 a system call each (359-373).
 */
#include <kobold/net.h>
#include <kobold/cred.h>
#include <kobold/errno.h>
#include <kobold/fdtable.h>
#include <kobold/sched.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/syscalls.h>
#include <kobold/uaccess.h>

#define MAX_SOCK_ADDR 128 /* sizeof(struct sockaddr_storage) */
#define MAX_RECV 65536	  /* a datagram is never longer */
#define UIO_MAXIOV 1024

static const struct net_proto_family *const families[NPROTO] = {
	[16 /* AF_NETLINK */] = &netlink_family_ops,
};

static struct super_block sockfs_sb = { .s_dev_minor = 8 }; /* stat's device: sockfs */
/* fchmod and fchown keep their change, as 2.6's notify_change did for an inode with no setattr. */
static const struct inode_operations sockfs_inode_ops = { .setattr = simple_setattr };

static struct socket *sock_of(struct file *f) { return f->private_data; }

static ssize_t sock_read(struct file *f, char *buf, size_t n, loff_t *pos)
{
	struct socket *sock = sock_of(f);
	struct sock_recv info = { 0 };

	return sock->ops->recvmsg(sock, buf, n, 0, f->f_flags & O_NONBLOCK, &info);
}

static ssize_t sock_write(struct file *f, const char *buf, size_t n, loff_t *pos)
{
	return -EOPNOTSUPP; /* sending: docs/differences.md */
}

static unsigned int sock_poll(struct file *f, struct poll_table_struct *wait)
{
	struct socket *sock = sock_of(f);

	return sock->ops->poll ? sock->ops->poll(f, sock, wait) : 0;
}

static int sock_close(struct inode *inode, struct file *f)
{
	struct socket *sock = sock_of(f);

	if (sock->ops->release)
		sock->ops->release(sock);
	kfree(sock);
	return 0;
}

static const struct file_operations socket_file_ops = {
	.read = sock_read,
	.write = sock_write,
	.poll = sock_poll,
	.release = sock_close,
};

/* A new socket of the family, or -errno: the checks in Linux's __sock_create order. */
static int sock_create(int family, int type, int protocol, struct socket **out)
{
	struct socket *sock;
	int err;

	if (family < 0 || family >= NPROTO)
		return -EAFNOSUPPORT;
	if (type < SOCK_STREAM || type > 10 /* SOCK_PACKET */)
		return -EINVAL;
	if (!families[family])
		return -EAFNOSUPPORT;
	sock = kzalloc(sizeof(*sock));
	if (!sock)
		return -ENOMEM;
	sock->type = (short)type;
	sock->protocol = protocol;
	err = families[family]->create(sock, protocol);
	if (err) {
		kfree(sock);
		return err;
	}
	sock->inode.i_mode = S_IFSOCK | 0777;
	sock->inode.i_uid = current_fsuid(); /* 2.6's sock_alloc: the maker's */
	sock->inode.i_gid = current_fsgid();
	sock->inode.i_op = &sockfs_inode_ops;
	sock->inode.i_sb = &sockfs_sb;
	sock->inode.i_count = 1 << 30; /* never evicted: it dies with the socket */
	*out = sock;
	return 0;
}

static int sock_map_fd(struct socket *sock, int flags)
{
	struct file *f = kzalloc(sizeof(*f));
	int fd;

	if (!f)
		return -ENOMEM;
	f->f_op = &socket_file_ops;
	f->f_flags = O_RDWR | (flags & O_NONBLOCK);
	f->private_data = sock;
	f->f_path.inode = &sock->inode; /* no mount: path_put leaves it alone */
	fd = fd_install_from(current->user.files, f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		vfs_close(f); /* releases the socket */
	return fd;
}

long sys_socket(int family, int type, int protocol)
{
	int flags = type & ~SOCK_TYPE_MASK;
	struct socket *sock;
	int err;

	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	err = sock_create(family, type & SOCK_TYPE_MASK, protocol, &sock);
	return err ? err : sock_map_fd(sock, flags);
}

/* The socket behind fd: -EBADF, -ENOTSOCK. */
static struct socket *sockfd_lookup(int fd, struct file **filep, int *err)
{
	struct file *f = fget(current->user.files, fd);

	*err = !f ? -EBADF : f->f_op != &socket_file_ops ? -ENOTSOCK
							 : 0;
	if (*err)
		return NULL;
	if (filep)
		*filep = f;
	return sock_of(f);
}

long sys_bind(int fd, const void __user *uaddr, int len)
{
	char addr[MAX_SOCK_ADDR];
	struct socket *sock;
	int err;

	sock = sockfd_lookup(fd, NULL, &err);
	if (!sock)
		return err;
	if (len < 0 || len > MAX_SOCK_ADDR)
		return -EINVAL;
	if (copy_from_user(addr, uaddr, (size_t)len))
		return -EFAULT;
	return sock->ops->bind ? sock->ops->bind(sock, addr, len) : -EOPNOTSUPP;
}

/* Linux's move_addr_to_user: at most *ulen bytes of addr; *ulen becomes its length. */
static int move_addr_to_user(const void *addr, int klen, void __user *uaddr, int __user *ulen)
{
	int len;

	if (get_user(len, ulen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	if (len > klen)
		len = klen;
	if (len && copy_to_user(uaddr, addr, (size_t)len))
		return -EFAULT;
	return put_user(klen, ulen);
}

long sys_getsockname(int fd, void __user *uaddr, int __user *ulen)
{
	char addr[MAX_SOCK_ADDR];
	struct socket *sock;
	int err, klen = 0;

	sock = sockfd_lookup(fd, NULL, &err);
	if (!sock)
		return err;
	err = sock->ops->getname ? sock->ops->getname(sock, addr, &klen) : -EOPNOTSUPP;
	return err ? err : move_addr_to_user(addr, klen, uaddr, ulen);
}

static int sock_getsockopt_common(struct socket *sock, int name, int *val)
{
	switch (name) {
	case SO_TYPE:
		*val = sock->type;
		return 0;
	case SO_PROTOCOL:
		*val = sock->protocol;
		return 0;
	case SO_DOMAIN:
		*val = sock->ops->family;
		return 0;
	case SO_PASSCRED:
		*val = sock->passcred;
		return 0;
	}
	return sock->ops->getsockopt ? sock->ops->getsockopt(sock, SOL_SOCKET, name, val)
				     : -ENOPROTOOPT;
}

long sys_setsockopt(int fd, int level, int name, const void __user *optval, int optlen)
{
	struct socket *sock;
	int err, val;

	sock = sockfd_lookup(fd, NULL, &err);
	if (!sock)
		return err;
	if (optlen < (int)sizeof(int))
		return -EINVAL;
	if (get_user(val, (const int __user *)optval))
		return -EFAULT;
	if (level == SOL_SOCKET && name == SO_PASSCRED) {
		sock->passcred = val != 0;
		return 0;
	}
	return sock->ops->setsockopt ? sock->ops->setsockopt(sock, level, name, val)
				     : -ENOPROTOOPT;
}

long sys_getsockopt(int fd, int level, int name, void __user *optval, int __user *optlen)
{
	struct socket *sock;
	int err, len, val = 0;

	sock = sockfd_lookup(fd, NULL, &err);
	if (!sock)
		return err;
	if (get_user(len, optlen))
		return -EFAULT;
	if (len < 0)
		return -EINVAL;
	if (level == SOL_SOCKET)
		err = sock_getsockopt_common(sock, name, &val);
	else
		err = sock->ops->getsockopt ? sock->ops->getsockopt(sock, level, name, &val)
					    : -ENOPROTOOPT;
	if (err)
		return err;
	len = min(len, (int)sizeof(int));
	if (copy_to_user(optval, &val, (size_t)len))
		return -EFAULT;
	return put_user(len, optlen);
}

/* One datagram into a kernel buffer of size bytes (the caller frees *kbuf). */
static ssize_t sock_recv_kernel(struct file *f, struct socket *sock, size_t size, int flags,
				char **kbuf, struct sock_recv *info)
{
	bool nonblock = (f->f_flags & O_NONBLOCK) || (flags & MSG_DONTWAIT);

	*kbuf = kmalloc(min(size, (size_t)MAX_RECV) + 1);
	if (!*kbuf)
		return -ENOMEM;
	return sock->ops->recvmsg(sock, *kbuf, min(size, (size_t)MAX_RECV), flags, nonblock,
				  info);
}

long sys_recvfrom(int fd, void __user *ubuf, size_t size, unsigned int flags,
		  void __user *uaddr, int __user *ulen)
{
	struct sock_recv info = { 0 };
	struct socket *sock;
	struct file *f;
	char *kbuf;
	ssize_t r;
	int err;

	sock = sockfd_lookup(fd, &f, &err);
	if (!sock)
		return err;
	r = sock_recv_kernel(f, sock, size, (int)flags, &kbuf, &info);
	if (r > 0 && copy_to_user(ubuf, kbuf, (size_t)r))
		r = -EFAULT;
	kfree(kbuf);
	if (r >= 0 && uaddr && info.addrlen) {
		err = move_addr_to_user(info.addr, info.addrlen, uaddr, ulen);
		if (err)
			return err;
	}
	return r >= 0 && (flags & MSG_TRUNC) ? (long)info.full : r;
}

long sys_recv(int fd, void __user *ubuf, size_t size, unsigned int flags)
{
	return sys_recvfrom(fd, ubuf, size, flags, NULL, NULL);
}

/* i386's struct msghdr, struct iovec and struct cmsghdr: 32-bit words. */
struct user_msghdr {
	u32 msg_name;
	s32 msg_namelen;
	u32 msg_iov;
	u32 msg_iovlen;
	u32 msg_control;
	u32 msg_controllen;
	s32 msg_flags;
};

struct user_iovec {
	u32 base, len;
};

struct creds_cmsg {
	u32 cmsg_len;
	s32 cmsg_level, cmsg_type;
	u32 pid, uid, gid; /* struct ucred */
};

/* The datagram in kbuf spread over the caller's iovecs. */
static int scatter(const char *kbuf, size_t n, const struct user_iovec *iov, u32 iovlen)
{
	for (u32 i = 0; i < iovlen && n; i++) {
		size_t part = min(n, (size_t)iov[i].len);

		if (copy_to_user((void __user *)iov[i].base, kbuf, part))
			return -EFAULT;
		kbuf += part;
		n -= part;
	}
	return 0;
}

/* SCM_CREDENTIALS, when SO_PASSCRED asked for it: the sender's pid, uid and gid. */
static int put_creds(struct user_msghdr *m, const struct sock_recv *info)
{
	struct creds_cmsg c = { sizeof(c), SOL_SOCKET, SCM_CREDENTIALS,
				info->pid, info->uid, info->gid };

	if (!info->want_creds || !m->msg_control) {
		m->msg_controllen = 0;
		return 0;
	}
	if (m->msg_controllen < sizeof(c)) {
		m->msg_flags |= 0x08; /* MSG_CTRUNC */
		m->msg_controllen = 0;
		return 0;
	}
	m->msg_controllen = sizeof(c);
	return copy_to_user((void __user *)m->msg_control, &c, sizeof(c)) ? -EFAULT : 0;
}

static long read_iovecs(const struct user_msghdr *m, struct user_iovec **iov, size_t *total)
{
	if (m->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	*iov = kmalloc(m->msg_iovlen * sizeof(**iov) + 1);
	if (!*iov)
		return -ENOMEM;
	if (copy_from_user(*iov, (const void __user *)m->msg_iov, m->msg_iovlen * sizeof(**iov)))
		return -EFAULT;
	*total = 0;
	for (u32 i = 0; i < m->msg_iovlen; i++) {
		if (!access_ok((void __user *)(*iov)[i].base, (*iov)[i].len))
			return -EFAULT;
		*total += (*iov)[i].len;
	}
	return 0;
}

static long recvmsg_to_user(struct user_msghdr *m, const char *kbuf, ssize_t r,
			    const struct user_iovec *iov, const struct sock_recv *info)
{
	int namelen = m->msg_namelen;

	if (scatter(kbuf, (size_t)r, iov, m->msg_iovlen))
		return -EFAULT;
	m->msg_flags = (size_t)r < info->full ? MSG_TRUNC : 0;
	if (m->msg_name && info->addrlen) {
		if (namelen < 0)
			return -EINVAL;
		namelen = min(namelen, info->addrlen);
		if (copy_to_user((void __user *)m->msg_name, info->addr, (size_t)namelen))
			return -EFAULT;
	}
	m->msg_namelen = info->addrlen;
	return put_creds(m, info);
}

long sys_recvmsg(int fd, struct user_msghdr __user *umsg, unsigned int flags)
{
	struct sock_recv info = { 0 };
	struct user_iovec *iov = NULL;
	struct user_msghdr m;
	struct socket *sock;
	char *kbuf = NULL;
	struct file *f;
	size_t total;
	long r;
	int err;

	sock = sockfd_lookup(fd, &f, &err);
	if (!sock)
		return err;
	if (copy_from_user(&m, umsg, sizeof(m)))
		return -EFAULT;
	r = read_iovecs(&m, &iov, &total);
	if (r)
		goto out;
	info.want_creds = sock->passcred;
	r = sock_recv_kernel(f, sock, total, (int)flags, &kbuf, &info);
	if (r >= 0) {
		err = recvmsg_to_user(&m, kbuf, r, iov, &info);
		if (!err && copy_to_user(umsg, &m, sizeof(m)))
			err = -EFAULT;
		if (err)
			r = err;
		else if (flags & MSG_TRUNC)
			r = (long)info.full;
	}
out:
	kfree(kbuf);
	kfree(iov);
	return r;
}

/*
 * Sending, connecting, listening: a netlink uevent socket only receives
 * (docs/differences.md). The fd is checked first, as Linux does.
 */
static long sock_unsupported(int fd)
{
	int err;

	return sockfd_lookup(fd, NULL, &err) ? -EOPNOTSUPP : err;
}

long sys_connect(int fd) { return sock_unsupported(fd); }
long sys_listen(int fd) { return sock_unsupported(fd); }
long sys_accept4(int fd) { return sock_unsupported(fd); }
long sys_getpeername(int fd) { return sock_unsupported(fd); }
long sys_sendto(int fd) { return sock_unsupported(fd); }
long sys_sendmsg(int fd) { return sock_unsupported(fd); }
long sys_shutdown(int fd) { return sock_unsupported(fd); }

/* As Linux's sock_no_socketpair: no family here pairs sockets. */
long sys_socketpair(int family, int type, int protocol, int __user *sv)
{
	struct socket *sock;
	int err = sock_create(family, type & SOCK_TYPE_MASK, protocol, &sock);

	if (err)
		return err;
	if (sock->ops->release)
		sock->ops->release(sock);
	kfree(sock);
	return -EOPNOTSUPP;
}

/* socketcall's calls (Linux's SYS_SOCKET..SYS_SENDMMSG) and their argument counts. */
static const unsigned char socketcall_nargs[21] = { 0, 3, 3, 3, 2, 3, 3, 3, 4, 4, 4,
						    6, 6, 2, 5, 5, 3, 3, 4, 5, 4 };

long sys_socketcall(int call, const u32 __user *args)
{
	u32 a[6];

	if (call < 1 || call > 20)
		return -EINVAL;
	if (copy_from_user(a, args, socketcall_nargs[call] * sizeof(u32)))
		return -EFAULT;
	switch (call) {
	case 1: /* SYS_SOCKET */
		return sys_socket((int)a[0], (int)a[1], (int)a[2]);
	case 2: /* SYS_BIND */
		return sys_bind((int)a[0], (const void __user *)a[1], (int)a[2]);
	case 6: /* SYS_GETSOCKNAME */
		return sys_getsockname((int)a[0], (void __user *)a[1], (int __user *)a[2]);
	case 10: /* SYS_RECV */
		return sys_recv((int)a[0], (void __user *)a[1], a[2], a[3]);
	case 12: /* SYS_RECVFROM */
		return sys_recvfrom((int)a[0], (void __user *)a[1], a[2], a[3],
				    (void __user *)a[4], (int __user *)a[5]);
	case 14: /* SYS_SETSOCKOPT */
		return sys_setsockopt((int)a[0], (int)a[1], (int)a[2], (const void __user *)a[3],
				      (int)a[4]);
	case 15: /* SYS_GETSOCKOPT */
		return sys_getsockopt((int)a[0], (int)a[1], (int)a[2], (void __user *)a[3],
				      (int __user *)a[4]);
	case 17: /* SYS_RECVMSG */
		return sys_recvmsg((int)a[0], (struct user_msghdr __user *)a[1], a[2]);
	case 8: /* SYS_SOCKETPAIR */
		return sys_socketpair((int)a[0], (int)a[1], (int)a[2], (int __user *)a[3]);
	}
	return sock_unsupported((int)a[0]);
}
