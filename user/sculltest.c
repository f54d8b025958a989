/*
 * sculltest.c: lab 20's driver test, run by labs/lab20/check.py: /dev/scull
 * through read, write, lseek, pread and pwrite, with Linux's results for a
 * 4096-byte buffer device (docs/labs/lab20-scull.md). One line a test:
 * "ok NAME" or "FAIL NAME: what happened". `sculltest NAME...` runs some.
 */
#define _GNU_SOURCE /* strerrorname_np */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "test.h"

#define DEV "/dev/scull"
#define SIZE 4096
#define KERNEL_ADDR ((void *)0xC0100000) /* above TASK_SIZE: the kernel's */

static void *unmapped; /* a user page that is not mapped */

/* fresh()'s step that failed, as the test's reason ("fresh: STEP: ENOSPC"): -1. */
static int fresh_failed(const char *step)
{
	const char *name = strerrorname_np(errno);

	snprintf(why, sizeof(why), "fresh: %s: %s", step, name ? name : strerror(errno));
	return -1;
}

/*
 * /dev/scull opened with flags, after it was emptied and given text (NULL:
 * left as it is); -1 with the failed step in why (CHECK_FRESH ends the test).
 */
static int fresh(const char *text, int flags)
{
	char step[64];
	ssize_t n;
	int fd;

	if (text) {
		fd = open(DEV, O_WRONLY | O_TRUNC);
		if (fd < 0)
			return fresh_failed("open O_WRONLY | O_TRUNC");
		snprintf(step, sizeof(step), "write of %zu bytes", strlen(text));
		n = write(fd, text, strlen(text));
		if (n != (ssize_t)strlen(text)) {
			if (n < 0)
				fresh_failed(step);
			else
				snprintf(why, sizeof(why), "fresh: %s: %zd written", step, n);
			close(fd);
			return -1;
		}
		close(fd);
	}
	fd = open(DEV, flags);
	return fd < 0 ? fresh_failed("open") : fd;
}

/* Ends the test if fresh() failed: why already names its step. */
#define CHECK_FRESH(fd)         \
	do {                    \
		if ((fd) < 0)   \
			return; \
	} while (0)

static int read_back(int fd, off_t at, char *buf, size_t n)
{
	return pread(fd, buf, n, at) == (ssize_t)n;
}

static void t_write_read(void)
{
	char buf[64] = { 0 };
	int fd = fresh("", O_RDWR);

	CHECK_FRESH(fd);
	CHECK(write(fd, "hello, scull", 12) == 12);
	CHECK(lseek(fd, 0, SEEK_CUR) == 12);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 12);
	CHECK(memcmp(buf, "hello, scull", 12) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	close(fd);
}

static void t_reads_follow_the_offset(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK_FRESH(fd);
	CHECK(read(fd, buf, 5) == 5 && memcmp(buf, "hello", 5) == 0);
	CHECK(read(fd, buf, 2) == 2 && memcmp(buf, ", ", 2) == 0);
	CHECK(read(fd, buf, 5) == 5 && memcmp(buf, "scull", 5) == 0);
	close(fd);
}

static void t_lseek(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK_FRESH(fd);
	CHECK(lseek(fd, 7, SEEK_SET) == 7);
	CHECK(read(fd, buf, 5) == 5 && memcmp(buf, "scull", 5) == 0);
	CHECK(lseek(fd, -5, SEEK_CUR) == 7);
	CHECK(lseek(fd, 0, SEEK_END) == 12);
	CHECK(lseek(fd, -4, SEEK_END) == 8);
	CHECK(read(fd, buf, 16) == 4 && memcmp(buf, "cull", 4) == 0);
	CHECK(lseek(fd, 100, SEEK_SET) == 100); /* past the end: allowed, reads 0 */
	CHECK(read(fd, buf, 16) == 0);
	close(fd);
}

static void t_lseek_refuses(void)
{
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK_FRESH(fd);
	CHECK(lseek(fd, 3, SEEK_SET) == 3);
	errno = 0;
	CHECK(lseek(fd, -1, SEEK_SET) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(lseek(fd, -4, SEEK_CUR) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(lseek(fd, -13, SEEK_END) == -1 && errno == EINVAL);
	errno = 0;
	CHECK(lseek(fd, 0, 7) == -1 && errno == EINVAL);
	CHECK(lseek(fd, 0, SEEK_CUR) == 3); /* unchanged by the refused ones */
	close(fd);
}

static void t_pread_pwrite(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDWR);

	CHECK_FRESH(fd);
	CHECK(pread(fd, buf, 4, 2) == 4 && memcmp(buf, "llo,", 4) == 0);
	CHECK(pwrite(fd, "XY", 2, 3) == 2);
	CHECK(read_back(fd, 0, buf, 12) && memcmp(buf, "helXY, scull", 12) == 0);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0); /* pread and pwrite leave the offset */
	close(fd);
}

