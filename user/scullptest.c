/*
 * scullptest.c: lab 21's driver test, run by labs/lab21/check.py:
 * /dev/scullpipe's ioctls, its FIFO, O_NONBLOCK, poll, and reads and writes
 * that wait for another process (docs/labs/lab21-scullpipe.md). One line a
 * test: "ok NAME" or "FAIL NAME: what happened"; a watchdog process ends a
 * test that waits more than 3 s with SIGUSR2. `scullptest NAME...` runs some.
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "test.h"

#define DEV "/dev/scullpipe"
#define SIZE 4096

#define SCULLP_IOC_MAGIC 'k'
#define SCULLP_IOCRESET _IO(SCULLP_IOC_MAGIC, 0)
#define SCULLP_IOCGSIZE _IOR(SCULLP_IOC_MAGIC, 1, int)
#define SCULLP_IOCSSIZE _IOW(SCULLP_IOC_MAGIC, 2, int)
#define SCULLP_IOCGCOUNT _IOR(SCULLP_IOC_MAGIC, 3, int)

static volatile sig_atomic_t watchdog_fired, usr1;

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000 };

	nanosleep(&ts, NULL);
}

/* fresh()'s step that failed, as the test's reason ("fresh: STEP: ENOTTY"); closes fd: -1. */
static int fresh_failed(int fd, const char *step)
{
	const char *name = strerrorname_np(errno);

	snprintf(why, sizeof(why), "fresh: %s: %s", step, name ? name : strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * The device emptied, at its size at load, opened with flags; -1 with the
 * failed step in why (CHECK_FRESH ends the test).
 */
static int fresh(int flags)
{
	int fd = open(DEV, flags), size = SIZE;

	if (fd < 0)
		return fresh_failed(fd, "open");
	if (ioctl(fd, SCULLP_IOCRESET))
		return fresh_failed(fd, "SCULLP_IOCRESET");
	if (ioctl(fd, SCULLP_IOCSSIZE, &size))
		return fresh_failed(fd, "SCULLP_IOCSSIZE");
	return fd;
}

/* Ends the test if fresh() failed: why already names its step. */
#define CHECK_FRESH(fd)         \
	do {                    \
		if ((fd) < 0)   \
			return; \
	} while (0)

/* A child that waits ms, then opens the device and writes text (or reads n bytes). */
static pid_t later(long ms, const char *text, int n)
{
	pid_t pid = fork();

	if (pid == 0) {
		char buf[SIZE];
		int fd;

		sleep_ms(ms);
		fd = open(DEV, O_RDWR);
		if (text)
			_exit(write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 1);
		_exit(read(fd, buf, (size_t)n) == n ? 0 : 1);
	}
	return pid;
}

static void reap(pid_t pid)
{
	int saved = errno; /* the caller's, from the call it checks next */

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	errno = saved;
}

static void t_ioctl_size(void)
{
	int fd = fresh(O_RDWR), size = 0;

	CHECK_FRESH(fd);
	CHECK(ioctl(fd, SCULLP_IOCGSIZE, &size) == 0 && size == SIZE);
	close(fd);
}

static void t_ioctl_count(void)
{
	int fd = fresh(O_RDWR), count = -1;

	CHECK_FRESH(fd);
	CHECK(ioctl(fd, SCULLP_IOCGCOUNT, &count) == 0 && count == 0);
	CHECK(write(fd, "0123456789", 10) == 10);
	CHECK(ioctl(fd, SCULLP_IOCGCOUNT, &count) == 0 && count == 10);
	CHECK(ioctl(fd, SCULLP_IOCRESET) == 0);
	CHECK(ioctl(fd, SCULLP_IOCGCOUNT, &count) == 0 && count == 0);
	close(fd);
}

static void t_ioctl_set_size(void)
{
	char buf[200] = { 0 };
	int fd = fresh(O_RDWR | O_NONBLOCK), size = 100, got = 0;

	CHECK_FRESH(fd);
	CHECK(write(fd, "x", 1) == 1);
	errno = 0;
	CHECK(ioctl(fd, SCULLP_IOCSSIZE, &size) == -1 && errno == EBUSY); /* bytes wait */
	CHECK(ioctl(fd, SCULLP_IOCRESET) == 0);
	CHECK(ioctl(fd, SCULLP_IOCSSIZE, &size) == 0);
	CHECK(ioctl(fd, SCULLP_IOCGSIZE, &got) == 0 && got == 100);
	CHECK(write(fd, buf, 150) == 100);
	errno = 0;
	CHECK(write(fd, buf, 1) == -1 && errno == EAGAIN);
	CHECK(ioctl(fd, SCULLP_IOCRESET) == 0);
	for (int bad = 0; bad < 3; bad++) {
		size = bad == 0 ? 0 : bad == 1 ? -5
					       : 65537;
		errno = 0;
		CHECK(ioctl(fd, SCULLP_IOCSSIZE, &size) == -1 && errno == EINVAL);
	}
	CHECK(ioctl(fd, SCULLP_IOCGSIZE, &got) == 0 && got == 100); /* unchanged */
	close(fd);
}

static void t_ioctl_unknown(void)
{
	struct termios t;
	int fd = fresh(O_RDWR), x = 0;

	CHECK_FRESH(fd);
	errno = 0;
	CHECK(ioctl(fd, _IO(SCULLP_IOC_MAGIC, 9)) == -1 && errno == ENOTTY);
	errno = 0;
	CHECK(ioctl(fd, _IOR('x', 1, int), &x) == -1 && errno == ENOTTY);
	errno = 0;
	CHECK(ioctl(fd, _IOR(SCULLP_IOC_MAGIC, 1, long long), &x) == -1 && errno == ENOTTY);
	errno = 0;
	CHECK(tcgetattr(fd, &t) == -1 && errno == ENOTTY); /* not a terminal: isatty() says 0 */
	CHECK(!isatty(fd));
	close(fd);
}

static void t_ioctl_efault(void)
{
	int fd = fresh(O_RDWR), size = 0;

	CHECK_FRESH(fd);
	errno = 0;
	CHECK(ioctl(fd, SCULLP_IOCGSIZE, (int *)8) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(ioctl(fd, SCULLP_IOCGCOUNT, (int *)0xC0100000) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(ioctl(fd, SCULLP_IOCSSIZE, (int *)8) == -1 && errno == EFAULT);
	CHECK(ioctl(fd, SCULLP_IOCGSIZE, &size) == 0 && size == SIZE); /* unchanged */
	close(fd);
}

static void t_fifo_order(void)
{
	char buf[16] = { 0 };
	int fd = fresh(O_RDWR);

	CHECK_FRESH(fd);
	CHECK(write(fd, "abc", 3) == 3 && write(fd, "def", 3) == 3);
	CHECK(read(fd, buf, 4) == 4 && memcmp(buf, "abcd", 4) == 0);
	CHECK(write(fd, "gh", 2) == 2);
	CHECK(read(fd, buf, 16) == 4 && memcmp(buf, "efgh", 4) == 0);
	close(fd);
}

static void t_nonblock_empty(void)
{
	char buf[8];
	int fd = fresh(O_RDONLY | O_NONBLOCK), fl;

	CHECK_FRESH(fd);
	errno = 0;
	CHECK(read(fd, buf, sizeof(buf)) == -1 && errno == EAGAIN);
	fl = fcntl(fd, F_GETFL);
	CHECK(fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == 0 && fcntl(fd, F_SETFL, fl) == 0);
	errno = 0;
	CHECK(read(fd, buf, sizeof(buf)) == -1 && errno == EAGAIN);
	close(fd);
}

static void t_nonblock_full(void)
{
	static char buf[SIZE];
	int fd = fresh(O_WRONLY | O_NONBLOCK), total = 0;
	ssize_t n;

	CHECK_FRESH(fd);
	while ((n = write(fd, buf, 1000)) > 0 && total < 2 * SIZE)
		total += (int)n;
	CHECK(n == -1 && errno == EAGAIN);
	CHECK(total == SIZE);
	close(fd);
}

static void t_poll_mask(void)
{
	static char buf[SIZE];
	int fd = fresh(O_RDWR | O_NONBLOCK);
	struct pollfd p = { fd, POLLIN | POLLOUT, 0 };

	CHECK_FRESH(fd);
	CHECK(poll(&p, 1, 0) == 1 && p.revents == POLLOUT);
	CHECK(write(fd, "x", 1) == 1);
	CHECK(poll(&p, 1, 0) == 1 && p.revents == (POLLIN | POLLOUT));
	CHECK(write(fd, buf, SIZE - 1) == SIZE - 1);
	CHECK(poll(&p, 1, 0) == 1 && p.revents == POLLIN);
	p.events = POLLOUT;
	CHECK(poll(&p, 1, 0) == 0 && p.revents == 0);
	close(fd);
}

static void t_poll_blocks(void)
{
	struct timespec t0;
	int fd = fresh(O_RDONLY);
	struct pollfd p = { fd, POLLIN, 0 };
	pid_t child;
	long ms;
	int r;

	CHECK_FRESH(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = later(200, "wake", 0);
	r = poll(&p, 1, 5000);
	ms = ms_since(&t0);
	reap(child);
	CHECK(r == 1 && p.revents == POLLIN);
	CHECK(ms >= 100);
	close(fd);
}

static void t_blocking_read(void)
{
	char buf[16] = { 0 };
	struct timespec t0;
	int fd = fresh(O_RDONLY);
	pid_t child;
	ssize_t n;
	long ms;

	CHECK_FRESH(fd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = later(200, "wake", 0);
	n = read(fd, buf, sizeof(buf));
	ms = ms_since(&t0);
	reap(child);
	CHECK(n == 4 && memcmp(buf, "wake", 4) == 0);
	CHECK(ms >= 100); /* it waited for the writer */
	close(fd);
}

static void t_blocking_write(void)
{
	static char buf[SIZE];
	struct timespec t0;
	int fd = fresh(O_WRONLY), count = 0;
	pid_t child;
	ssize_t n;
	long ms;

	CHECK_FRESH(fd);
	CHECK(write(fd, buf, SIZE) == SIZE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = later(200, NULL, 100);
	n = write(fd, "0123456789", 10);
	ms = ms_since(&t0);
	reap(child);
	CHECK(n == 10);
	CHECK(ms >= 100); /* it waited for the reader */
	CHECK(ioctl(fd, SCULLP_IOCGCOUNT, &count) == 0 && count == SIZE - 100 + 10);
	close(fd);
}

static void t_signal_interrupts(void)
{
	char buf[8];
	int fd = fresh(O_RDONLY);
	pid_t child;
	ssize_t n;

	CHECK_FRESH(fd);
	usr1 = 0;
	child = fork();
	if (child == 0) {
		sleep_ms(200);
		kill(getppid(), SIGUSR1);
		_exit(0);
	}
	errno = 0;
	n = read(fd, buf, sizeof(buf));
	reap(child);
	CHECK(n == -1 && errno == EINTR && usr1);
	close(fd);
}

/* Reads n bytes in as many reads as it takes (a read may stop at the ring's end). */
static int read_all(int fd, char *buf, int n)
{
	int got = 0;
	ssize_t r;

	while (got < n && (r = read(fd, buf + got, (size_t)(n - got))) > 0)
		got += (int)r;
	return got;
}

static int write_all(int fd, const char *buf, int n)
{
	int put = 0;
	ssize_t r;

	while (put < n && (r = write(fd, buf + put, (size_t)(n - put))) > 0)
		put += (int)r;
	return put;
}

static void t_ring_wraps(void)
{
	static char out[SIZE], in[SIZE];
	int fd = fresh(O_RDWR | O_NONBLOCK);

	CHECK_FRESH(fd);
	for (int i = 0; i < SIZE; i++)
		out[i] = (char)(i * 13 + 1);
	CHECK(write_all(fd, out, 3000) == 3000);
	CHECK(read_all(fd, in, 2000) == 2000 && memcmp(in, out, 2000) == 0);
	CHECK(write_all(fd, out + 3000, 1096) == 1096 && write_all(fd, out, 2000) == 2000);
	CHECK(read_all(fd, in, 3096) == 3096);
	CHECK(memcmp(in, out + 2000, 2096) == 0 && memcmp(in + 2096, out, 1000) == 0);
	close(fd);
}

static void t_poll_out_blocks(void)
{
	static char buf[SIZE];
	struct timespec t0;
	int fd = fresh(O_WRONLY);
	struct pollfd p = { fd, POLLOUT, 0 };
	pid_t child;
	long ms;
	int r;

	CHECK_FRESH(fd);
	CHECK(write(fd, buf, SIZE) == SIZE);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = later(200, NULL, 10);
	r = poll(&p, 1, 5000);
	ms = ms_since(&t0);
	reap(child);
	CHECK(r == 1 && p.revents == POLLOUT);
	CHECK(ms >= 100);
	close(fd);
}

static const struct test tests[] = {
	{ "ioctl_size", t_ioctl_size },
	{ "ioctl_count", t_ioctl_count },
	{ "ioctl_set_size", t_ioctl_set_size },
	{ "ioctl_unknown", t_ioctl_unknown },
	{ "ioctl_efault", t_ioctl_efault },
	{ "fifo_order", t_fifo_order },
	{ "nonblock_empty", t_nonblock_empty },
	{ "nonblock_full", t_nonblock_full },
	{ "poll_mask", t_poll_mask },
	{ "poll_blocks", t_poll_blocks },
	{ "blocking_read", t_blocking_read },
	{ "blocking_write", t_blocking_write },
	{ "signal_interrupts", t_signal_interrupts },
	{ "ring_wraps", t_ring_wraps },
	{ "poll_out_blocks", t_poll_out_blocks },
};

static void on_signal(int sig)
{
	if (sig == SIGUSR2)
		watchdog_fired = 1;
	else
		usr1 = 1;
}

/* A process that sends SIGUSR2 to its parent after 3 s, unless killed first. */
static pid_t watchdog(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		sleep_ms(3000);
		kill(getppid(), SIGUSR2);
		_exit(0);
	}
	return pid;
}

static pid_t dog;

static void start_watchdog(void)
{
	watchdog_fired = 0;
	dog = watchdog();
}

/* The watchdog ended; a test it cut short says so. */
static void stop_watchdog(void)
{
	size_t n = strlen(why);

	reap(dog);
	if (n && watchdog_fired)
		snprintf(why + n, sizeof(why) - n, " after 3 s (the watchdog's SIGUSR2)");
}

int main(int argc, char **argv)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal; /* no SA_RESTART: a waiting call returns EINTR */
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	test_before = start_watchdog;
	test_after = stop_watchdog;
	return RUN_TESTS("scullptest", tests, 1, argc, argv);
}
