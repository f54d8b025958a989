/*
 * ueventmon.c: a listener on the kernel's uevent netlink socket
 * (NETLINK_KOBJECT_UEVENT, group 1), printing each event as it arrives:
 * its "ACTION@DEVPATH" head, then its KEY=VALUE strings, then a blank line.
 *
 *   ueventmon [-n COUNT]    stop after COUNT events (default: never)
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void print_event(const char *buf, size_t len)
{
	for (size_t off = 0; off < len; off += strlen(buf + off) + 1)
		printf("%s\n", buf + off); /* each string ends with a NUL, as 2.6 sends them */
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	long count = argc == 3 && strcmp(argv[1], "-n") == 0 ? atol(argv[2]) : -1;
	static char buf[8192];
	int fd;

	if (argc != 1 && count < 1) {
		fprintf(stderr, "usage: ueventmon [-n COUNT]\n");
		return 2;
	}
	fd = socket(AF_NETLINK, SOCK_DGRAM, NETLINK_KOBJECT_UEVENT);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
		perror("ueventmon: netlink");
		return 1;
	}
	for (long seen = 0; count < 0 || seen < count;) {
		ssize_t n = recv(fd, buf, sizeof(buf) - 1, 0);

		if (n < 0 && errno == ENOBUFS) {
			fprintf(stderr, "ueventmon: events lost (ENOBUFS)\n");
			continue;
		}
		if (n < 0) {
			perror("ueventmon: recv");
			return 1;
		}
		buf[n] = '\0';
		print_event(buf, (size_t)n);
		seen++;
	}
	return 0;
}