static void t_short_read_at_end(void)
{
	char buf[100];
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK_FRESH(fd);
	CHECK(lseek(fd, -3, SEEK_END) == 9);
	CHECK(read(fd, buf, sizeof(buf)) == 3 && memcmp(buf, "ull", 3) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	close(fd);
}

static void t_whole_buffer(void)
{
	static char out[SIZE], in[SIZE + 512]; /* room for the last read's 1500 */
	int fd = fresh("", O_RDWR);

	CHECK_FRESH(fd);
	for (int i = 0; i < SIZE; i++)
		out[i] = (char)(i * 7 + 3);
	CHECK(write(fd, out, SIZE) == SIZE);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, in, 1500) == 1500);
	CHECK(read(fd, in + 1500, 1500) == 1500);
	CHECK(read(fd, in + 3000, 1500) == SIZE - 3000);
	CHECK(memcmp(in, out, SIZE) == 0);
	close(fd);
}

static void t_full(void)
{
	char buf[10] = "0123456789";
	int fd = fresh("", O_RDWR);

	CHECK_FRESH(fd);
	CHECK(lseek(fd, SIZE - 6, SEEK_SET) == SIZE - 6);
	CHECK(write(fd, buf, 10) == 6); /* what fits */
	errno = 0;
	CHECK(write(fd, buf, 10) == -1 && errno == ENOSPC);
	CHECK(lseek(fd, SIZE + 10, SEEK_SET) == SIZE + 10);
	errno = 0;
	CHECK(write(fd, buf, 1) == -1 && errno == ENOSPC);
	CHECK(lseek(fd, 0, SEEK_END) == SIZE);
	close(fd);
}

static void t_efault_read(void)
{
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK_FRESH(fd);
	CHECK(lseek(fd, 2, SEEK_SET) == 2);
	errno = 0;
	CHECK(read(fd, KERNEL_ADDR, 4) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(read(fd, unmapped, 4) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(pread(fd, unmapped, 4, 0) == -1 && errno == EFAULT);
	CHECK(lseek(fd, 0, SEEK_CUR) == 2); /* nothing was read */
	close(fd);
}

static void t_efault_write(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDWR);

	CHECK_FRESH(fd);
	errno = 0;
	CHECK(write(fd, KERNEL_ADDR, 4) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(write(fd, unmapped, 4) == -1 && errno == EFAULT);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0);
	CHECK(lseek(fd, 0, SEEK_END) == 12); /* the size is unchanged */
	CHECK(read_back(fd, 0, buf, 12) && memcmp(buf, "hello, scull", 12) == 0);
	close(fd);
}

static void t_kept_between_opens(void)
{
	char a[8] = { 0 }, b[8] = { 0 };
	int fd = fresh("persistent", O_RDONLY), fd2 = open(DEV, O_RDONLY);

	CHECK_FRESH(fd);
	CHECK(fd2 >= 0);
	CHECK(read(fd, a, 4) == 4 && memcmp(a, "pers", 4) == 0);
	CHECK(read(fd2, b, 2) == 2 && memcmp(b, "pe", 2) == 0); /* an offset per open file */
	CHECK(read(fd, a, 3) == 3 && memcmp(a, "ist", 3) == 0);
	close(fd);
	close(fd2);
}

static void t_o_trunc_empties(void)
{
	int fd = fresh("something", O_RDONLY), w;

	CHECK_FRESH(fd);
	CHECK(lseek(fd, 0, SEEK_END) == 9);
	w = open(DEV, O_WRONLY | O_TRUNC);
	CHECK(w >= 0);
	CHECK(lseek(fd, 0, SEEK_END) == 0);
	close(w);
	w = open(DEV, O_WRONLY); /* no O_TRUNC: kept */
	CHECK(w >= 0 && write(w, "abc", 3) == 3);
	close(w);
	CHECK(lseek(fd, 0, SEEK_END) == 3);
	close(fd);
}

static const struct test tests[] = {
	{ "write_read", t_write_read },
	{ "reads_follow_the_offset", t_reads_follow_the_offset },
	{ "lseek", t_lseek },
	{ "lseek_refuses", t_lseek_refuses },
	{ "pread_pwrite", t_pread_pwrite },
	{ "short_read_at_end", t_short_read_at_end },
	{ "whole_buffer", t_whole_buffer },
	{ "full", t_full },
	{ "efault_read", t_efault_read },
	{ "efault_write", t_efault_write },
	{ "kept_between_opens", t_kept_between_opens },
	{ "o_trunc_empties", t_o_trunc_empties },
};

int main(int argc, char **argv)
{
	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || munmap(unmapped, 4096)) {
		perror("sculltest: mmap");
		return 2;
	}
	return RUN_TESTS("sculltest", tests, 1, argc, argv);
}
