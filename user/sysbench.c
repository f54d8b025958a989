/*
 * sysbench.c: the cost of the system calls a process leans on, the same
 * static binary on Kobold and on Linux (make bench prints the ratios):
 * getpid, a pipe ping-pong between two processes, fork+exit+wait,
 * fork+exec+wait of busybox's true, and open-read-close of a sysfs
 * attribute. Prints one "NAME N ns/op" line each.
 *
 *   sysbench [SCALE]    SCALE multiplies the iteration counts (default 1)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BUSYBOX "/bin/busybox"
#define ATTR "/sys/kernel/uevent_seqnum" /* in both kernels' sysfs */

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int bench_getpid(long n)
{
	for (long i = 0; i < n; i++)
		syscall(SYS_getpid); /* not glibc's getpid, which a version may cache */
	return 0;
}

/* n round trips of one byte between parent and child over two pipes. */
static int bench_pipe(long n)
{
	int there[2], back[2];
	pid_t pid;
	char c = 'x';

	if (pipe(there) || pipe(back) || (pid = fork()) < 0)
		return -1;
	if (pid == 0) {
		for (long i = 0; i < n; i++)
			if (read(there[0], &c, 1) != 1 || write(back[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	for (long i = 0; i < n; i++)
		if (write(there[1], &c, 1) != 1 || read(back[0], &c, 1) != 1)
			return -1;
	close(there[0]);
	close(there[1]);
	close(back[0]);
	close(back[1]);
	return waitpid(pid, NULL, 0) == pid ? 0 : -1;
}

static int bench_fork(long n)
{
	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return -1;
		if (pid == 0)
			_exit(0);
		if (waitpid(pid, &status, 0) != pid || status)
			return -1;
	}
	return 0;
}

static int bench_exec(long n)
{
	static char *argv[] = { "true", NULL };
	static char *envp[] = { NULL };

	for (long i = 0; i < n; i++) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return -1;
		if (pid == 0) {
			execve(BUSYBOX, argv, envp);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || status)
			return -1;
	}
	return 0;
}

static int bench_sysfs(long n)
{
	char buf[64];

	for (long i = 0; i < n; i++) {
		int fd = open(ATTR, O_RDONLY);

		if (fd < 0 || read(fd, buf, sizeof(buf)) <= 0 || close(fd))
			return -1;
	}
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(long n);
	long n;
} benches[] = {
	{ "getpid", bench_getpid, 100000 },
	{ "pipe_pingpong", bench_pipe, 10000 },
	{ "fork_exit_wait", bench_fork, 500 },
	{ "fork_exec_wait", bench_exec, 200 },
	{ "sysfs_open_read_close", bench_sysfs, 10000 },
};

int main(int argc, char **argv)
{
	long scale = argc > 1 ? atol(argv[1]) : 1;
	int err = 0;

	if (scale < 1) {
		fprintf(stderr, "usage: sysbench [SCALE>=1]\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		long n = benches[i].n * scale;
		long long t0 = now_ns();

		if (benches[i].fn(n)) {
			printf("%s failed\n", benches[i].name);
			err = 1;
			continue;
		}
		printf("%s %ld %lld ns/op\n", benches[i].name, n, (now_ns() - t0) / n);
	}
	return err;
}
