/*
 * netlinktest.c: the uevent netlink socket from user space, checked as on
 * Linux: bad input and its errno, the socket as a file (poll, select, dup,
 * fork, O_NONBLOCK, a signal during recv), MSG_PEEK/MSG_TRUNC, recvmsg's
 * address and credentials, both ways in on i386 (socketcall and the
 * direct calls), and the ENOBUFS of a reader that falls behind. Events are
 * made by writing "add" to /sys/class/mem/null/uevent
 * (/devices/virtual/mem/null).
 *
 *   netlinktest errors | files | overrun    checks; "ok NAME" or "FAIL NAME ..." each
 *   netlinktest dump                        prints each datagram as "LEN HEX", for ever
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRIGGER "/sys/class/mem/null/uevent"
#define HEAD "add@/devices/virtual/mem/null"
#define KERNEL_ADDR ((void *)0xc0000000) /* above TASK_SIZE: EFAULT without a fault */

static int passed, failed;

/* r is a call's result: want_errno 0 means it must succeed. */
static void check(const char *name, long r, int want_errno)
{
	int e = r < 0 ? errno : 0;

	if ((want_errno && r == -1 && e == want_errno) || (!want_errno && r >= 0)) {
		printf("ok %s\n", name);
		passed++;
	} else {
		printf("FAIL %s: returned %ld, errno %d (%s), want %s\n", name, r, e, strerror(e),
		       want_errno ? strerror(want_errno) : "success");
		failed++;
	}
	fflush(stdout);
}

static void expect(const char *name, int cond)
{
	check(name, cond ? 0 : -1, 0);
}

static int trigger(void)
{
	int fd = open(TRIGGER, O_WRONLY);
	int r = fd < 0 ? -1 : (int)write(fd, "add\n", 4);

	if (fd >= 0)
		close(fd);
	return r;
}

static int uevent_socket(int flags, int groups)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = groups };
	int fd = socket(AF_NETLINK, SOCK_DGRAM | flags, NETLINK_KOBJECT_UEVENT);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		perror("netlinktest: socket");
		exit(1);
	}
	return fd;
}

static void socket_errors(void)
{
	check("socket_family_out_of_range", socket(1000, SOCK_DGRAM, 0), EAFNOSUPPORT);
	check("socket_family_negative", socket(-1, SOCK_DGRAM, 0), EAFNOSUPPORT);
	check("socket_type_unknown", socket(AF_NETLINK, 12, NETLINK_KOBJECT_UEVENT), EINVAL);
	check("socket_flag_unknown", socket(AF_NETLINK, SOCK_DGRAM | 0x10, 15), EINVAL);
	check("socket_stream", socket(AF_NETLINK, SOCK_STREAM, NETLINK_KOBJECT_UEVENT),
	      ESOCKTNOSUPPORT);
	check("socket_protocol_32", socket(AF_NETLINK, SOCK_DGRAM, 32), EPROTONOSUPPORT);
	check("socket_protocol_negative", socket(AF_NETLINK, SOCK_DGRAM, -1), EPROTONOSUPPORT);
	check("socket_protocol_unserved", socket(AF_NETLINK, SOCK_DGRAM, 31), EPROTONOSUPPORT);
	check("socket_raw", socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT), 0);
}

