/*
 * aiotests.c: O_DIRECT and Linux's native AIO system calls (io_setup,
 * io_submit, io_getevents, io_cancel, io_destroy) on a block device, each
 * test with the result Linux gives, in usertests' style. It writes over
 * the first 8 MiB of the disk: give it a scratch disk.
 *
 *   aiotests DEV [NAME...]    all tests, or those named; "ok NAME" or
 *                             "FAIL NAME: why", then "aiotests: N passed, N failed"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TEST_BRIEF /* reasons as "COND (errno N)" */
#include "test.h"

static const char *dev;
static unsigned int seed; /* this run's pattern: data from an earlier run does not pass */

#define AREA (8u << 20) /* the bytes of the disk the tests write */
#define MAX_DEPTH 32
#define KERNEL_ADDR 0xc0000000ul /* i386's kernel half; unmapped for an i386 program on amd64 too */

static long io_setup(unsigned int nr, aio_context_t *ctx) { return syscall(SYS_io_setup, nr, ctx); }
static long io_destroy(aio_context_t ctx) { return syscall(SYS_io_destroy, ctx); }
static long io_submit(aio_context_t ctx, long nr, struct iocb **cbs)
{
	return syscall(SYS_io_submit, ctx, nr, cbs);
}
static long io_getevents(aio_context_t ctx, long min, long nr, struct io_event *ev, struct timespec *t)
{
	return syscall(SYS_io_getevents, ctx, min, nr, ev, t);
}

/* The 32-bit word at byte offset off of the disk, in this run's pattern. */
static unsigned int pattern(unsigned long long off) { return (unsigned int)(off / 4) * 2654435761u ^ seed; }

static void fill(unsigned int *buf, size_t len, unsigned long long off)
{
	for (size_t i = 0; i < len / 4; i++)
		buf[i] = pattern(off + i * 4);
}

static bool matches(const unsigned int *buf, size_t len, unsigned long long off)
{
	for (size_t i = 0; i < len / 4; i++)
		if (buf[i] != pattern(off + i * 4))
			return false;
	return true;
}

static void *aligned(size_t len)
{
	void *p = NULL;

	return posix_memalign(&p, 4096, len) ? NULL : p;
}

static void prep(struct iocb *cb, int op, int fd, void *buf, size_t len, long long off)
{
	memset(cb, 0, sizeof(*cb));
	cb->aio_lio_opcode = (unsigned short)op;
	cb->aio_fildes = (unsigned int)fd;
	cb->aio_buf = (unsigned long)buf;
	cb->aio_nbytes = len;
	cb->aio_offset = off;
	cb->aio_data = (unsigned long)cb;
}

/* One request through a context of its own: the event's res, or -1000 - errno of a call. */
static long long one(int fd, int op, void *buf, size_t len, long long off)
{
	aio_context_t ctx = 0;
	struct iocb cb, *p = &cb;
	struct io_event ev;
	long long res;

	if (io_setup(1, &ctx))
		return -1000 - errno;
	prep(&cb, op, fd, buf, len, off);
	if (io_submit(ctx, 1, &p) != 1)
		res = -1000 - errno;
	else if (io_getevents(ctx, 1, 1, &ev, NULL) != 1)
		res = -2000 - errno;
	else
		res = ev.res;
	io_destroy(ctx);
	return res;
}

/* ---- io_setup and the context ---- */

static void setup_errors(void)
{
	aio_context_t ctx = 0, big = 0, more = 0;

	CHECK(io_setup(1, NULL) == -1 && errno == EFAULT);
	CHECK(io_setup(1, (aio_context_t *)KERNEL_ADDR) == -1 && errno == EFAULT);
	CHECK(io_setup(0, &ctx) == -1 && errno == EINVAL);
	CHECK(io_setup(-1u, &ctx) == -1 && errno == EINVAL);
	ctx = 1;
	CHECK(io_setup(1, &ctx) == -1 && errno == EINVAL); /* *ctxp must be 0 */
	ctx = 0;
	CHECK(io_setup(65537, &ctx) == -1 && errno == EAGAIN); /* past aio-max-nr */
	CHECK(io_setup(65536, &big) == 0 && big != 0);
	CHECK(io_setup(1, &more) == -1 && errno == EAGAIN); /* every event reserved */
	CHECK(io_destroy(big) == 0);
	CHECK(io_setup(1, &more) == 0 && io_destroy(more) == 0);
	CHECK(io_destroy(big) == -1 && errno == EINVAL); /* gone */
	CHECK(io_destroy(0) == -1 && errno == EINVAL);
}

