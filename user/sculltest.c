/*
 * sculltest.c: lab 20's driver test, run by labs/lab20/check.py: /dev/scull
 * through read, write, lseek, pread and pwrite, with Linux's results for a
 * 4096-byte buffer device (docs/labs/lab20-scull.md). One line a test:
 * "ok NAME" or "FAIL NAME: what happened". `sculltest NAME...` runs some.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define DEV "/dev/scull"
#define SIZE 4096
#define KERNEL_ADDR ((void *)0xC0100000) /* above TASK_SIZE: the kernel's */

static char why[256];
static void *unmapped; /* a user page that is not mapped */

#define CHECK(cond)                                                                               \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			snprintf(why, sizeof(why), "line %d: %s (errno %d, %s)", __LINE__, #cond, \
				 errno, strerror(errno));                                         \
			return 0;                                                                 \
		}                                                                                 \
	} while (0)

/* /dev/scull opened with flags, after it was emptied and given text (NULL: left as it is). */
static int fresh(const char *text, int flags)
{
	int fd;

	if (text) {
		fd = open(DEV, O_WRONLY | O_TRUNC);
		if (fd < 0)
			return -1;
		if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
			close(fd);
			return -1;
		}
		close(fd);
	}
	return open(DEV, flags);
}

static int read_back(int fd, off_t at, char *buf, size_t n)
{
	return pread(fd, buf, n, at) == (ssize_t)n;
}

static int t_write_read(void)
{
	char buf[64] = { 0 };
	int fd = fresh("", O_RDWR);

	CHECK(fd >= 0);
	CHECK(write(fd, "hello, scull", 12) == 12);
	CHECK(lseek(fd, 0, SEEK_CUR) == 12);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 12);
	CHECK(memcmp(buf, "hello, scull", 12) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	close(fd);
	return 1;
}

static int t_reads_follow_the_offset(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK(fd >= 0);
	CHECK(read(fd, buf, 5) == 5 && memcmp(buf, "hello", 5) == 0);
	CHECK(read(fd, buf, 2) == 2 && memcmp(buf, ", ", 2) == 0);
	CHECK(read(fd, buf, 5) == 5 && memcmp(buf, "scull", 5) == 0);
	close(fd);
	return 1;
}

static int t_lseek(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK(fd >= 0);
	CHECK(lseek(fd, 7, SEEK_SET) == 7);
	CHECK(read(fd, buf, 5) == 5 && memcmp(buf, "scull", 5) == 0);
	CHECK(lseek(fd, -5, SEEK_CUR) == 7);
	CHECK(lseek(fd, 0, SEEK_END) == 12);
	CHECK(lseek(fd, -4, SEEK_END) == 8);
	CHECK(read(fd, buf, 16) == 4 && memcmp(buf, "cull", 4) == 0);
	CHECK(lseek(fd, 100, SEEK_SET) == 100); /* past the end: allowed, reads 0 */
	CHECK(read(fd, buf, 16) == 0);
	close(fd);
	return 1;
}

static int t_lseek_refuses(void)
{
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK(fd >= 0);
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
	return 1;
}

static int t_pread_pwrite(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDWR);

	CHECK(fd >= 0);
	CHECK(pread(fd, buf, 4, 2) == 4 && memcmp(buf, "llo,", 4) == 0);
	CHECK(pwrite(fd, "XY", 2, 3) == 2);
	CHECK(read_back(fd, 0, buf, 12) && memcmp(buf, "helXY, scull", 12) == 0);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0); /* pread and pwrite leave the offset */
	close(fd);
	return 1;
}