static void bind_errors(int fd, int other)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 }, got;
	socklen_t len = sizeof(got);

	a.nl_family = AF_INET;
	check("bind_family_inet", bind(fd, (struct sockaddr *)&a, sizeof(a)), EINVAL);
	a.nl_family = AF_NETLINK;
	check("bind_short_address", bind(fd, (struct sockaddr *)&a, 4), EINVAL);
	check("bind_address_fault", bind(fd, KERNEL_ADDR, sizeof(a)), EFAULT);
	check("bind_address_unmapped", bind(fd, (struct sockaddr *)16, sizeof(a)), EFAULT);
	check("bind_not_a_socket", bind(0, (struct sockaddr *)&a, sizeof(a)), ENOTSOCK);
	check("bind_bad_fd", bind(200, (struct sockaddr *)&a, sizeof(a)), EBADF);
	a.nl_groups = 6; /* groups 2 and 3: the uevent protocol has only 1 */
	check("bind_missing_groups", bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	check("getsockname", getsockname(fd, (struct sockaddr *)&got, &len), 0);
	expect("getsockname_groups_kept", len == sizeof(got) && got.nl_groups == 6);
	expect("getsockname_pid_is_getpid", got.nl_pid == (unsigned)getpid());
	a.nl_groups = 1;
	check("bind_again_port_0", bind(fd, (struct sockaddr *)&a, sizeof(a)), EINVAL);
	a.nl_pid = got.nl_pid; /* a bound socket keeps its port: name it again */
	check("bind_again_group_1", bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	getsockname(fd, (struct sockaddr *)&got, &len);
	expect("getsockname_group_1", got.nl_groups == 1);
	a.nl_pid = getpid() + 1;
	check("bind_other_port", bind(fd, (struct sockaddr *)&a, sizeof(a)), EINVAL);
	a.nl_pid = getpid();
	check("bind_port_in_use", bind(other, (struct sockaddr *)&a, sizeof(a)), EADDRINUSE);
	check("getsockname_len_fault", getsockname(fd, (struct sockaddr *)&got, KERNEL_ADDR),
	      EFAULT);
}

static void opt_and_recv_errors(int fd)
{
	int v = 10000, len = sizeof(v);
	char buf[64];
	long args[3] = { AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT };

	check("setsockopt_short", setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, 2), EINVAL);
	check("setsockopt_fault", setsockopt(fd, SOL_SOCKET, SO_RCVBUF, KERNEL_ADDR, 4), EFAULT);
	check("setsockopt_unknown", setsockopt(fd, SOL_SOCKET, 9999, &v, sizeof(v)), ENOPROTOOPT);
	check("setsockopt_rcvbuf", setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)), 0);
	check("getsockopt_rcvbuf", getsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, (socklen_t *)&len), 0);
	expect("rcvbuf_doubled", v == 20000 && len == sizeof(v));
	getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, (socklen_t *)&len);
	expect("so_type_dgram", v == SOCK_DGRAM);
	check("recv_empty_dontwait", recv(fd, buf, sizeof(buf), MSG_DONTWAIT), EAGAIN);
	check("recv_not_a_socket", recv(1, buf, sizeof(buf), MSG_DONTWAIT), ENOTSOCK);
	check("socketcall_zero", syscall(SYS_socketcall, 0, args), EINVAL);
	check("socketcall_21", syscall(SYS_socketcall, 21, args), EINVAL);
	check("socketcall_args_fault", syscall(SYS_socketcall, 1, KERNEL_ADDR), EFAULT);
	check("close", close(fd), 0);
	check("close_again", close(fd), EBADF);
}

static void errors(void)
{
	int fd, other;

	socket_errors();
	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
	other = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
	check("socket_dgram", fd, 0);
	bind_errors(fd, other);
	close(other);
	opt_and_recv_errors(fd);
}

/* The datagram of the trigger's event, read with recvmsg into two iovecs. */
static void recvmsg_datagram(int fd)
{
	char a[10], b[2048], ctl[64];
	const size_t rest = sizeof(HEAD) - sizeof(a);
	struct sockaddr_nl from;
	struct iovec iov[2] = { { a, sizeof(a) }, { b, sizeof(b) } };
	struct msghdr m = { .msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = iov, .msg_iovlen = 2, .msg_control = ctl, .msg_controllen = sizeof(ctl) };
	struct cmsghdr *c;
	ssize_t n = recvmsg(fd, &m, 0);

	check("recvmsg", n, 0);
	expect("recvmsg_head", n > 40 && memcmp(a, HEAD, sizeof(a)) == 0 &&
				       memcmp(b, HEAD + sizeof(a), rest) == 0);
	expect("recvmsg_keys", n > 40 && memcmp(b + rest, "ACTION=add", 11) == 0);
	expect("recvmsg_from_kernel_group_1", m.msg_namelen == sizeof(from) &&
						      from.nl_family == AF_NETLINK &&
						      from.nl_pid == 0 && from.nl_groups == 1);
	c = CMSG_FIRSTHDR(&m);
	expect("recvmsg_credentials", c && c->cmsg_level == SOL_SOCKET &&
					      c->cmsg_type == SCM_CREDENTIALS &&
					      ((struct ucred *)CMSG_DATA(c))->pid == 0);
	expect("recvmsg_not_truncated", !(m.msg_flags & MSG_TRUNC));
}

static void peek_and_trunc(int fd)
{
	char buf[2048];
	ssize_t full, n;

	trigger();
	full = recv(fd, buf, 4, MSG_PEEK | MSG_TRUNC);
	check("recv_buffer_fault", recv(fd, KERNEL_ADDR, sizeof(buf), MSG_PEEK), EFAULT);
	expect("peek_trunc_gives_full_length", full > 40 && memcmp(buf, "add@", 4) == 0);
	n = recv(fd, buf, sizeof(buf), 0);
	expect("peek_left_it_queued", n == full && memcmp(buf, HEAD, sizeof(HEAD)) == 0);
}

static void poll_and_select(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	struct timeval tv = { 1, 0 };
	fd_set in;

	check("poll_empty", poll(&p, 1, 0) == 0 ? 0 : -1, 0);
	trigger();
	expect("poll_readable", poll(&p, 1, 1000) == 1 && (p.revents & POLLIN));
	FD_ZERO(&in);
	FD_SET(fd, &in);
	expect("select_readable", /* glibc's select() is pselect6; _newselect is select(2) */
	       syscall(SYS__newselect, fd + 1, &in, NULL, NULL, &tv) == 1 && FD_ISSET(fd, &in));
	recvmsg_datagram(fd);
}

