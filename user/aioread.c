/*
 * aioread.c: one process reading a file or disk with O_DIRECT and Linux's
 * native AIO, DEPTH requests in flight, as fio's libaio engine does: the
 * anchor for make bench's depth rows. Raw system calls, no libaio, so the
 * same static i386 binary (make user) runs on Kobold, in the Linux guest
 * and on the host.
 *
 *   aioread FILE BS_KIB COUNT DEPTH seq|rand
 *
 * seq reads COUNT blocks in order from the start; rand picks block-aligned
 * offsets across the file. Each completion batch is refilled with one
 * io_submit. Prints NS=<elapsed nanoseconds>.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define MAX_DEPTH 256

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

struct reader {
	int fd, rnd;
	size_t bs;
	long count, next, blocks;
	unsigned int seed;
	struct iocb cbs[MAX_DEPTH];
	struct iocb *free[MAX_DEPTH];
	int nfree;
};

static void prepare(struct reader *r, struct iocb *cb)
{
	long block = r->rnd ? (long)(rand_r(&r->seed) % r->blocks) : r->next % r->blocks;

	cb->aio_lio_opcode = IOCB_CMD_PREAD;
	cb->aio_fildes = (unsigned int)r->fd;
	cb->aio_nbytes = r->bs;
	cb->aio_offset = (long long)block * (long long)r->bs;
	r->next++;
}

/* Submits every free iocb that still has a block to read, in one call. */
static int submit(aio_context_t ctx, struct reader *r)
{
	struct iocb *batch[MAX_DEPTH];
	int n = 0;

	while (r->nfree && r->next < r->count) {
		struct iocb *cb = r->free[--r->nfree];

		prepare(r, cb);
		batch[n++] = cb;
	}
	if (n && syscall(SYS_io_submit, ctx, (long)n, batch) != n) {
		perror("io_submit");
		return -1;
	}
	return n;
}

static int run(aio_context_t ctx, struct reader *r, int depth)
{
	struct io_event ev[MAX_DEPTH];
	long done = 0;

	if (submit(ctx, r) < 0)
		return 1;
	while (done < r->count) {
		long got = syscall(SYS_io_getevents, ctx, 1L, (long)depth, ev, NULL);

		if (got < 1) {
			perror("io_getevents");
			return 1;
		}
		for (long i = 0; i < got; i++) {
			if (ev[i].res != (long long)r->bs) {
				fprintf(stderr, "aioread: short read: %lld\n", (long long)ev[i].res);
				return 1;
			}
			r->free[r->nfree++] = (struct iocb *)(unsigned long)ev[i].obj;
		}
		done += got;
		if (submit(ctx, r) < 0)
			return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct reader r;
	aio_context_t ctx = 0;
	int depth, err;
	long long start;

	if (argc != 6 || (depth = atoi(argv[4])) < 1 || depth > MAX_DEPTH) {
		fprintf(stderr, "usage: aioread FILE BS_KIB COUNT DEPTH(1-%d) seq|rand\n", MAX_DEPTH);
		return 2;
	}
	r.bs = (size_t)atol(argv[2]) * 1024;
	r.count = atol(argv[3]);
	r.rnd = !strcmp(argv[5], "rand");
	r.seed = 12345u;
	r.fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (r.fd < 0 || (r.blocks = lseek(r.fd, 0, SEEK_END) / (off_t)r.bs) < 1) {
		perror(argv[1]);
		return 1;
	}
	for (int i = 0; i < depth; i++) {
		void *buf;

		if (posix_memalign(&buf, 4096, r.bs)) {
			perror("posix_memalign");
			return 1;
		}
		memset(&r.cbs[i], 0, sizeof(r.cbs[i]));
		r.cbs[i].aio_buf = (unsigned long)buf;
		r.cbs[i].aio_data = (unsigned long)&r.cbs[i];
		r.free[r.nfree++] = &r.cbs[i];
	}
	if (syscall(SYS_io_setup, depth, &ctx) < 0) {
		perror("io_setup");
		return 1;
	}
	start = now_ns();
	err = run(ctx, &r, depth);
	printf("NS=%lld\n", now_ns() - start);
	syscall(SYS_io_destroy, ctx);
	return err;
}