static void bad_context(void)
{
	struct io_event ev;
	struct iocb cb, *p = &cb;
	aio_context_t ctx = 0;

	prep(&cb, IOCB_CMD_PREAD, 0, NULL, 0, 0);
	CHECK(io_submit(12345, 1, &p) == -1 && errno == EINVAL);
	CHECK(io_getevents(12345, 0, 1, &ev, NULL) == -1 && errno == EINVAL);
	CHECK(syscall(SYS_io_cancel, 12345, &cb, &ev) == -1 && errno == EINVAL);
	CHECK(io_setup(4, &ctx) == 0);
	CHECK(io_submit(ctx, -1, &p) == -1 && errno == EINVAL);
	CHECK(io_getevents(ctx, 2, 1, &ev, NULL) == -1 && errno == EINVAL); /* min_nr > nr */
	CHECK(io_getevents(ctx, -1, 1, &ev, NULL) == -1 && errno == EINVAL);
	CHECK(io_submit(ctx, 0, &p) == 0);
	CHECK(io_getevents(ctx, 0, 1, &ev, NULL) == 0); /* nothing done: at once */
	CHECK(io_destroy(ctx) == 0);
}

/* Nothing done: a zero timeout returns 0 at once, a 20 ms one after waiting it out. */
static void getevents_timeout(void)
{
	struct timespec zero = { 0, 0 }, t = { 0, 20000000 }, a, b;
	aio_context_t ctx = 0;
	struct io_event ev;

	CHECK(io_setup(1, &ctx) == 0);
	CHECK(io_getevents(ctx, 1, 1, &ev, &zero) == 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	CHECK(io_getevents(ctx, 1, 1, &ev, &t) == 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	CHECK((b.tv_sec - a.tv_sec) * 1000000000LL + b.tv_nsec - a.tv_nsec >= 19000000);
	CHECK(io_destroy(ctx) == 0);
}

/* ---- io_submit's errors ---- */

static void submit_errors(void)
{
	int fd = open(dev, O_RDONLY | O_DIRECT), wr = open(dev, O_WRONLY | O_DIRECT);
	char *buf = aligned(4096);
	struct iocb cb, *p = &cb, *bad = (struct iocb *)KERNEL_ADDR;
	aio_context_t ctx = 0;

	CHECK(fd >= 0 && wr >= 0 && buf && io_setup(4, &ctx) == 0);
	prep(&cb, IOCB_CMD_PREAD, 1000, buf, 4096, 0);
	CHECK(io_submit(ctx, 1, &p) == -1 && errno == EBADF);
	prep(&cb, IOCB_CMD_PREAD, wr, buf, 4096, 0); /* not open for reading */
	CHECK(io_submit(ctx, 1, &p) == -1 && errno == EBADF);
	prep(&cb, IOCB_CMD_PWRITE, fd, buf, 4096, 0); /* not open for writing */
	CHECK(io_submit(ctx, 1, &p) == -1 && errno == EBADF);
	CHECK(io_submit(ctx, 1, NULL) == -1 && errno == EFAULT);
	CHECK(io_submit(ctx, 1, &bad) == -1 && errno == EFAULT);
	prep(&cb, 99, fd, buf, 4096, 0);
	CHECK(io_submit(ctx, 1, &p) == -1 && errno == EINVAL);
	prep(&cb, IOCB_CMD_PREAD, fd, buf, 4096, 0);
	cb.aio_reserved2 = 1;
	CHECK(io_submit(ctx, 1, &p) == -1 && errno == EINVAL);
	CHECK(io_destroy(ctx) == 0);
	close(fd);
	close(wr);
	free(buf);
}

/* A full context refuses more (EAGAIN); io_getevents into a bad pointer is EFAULT, the events kept. */
static void full_and_efault(void)
{
	int fd = open(dev, O_RDONLY | O_DIRECT);
	char *buf = aligned(4 * 4096);
	struct iocb cb[5], *p[5];
	struct io_event ev[5];
	aio_context_t ctx = 0;
	long got = 0;

	CHECK(fd >= 0 && buf && io_setup(1, &ctx) == 0);
	for (int i = 0; i < 5; i++) {
		prep(&cb[i], IOCB_CMD_PREAD, fd, buf + (i % 4) * 4096, 4096, i * 4096);
		p[i] = &cb[i];
	}
	/* Linux's ring has room for more than nr_events (at least twice): fill it, then one more. */
	for (int i = 0; i < 100000 && syscall(SYS_io_submit, ctx, 1L, p) == 1; i++)
		got++;
	CHECK(got >= 1 && errno == EAGAIN);
	CHECK(io_getevents(ctx, 1, 1, (struct io_event *)KERNEL_ADDR, NULL) == -1 && errno == EFAULT);
	while (got > 0) {
		long n = io_getevents(ctx, 1, 5, ev, NULL);

		CHECK(n >= 1);
		for (long i = 0; i < n; i++)
			CHECK(ev[i].res == 4096 && ev[i].obj == (unsigned long)&cb[0]);
		got -= n;
	}
	CHECK(io_destroy(ctx) == 0);
	close(fd);
	free(buf);
}

/*
 * A buffer in user space but unmapped: the request is taken and its event
 * carries EFAULT (Linux finds out when it pins the pages; Kobold when it
 * copies), and nothing is written.
 */
static void unmapped_buffer(void)
{
	int fd = open(dev, O_RDWR | O_DIRECT);
	void *volatile page1 = (void *)4096; /* below any static program: never mapped */
	unsigned int *buf = aligned(4096);

	CHECK(fd >= 0 && buf);
	fill(buf, 4096, 0);
	CHECK(pwrite(fd, buf, 4096, 0) == 4096);
	CHECK(one(fd, IOCB_CMD_PREAD, page1, 4096, 0) == -EFAULT);
	CHECK(one(fd, IOCB_CMD_PWRITE, page1, 4096, 0) == -EFAULT);
	memset(buf, 0, 4096);
	CHECK(pread(fd, buf, 4096, 0) == 4096 && matches(buf, 4096, 0));
	close(fd);
	free(buf);
}

static void cancel_block_io(void)
{
	aio_context_t ctx = 0;
	struct iocb cb;
	struct io_event ev;

	CHECK(io_setup(1, &ctx) == 0);
	memset(&cb, 0, sizeof(cb));
	CHECK(syscall(SYS_io_cancel, ctx, &cb, &ev) == -1 && errno == EINVAL); /* not in flight */
	CHECK(syscall(SYS_io_cancel, ctx, (struct iocb *)KERNEL_ADDR, &ev) == -1 && errno == EFAULT);
	CHECK(io_destroy(ctx) == 0);
}

/* ---- O_DIRECT ---- */

static void direct_alignment(void)
{
	int fd = open(dev, O_RDWR | O_DIRECT);
	char *buf = aligned(8192);

	CHECK(fd >= 0 && buf);
	CHECK(read(fd, buf + 1, 4096) == -1 && errno == EINVAL);   /* buffer */
	CHECK(read(fd, buf, 100) == -1 && errno == EINVAL);	   /* length */
	CHECK(pread(fd, buf, 4096, 100) == -1 && errno == EINVAL); /* offset */
	CHECK(write(fd, buf + 256, 512) == -1 && errno == EINVAL);
	CHECK(read(fd, (char *)KERNEL_ADDR, 4096) == -1 && errno == EFAULT);
	CHECK(pread(fd, buf + 512, 512, 512) == 512); /* the logical block size is enough */
	/* Through AIO the request is taken and its event carries EINVAL, as Linux. */
	CHECK(one(fd, IOCB_CMD_PREAD, buf + 1, 4096, 0) == -EINVAL);
	CHECK(one(fd, IOCB_CMD_PREAD, buf, 4096, 100) == -EINVAL);
	CHECK(one(fd, IOCB_CMD_PWRITE, buf, 100, 0) == -EINVAL);
	CHECK(one(fd, IOCB_CMD_PREAD, buf, 512, 512) == 512);
	close(fd);
	free(buf);
}

static void direct_only_on_block_devices(void)
{
	CHECK(open("/dev/null", O_RDONLY | O_DIRECT) == -1 && errno == EINVAL);
	CHECK(open("/proc/self/stat", O_RDONLY | O_DIRECT) == -1 && errno == EINVAL);
}

/* write(2) and read(2) with O_DIRECT: a megabyte at once, back as written. */
static void direct_read_write(void)
{
	int fd = open(dev, O_RDWR | O_DIRECT);
	unsigned int *buf = aligned(1 << 20);

	CHECK(fd >= 0 && buf);
	fill(buf, 1 << 20, 1 << 20);
	CHECK(pwrite(fd, buf, 1 << 20, 1 << 20) == 1 << 20);
	memset(buf, 0, 1 << 20);
	CHECK(lseek(fd, 1 << 20, SEEK_SET) == 1 << 20);
	CHECK(read(fd, buf, 1 << 20) == 1 << 20);
	CHECK(matches(buf, 1 << 20, 1 << 20));
	close(fd);
	free(buf);
}

/* ---- data at every depth ---- */

/*
 * Reads len bytes a request from the area at depth in flight (seq: the
 * first 256 blocks, or all; rand: 64 offsets), checking each against the
 * pattern: "" or what went wrong.
 */
static const char *read_depth(int fd, size_t len, int depth, bool rnd)
{
	unsigned int blocks = AREA / len, count = rnd ? 64 : blocks > 256 ? 256
									  : blocks,
		     next = 0, done = 0;
	struct iocb cb[MAX_DEPTH], *batch[MAX_DEPTH], *free_cb[MAX_DEPTH];
	struct io_event ev[MAX_DEPTH];
	unsigned int r = 7, nfree = 0;
	aio_context_t ctx = 0;
	const char *wrong = "";

	if (io_setup((unsigned int)depth, &ctx))
		return "io_setup";
	for (int i = 0; i < depth; i++) {
		if (!(cb[i].aio_buf = (unsigned long)aligned(len)))
			return "memory";
		free_cb[nfree++] = &cb[i];
	}
	while (done < count && !*wrong) {
		int n = 0;

		while (nfree && next < count) {
			struct iocb *c = free_cb[--nfree];
			unsigned long long off = (rnd ? (r = r * 1103515245u + 12345u) >> 8 : next) % blocks * len;
			void *b = (void *)(unsigned long)c->aio_buf;

			memset(b, 0, len);
			prep(c, IOCB_CMD_PREAD, fd, b, len, (long long)off);
			batch[n++] = c;
			next++;
		}
		if (n && io_submit(ctx, n, batch) != n)
			wrong = "io_submit";
		long got = *wrong ? 0 : io_getevents(ctx, 1, depth, ev, NULL);
		for (long i = 0; i < got; i++) {
			struct iocb *c = (struct iocb *)(unsigned long)ev[i].data;

			if (ev[i].res != (long long)len)
				wrong = "short or failed read";
			else if (!matches((void *)(unsigned long)c->aio_buf, len, (unsigned long long)c->aio_offset))
				wrong = "data differs from what was written";
			free_cb[nfree++] = c;
		}
		if (got < 0)
			wrong = "io_getevents";
		done += got > 0 ? (unsigned int)got : 0;
	}
	io_destroy(ctx);
	for (int i = 0; i < depth; i++)
		free((void *)(unsigned long)cb[i].aio_buf);
	return wrong;
}

/* The area written through AIO at depth 32 in 64 KiB requests, with this run's pattern. */
static void write_depth_32(void)
{
	int fd = open(dev, O_RDWR | O_DIRECT);
	struct iocb cb[MAX_DEPTH], *p[MAX_DEPTH];
	struct io_event ev[MAX_DEPTH];
	const size_t len = 65536;
	aio_context_t ctx = 0;

	CHECK(fd >= 0 && io_setup(MAX_DEPTH, &ctx) == 0);
	for (int i = 0; i < MAX_DEPTH; i++)
		CHECK((cb[i].aio_buf = (unsigned long)aligned(len)));
	for (unsigned int off = 0; off < AREA; off += MAX_DEPTH * len) {
		for (int i = 0; i < MAX_DEPTH; i++) {
			void *b = (void *)(unsigned long)cb[i].aio_buf;

			fill(b, len, off + i * len);
			prep(&cb[i], IOCB_CMD_PWRITE, fd, b, len, off + i * len);
			p[i] = &cb[i];
		}
		CHECK(io_submit(ctx, MAX_DEPTH, p) == MAX_DEPTH);
		for (int got = 0; got < MAX_DEPTH;) {
			long n = io_getevents(ctx, 1, MAX_DEPTH, ev, NULL);

			CHECK(n >= 1);
			for (long i = 0; i < n; i++)
				CHECK(ev[i].res == (long long)len);
			got += (int)n;
		}
	}
	CHECK(io_destroy(ctx) == 0);
	close(fd);
}

static void read_every_depth(void)
{
	static const size_t sizes[] = { 4096, 65536, 1 << 20 };
	static const int depths[] = { 1, 4, 16, 32 };
	int fd = open(dev, O_RDONLY | O_DIRECT);

	CHECK(fd >= 0);
	for (int s = 0; s < 3; s++)
		for (int d = 0; d < 4; d++)
			for (int rnd = 0; rnd < 2; rnd++) {
				const char *w = read_depth(fd, sizes[s], depths[d], rnd);

				if (*w) {
					snprintf(why, sizeof(why), "%zu bytes, depth %d, %s: %s", sizes[s],
						 depths[d], rnd ? "rand" : "seq", w);
					close(fd);
					return;
				}
			}
	close(fd);
}

/* ---- nothing left behind ---- */

/* Requests in flight at exit and a context never destroyed: exit_aio's to end. */
static void exit_with_requests_in_flight(void)
{
	pid_t pid = fork();
	int status;

	CHECK(pid >= 0);
	if (pid == 0) {
		int fd = open(dev, O_RDONLY | O_DIRECT);
		struct iocb cb[MAX_DEPTH], *p[MAX_DEPTH];
		aio_context_t ctx = 0;
		char *buf = aligned(MAX_DEPTH * 65536);

		if (fd < 0 || !buf || io_setup(MAX_DEPTH, &ctx))
			_exit(1);
		for (int i = 0; i < MAX_DEPTH; i++) {
			prep(&cb[i], IOCB_CMD_PREAD, fd, buf + i * 65536, 65536, i * 65536);
			p[i] = &cb[i];
		}
		_exit(io_submit(ctx, MAX_DEPTH, p) == MAX_DEPTH ? 0 : 2);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* Events never reaped, then io_destroy: their buffers go with the context. */
static void destroy_with_events_unreaped(void)
{
	int fd = open(dev, O_RDONLY | O_DIRECT);
	struct iocb cb[8], *p[8];
	char *buf = aligned(8 * 4096);
	aio_context_t ctx = 0;

	CHECK(fd >= 0 && buf && io_setup(8, &ctx) == 0);
	for (int i = 0; i < 8; i++) {
		prep(&cb[i], IOCB_CMD_PREAD, fd, buf + i * 4096, 4096, i * 4096);
		p[i] = &cb[i];
	}
	CHECK(io_submit(ctx, 8, p) == 8);
	CHECK(io_destroy(ctx) == 0);
	close(fd);
	free(buf);
}

static const struct test tests[] = {
	{ "setup_errors", setup_errors },
	{ "bad_context", bad_context },
	{ "getevents_timeout", getevents_timeout },
	{ "submit_errors", submit_errors },
	{ "full_and_efault", full_and_efault },
	{ "unmapped_buffer", unmapped_buffer },
	{ "cancel_block_io", cancel_block_io },
	{ "direct_alignment", direct_alignment },
	{ "direct_only_on_block_devices", direct_only_on_block_devices },
	{ "direct_read_write", direct_read_write },
	{ "write_depth_32", write_depth_32 },
	{ "read_every_depth", read_every_depth },
	{ "exit_with_requests_in_flight", exit_with_requests_in_flight },
	{ "destroy_with_events_unreaped", destroy_with_events_unreaped },
};

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: aiotests DEV [NAME...] (writes over DEV's first 8 MiB)\n");
		return 2;
	}
	dev = argv[1];
	seed = (unsigned int)getpid() * 2246822519u ^ (unsigned int)time(NULL);
	return RUN_TESTS("aiotests", tests, 2, argc, argv);
}