static void on_signal(int sig) { (void)sig; }

/* A blocking recv ends with EINTR when a signal (handler, no SA_RESTART) arrives. */
static void recv_interrupted(int fd)
{
	struct sigaction sa = { .sa_handler = on_signal };
	pid_t parent = getpid(), child;
	char buf[64];
	int status;

	sigaction(SIGUSR1, &sa, NULL);
	child = fork();
	if (child == 0) {
		usleep(200000);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	check("recv_interrupted", recv(fd, buf, sizeof(buf), 0), EINTR);
	waitpid(child, &status, 0);
}

/* The child reads the event the parent makes: the socket is inherited. */
static void fork_inherits(int fd)
{
	char buf[2048];
	pid_t child = fork();
	int status = -1;

	if (child == 0) {
		ssize_t n = read(fd, buf, sizeof(buf));

		_exit(n > 0 && memcmp(buf, HEAD, sizeof(HEAD)) == 0 ? 0 : 1);
	}
	usleep(100000);
	trigger();
	waitpid(child, &status, 0);
	expect("fork_child_reads", WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void files(void)
{
	long args[3] = { AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT };
	struct sockaddr_nl a = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int fd = (int)syscall(SYS_socketcall, 1 /* SYS_SOCKET */, args), one = 1, fd2;
	struct stat st;
	char buf[2048];

	check("socketcall_socket", fd, 0);
	check("direct_bind", syscall(SYS_bind, fd, &a, sizeof(a)), 0);
	check("so_passcred", setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)), 0);
	check("fstat", fstat(fd, &st), 0);
	expect("fstat_is_socket", S_ISSOCK(st.st_mode));
	poll_and_select(fd);
	peek_and_trunc(fd);
	check("fcntl_nonblock", fcntl(fd, F_SETFL, O_NONBLOCK), 0);
	check("read_nonblock_empty", read(fd, buf, sizeof(buf)), EAGAIN);
	fcntl(fd, F_SETFL, 0);
	fd2 = dup(fd);
	close(fd);
	trigger();
	check("read_after_dup_and_close", read(fd2, buf, sizeof(buf)), 0);
	check("direct_recvfrom_empty", syscall(SYS_recvfrom, fd2, buf, 10, MSG_DONTWAIT, 0, 0),
	      EAGAIN);
	recv_interrupted(fd2);
	fork_inherits(fd2);
	close(fd2);
}

static long seqnum_of(const char *buf, ssize_t n)
{
	for (ssize_t off = 0; off < n; off += (ssize_t)strlen(buf + off) + 1)
		if (strncmp(buf + off, "SEQNUM=", 7) == 0)
			return atol(buf + off + 7);
	return -1;
}

/* A reader that stops reading: losses, one ENOBUFS, then the queue in order, then new events. */
static void overrun(void)
{
	int fd = uevent_socket(SOCK_NONBLOCK, 1), small = 1, queued = 0, i;
	long first = -1, last = -1;
	char buf[2048];
	ssize_t n;

	check("rcvbuf_small", setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small)), 0);
	for (i = 0; i < 60; i++)
		if (trigger() < 0)
			break;
	check("all_events_sent", i == 60 ? 0 : -1, 0);
	check("recv_enobufs", recv(fd, buf, sizeof(buf), 0), ENOBUFS);
	while ((n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		long s = seqnum_of(buf, n);

		if (first < 0)
			first = s;
		else if (s != last + 1)
			break;
		last = s;
		queued++;
	}
	check("queue_then_eagain", n, EAGAIN);
	printf("overrun: %d of 60 queued, seqnum %ld-%ld\n", queued, first, last);
	expect("some_queued_some_lost", queued > 0 && queued < 60);
	trigger();
	n = recv(fd, buf, sizeof(buf), 0);
	expect("delivery_resumes", n > 0 && seqnum_of(buf, n) > last + 1);
	close(fd);
}

static void dump(void)
{
	int fd = uevent_socket(0, 1);
	static unsigned char buf[8192];

	printf("listening\n");
	fflush(stdout);
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n < 0) {
			printf("error %s\n", strerror(errno));
			if (errno != ENOBUFS)
				return;
			continue;
		}
		printf("%zd ", n);
		for (ssize_t i = 0; i < n; i++)
			printf("%02x", buf[i]);
		printf("\n");
		fflush(stdout);
	}
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "";

	if (strcmp(what, "errors") == 0)
		errors();
	else if (strcmp(what, "files") == 0)
		files();
	else if (strcmp(what, "overrun") == 0)
		overrun();
	else if (strcmp(what, "dump") == 0)
		dump();
	else {
		fprintf(stderr, "usage: netlinktest errors|files|overrun|dump\n");
		return 2;
	}
	printf("netlinktest: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