static int t_short_read_at_end(void)
{
	char buf[100];
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK(fd >= 0);
	CHECK(lseek(fd, -3, SEEK_END) == 9);
	CHECK(read(fd, buf, sizeof(buf)) == 3 && memcmp(buf, "ull", 3) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	CHECK(read(fd, buf, sizeof(buf)) == 0);
	close(fd);
	return 1;
}

static int t_whole_buffer(void)
{
	static char out[SIZE], in[SIZE + 512]; /* room for the last read's 1500 */
	int fd = fresh("", O_RDWR);

	CHECK(fd >= 0);
	for (int i = 0; i < SIZE; i++)
		out[i] = (char)(i * 7 + 3);
	CHECK(write(fd, out, SIZE) == SIZE);
	CHECK(lseek(fd, 0, SEEK_SET) == 0);
	CHECK(read(fd, in, 1500) == 1500);
	CHECK(read(fd, in + 1500, 1500) == 1500);
	CHECK(read(fd, in + 3000, 1500) == SIZE - 3000);
	CHECK(memcmp(in, out, SIZE) == 0);
	close(fd);
	return 1;
}

static int t_full(void)
{
	char buf[10] = "0123456789";
	int fd = fresh("", O_RDWR);

	CHECK(fd >= 0);
	CHECK(lseek(fd, SIZE - 6, SEEK_SET) == SIZE - 6);
	CHECK(write(fd, buf, 10) == 6); /* what fits */
	errno = 0;
	CHECK(write(fd, buf, 10) == -1 && errno == ENOSPC);
	CHECK(lseek(fd, SIZE + 10, SEEK_SET) == SIZE + 10);
	errno = 0;
	CHECK(write(fd, buf, 1) == -1 && errno == ENOSPC);
	CHECK(lseek(fd, 0, SEEK_END) == SIZE);
	close(fd);
	return 1;
}

static int t_efault_read(void)
{
	int fd = fresh("hello, scull", O_RDONLY);

	CHECK(fd >= 0);
	CHECK(lseek(fd, 2, SEEK_SET) == 2);
	errno = 0;
	CHECK(read(fd, KERNEL_ADDR, 4) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(read(fd, unmapped, 4) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(pread(fd, unmapped, 4, 0) == -1 && errno == EFAULT);
	CHECK(lseek(fd, 0, SEEK_CUR) == 2); /* nothing was read */
	close(fd);
	return 1;
}

static int t_efault_write(void)
{
	char buf[16] = { 0 };
	int fd = fresh("hello, scull", O_RDWR);

	CHECK(fd >= 0);
	errno = 0;
	CHECK(write(fd, KERNEL_ADDR, 4) == -1 && errno == EFAULT);
	errno = 0;
	CHECK(write(fd, unmapped, 4) == -1 && errno == EFAULT);
	CHECK(lseek(fd, 0, SEEK_CUR) == 0);
	CHECK(lseek(fd, 0, SEEK_END) == 12); /* the size is unchanged */
	CHECK(read_back(fd, 0, buf, 12) && memcmp(buf, "hello, scull", 12) == 0);
	close(fd);
	return 1;
}

static int t_kept_between_opens(void)
{
	char a[8] = { 0 }, b[8] = { 0 };
	int fd = fresh("persistent", O_RDONLY), fd2 = open(DEV, O_RDONLY);

	CHECK(fd >= 0 && fd2 >= 0);
	CHECK(read(fd, a, 4) == 4 && memcmp(a, "pers", 4) == 0);
	CHECK(read(fd2, b, 2) == 2 && memcmp(b, "pe", 2) == 0); /* an offset per open file */
	CHECK(read(fd, a, 3) == 3 && memcmp(a, "ist", 3) == 0);
	close(fd);
	close(fd2);
	return 1;
}

static int t_o_trunc_empties(void)
{
	int fd = fresh("something", O_RDONLY), w;

	CHECK(fd >= 0);
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
	return 1;
}

static const struct {
	const char *name;
	int (*fn)(void);
} tests[] = {
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

static int wanted(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0;

	setvbuf(stdout, NULL, _IONBF, 0); /* each line out before a test that may crash the kernel */
	unmapped = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || munmap(unmapped, 4096)) {
		perror("sculltest: mmap");
		return 2;
	}
	for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		if (!wanted(tests[i].name, argc, argv))
			continue;
		why[0] = 0;
		if (tests[i].fn()) {
			printf("ok %s\n", tests[i].name);
			passed++;
		} else {
			printf("FAIL %s: %s\n", tests[i].name, why);
			failed++;
		}
	}
	printf("sculltest: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
