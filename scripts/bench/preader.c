/*
 * preader.c: N processes reading a file or disk with O_DIRECT, for make
 * bench's random rows (dd cannot seek at random). The same static binary
 * runs on the host and in the Linux guest.
 *
 *   preader FILE BS_KIB COUNT READERS seq|rand
 *
 * Each reader does COUNT reads of BS_KIB: seq walks a range of its own
 * (reader i starts at i/READERS of the file), rand picks block-aligned
 * offsets across the whole file. Prints NS=<elapsed nanoseconds>.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int reader(const char *path, size_t bs, long count, int id, int nr, int rnd)
{
	int fd = open(path, O_RDONLY | O_DIRECT);
	off_t size, blocks, first;
	unsigned int seed = 12345u + (unsigned int)id * 7919u;
	void *buf;

	if (fd < 0 || posix_memalign(&buf, 4096, bs)) {
		perror(path);
		return 1;
	}
	size = lseek(fd, 0, SEEK_END);
	blocks = size / (off_t)bs;
	first = blocks / nr * id;
	for (long i = 0; i < count; i++) {
		off_t block = rnd ? (off_t)(rand_r(&seed) % blocks) : (first + i) % blocks;

		if (pread(fd, buf, bs, block * (off_t)bs) != (ssize_t)bs) {
			perror("pread");
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	long long start;
	int nr, failed = 0;

	if (argc != 6) {
		fprintf(stderr, "usage: preader FILE BS_KIB COUNT READERS seq|rand\n");
		return 2;
	}
	nr = atoi(argv[4]);
	start = now_ns();
	for (int i = 0; i < nr; i++)
		if (fork() == 0)
			_exit(reader(argv[1], (size_t)atol(argv[2]) * 1024, atol(argv[3]), i, nr,
				     !strcmp(argv[5], "rand")));
	for (int i = 0; i < nr; i++) {
		int status;

		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			failed = 1;
	}
	printf("NS=%lld\n", now_ns() - start);
	return failed;
}
