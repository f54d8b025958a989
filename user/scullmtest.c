/*
 * scullmtest.c: lab 22's driver test, run by labs/lab22/check.py:
 * /dev/scullmap mapped with mmap, written through the mapping and read
 * back through read() and the other way, shared across fork, copied by
 * MAP_PRIVATE, refused beyond its 4 pages (docs/labs/lab22-scullmap.md).
 * One line a test: "ok NAME" or "FAIL NAME: what happened".
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

#define DEV "/dev/scullmap"
#define PAGE 4096
#define SIZE (4 * PAGE)

/* The device zeroed, opened with flags. */
static int fresh(int flags)
{
	static char zero[SIZE];
	int fd = open(DEV, O_RDWR);

	if (fd < 0 || pwrite(fd, zero, SIZE, 0) != SIZE)
		return -1;
	close(fd);
	return open(DEV, flags);
}

static char *map(int fd, size_t len, int prot, int flags, off_t off)
{
	return mmap(NULL, len, prot, flags, fd, off);
}

static void t_write_map_read_file(void)
{
	char buf[16] = { 0 };
	int fd = fresh(O_RDWR);
	char *p;

	CHECK(fd >= 0);
	p = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	memcpy(p, "hello mmap", 10);
	memcpy(p + 3 * PAGE + 5, "last", 4);
	CHECK(pread(fd, buf, 10, 0) == 10 && memcmp(buf, "hello mmap", 10) == 0);
	CHECK(pread(fd, buf, 4, 3 * PAGE + 5) == 4 && memcmp(buf, "last", 4) == 0);
	CHECK(munmap(p, SIZE) == 0);
	close(fd);
}

static void t_write_file_read_map(void)
{
	int fd = fresh(O_RDWR);
	char *p;

	CHECK(fd >= 0);
	CHECK(pwrite(fd, "from write", 10, PAGE + 100) == 10);
	p = map(fd, SIZE, PROT_READ, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	CHECK(memcmp(p + PAGE + 100, "from write", 10) == 0);
	CHECK(pwrite(fd, "again", 5, PAGE + 100) == 5); /* after the page is mapped too */
	CHECK(memcmp(p + PAGE + 100, "again", 5) == 0);
	CHECK(munmap(p, SIZE) == 0);
	close(fd);
}

static void t_offset(void)
{
	char buf[8] = { 0 };
	int fd = fresh(O_RDWR);
	char *p;

	CHECK(fd >= 0);
	p = map(fd, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, 2 * PAGE); /* the third page */
	CHECK(p != MAP_FAILED);
	memcpy(p + 7, "third", 5);
	CHECK(pread(fd, buf, 5, 2 * PAGE + 7) == 5 && memcmp(buf, "third", 5) == 0);
	CHECK(munmap(p, PAGE) == 0);
	close(fd);
}

static void t_two_mappings(void)
{
	int fd = fresh(O_RDWR);
	char *a, *b;

	CHECK(fd >= 0);
	a = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	b = map(fd, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, PAGE);
	CHECK(a != MAP_FAILED && b != MAP_FAILED && a != b);
	memcpy(a + PAGE + 1, "one", 3);
	CHECK(memcmp(b + 1, "one", 3) == 0);
	memcpy(b + PAGE + 2, "two", 3);
	CHECK(memcmp(a + 2 * PAGE + 2, "two", 3) == 0);
	CHECK(munmap(a, SIZE) == 0 && munmap(b, 2 * PAGE) == 0);
	close(fd);
}

static void t_maps_line(void)
{
	char line[256], want[32];
	int fd = fresh(O_RDWR), found = 0;
	FILE *maps;
	char *p;

	CHECK(fd >= 0);
	p = map(fd, 2 * PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, PAGE);
	CHECK(p != MAP_FAILED);
	snprintf(want, sizeof(want), "%08lx-%08lx rw-s 00001000", (unsigned long)p,
		 (unsigned long)p + 2 * PAGE);
	maps = fopen("/proc/self/maps", "r");
	CHECK(maps != NULL);
	while (fgets(line, sizeof(line), maps))
		if (strncmp(line, want, strlen(want)) == 0 && strstr(line, " " DEV "\n"))
			found = 1;
	fclose(maps);
	CHECK(found); /* the mapping, shared, at the file's offset, named by the file */
	CHECK(munmap(p, 2 * PAGE) == 0);
	close(fd);
}

static void t_fork_shares(void)
{
	int fd = fresh(O_RDWR), status;
	char *p;
	pid_t pid;

	CHECK(fd >= 0);
	p = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	p[0] = 'P';
	pid = fork();
	if (pid == 0) {
		p[1] = 'C'; /* the same page, not a copy */
		_exit(p[0] == 'P' ? 0 : 1);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK(p[1] == 'C');
	CHECK(munmap(p, SIZE) == 0);
	close(fd);
}

static void t_private_copy(void)
{
	char buf[8] = { 0 };
	int fd = fresh(O_RDWR);
	char *p;

	CHECK(fd >= 0);
	CHECK(pwrite(fd, "device", 6, 0) == 6);
	p = map(fd, PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE, 0);
	CHECK(p != MAP_FAILED);
	CHECK(memcmp(p, "device", 6) == 0); /* it starts as the device's page */
	memcpy(p, "mine!!", 6);
	CHECK(memcmp(p, "mine!!", 6) == 0);
	CHECK(pread(fd, buf, 6, 0) == 6 && memcmp(buf, "device", 6) == 0); /* a copy took the write */
	CHECK(munmap(p, PAGE) == 0);
	close(fd);
}

static void t_refused(void)
{
	int fd = fresh(O_RDWR), ro = open(DEV, O_RDONLY), wo = open(DEV, O_WRONLY);
	char *p;

	CHECK(fd >= 0 && ro >= 0 && wo >= 0);
	errno = 0;
	CHECK(map(fd, SIZE + PAGE, PROT_READ, MAP_SHARED, 0) == MAP_FAILED && errno == EINVAL);
	errno = 0;
	CHECK(map(fd, PAGE, PROT_READ, MAP_SHARED, SIZE) == MAP_FAILED && errno == EINVAL);
	errno = 0;
	CHECK(map(fd, 2 * PAGE, PROT_READ, MAP_SHARED, 3 * PAGE) == MAP_FAILED && errno == EINVAL);
	errno = 0;
	CHECK(map(ro, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, 0) == MAP_FAILED && errno == EACCES);
	errno = 0;
	CHECK(map(wo, PAGE, PROT_READ, MAP_SHARED, 0) == MAP_FAILED && errno == EACCES);
	p = map(ro, PAGE, PROT_READ, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED && munmap(p, PAGE) == 0);
	close(fd);
	close(ro);
	close(wo);
}

static void t_kept_after_close(void)
{
	char buf[8] = { 0 };
	int fd = fresh(O_RDWR);
	char *p;

	CHECK(fd >= 0);
	p = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	close(fd); /* the mapping holds the file */
	memcpy(p + 9, "kept", 4);
	fd = open(DEV, O_RDONLY);
	CHECK(fd >= 0 && pread(fd, buf, 4, 9) == 4 && memcmp(buf, "kept", 4) == 0);
	CHECK(munmap(p, SIZE) == 0);
	close(fd);
}

static void t_unmapped_faults(void)
{
	int fd = fresh(O_RDWR), status;
	char *p;
	pid_t pid;

	CHECK(fd >= 0);
	p = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	p[0] = 1;
	CHECK(munmap(p, SIZE) == 0);
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		p[0] = 2; /* no longer mapped */
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	close(fd);
}

static int mappings(void)
{
	char buf[16] = { 0 };
	int fd = open("/sys/class/scullmap/scullmap/mappings", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	return n > 0 ? atoi(buf) : -1;
}

static void t_split_counts(void)
{
	int fd = fresh(O_RDWR), before = mappings();
	char *p;

	CHECK(fd >= 0 && before >= 0);
	p = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	p[0] = p[3 * PAGE] = 's';
	CHECK(mappings() == before + 1);
	CHECK(munmap(p + PAGE, PAGE) == 0); /* two VMAs now */
	CHECK(mappings() == before + 2);
	CHECK(p[3 * PAGE] == 's');
	CHECK(munmap(p, SIZE) == 0);
	CHECK(mappings() == before);
	close(fd);
}

static void t_mprotect_read_only(void)
{
	int fd = fresh(O_RDWR), status;
	char *p;
	pid_t pid;

	CHECK(fd >= 0);
	p = map(fd, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);
	CHECK(p != MAP_FAILED);
	p[0] = 'w';
	CHECK(mprotect(p, PAGE, PROT_READ) == 0);
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		p[0] = 'x';
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV);
	CHECK(p[0] == 'w' && munmap(p, PAGE) == 0);
	close(fd);
}

/* For the checker: maps every page, touches them, and exits without munmap. */
static void t_exit_mapped(void)
{
	int fd = fresh(O_RDWR), status;
	pid_t pid;

	CHECK(fd >= 0);
	pid = fork();
	if (pid == 0) {
		char *p = map(fd, SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, 0);

		if (p == MAP_FAILED)
			_exit(1);
		for (int i = 0; i < SIZE; i += PAGE)
			p[i] = 'x';
		_exit(0);
	}
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(fd);
}

static const struct test tests[] = {
	{ "write_map_read_file", t_write_map_read_file },
	{ "write_file_read_map", t_write_file_read_map },
	{ "offset", t_offset },
	{ "two_mappings", t_two_mappings },
	{ "maps_line", t_maps_line },
	{ "fork_shares", t_fork_shares },
	{ "private_copy", t_private_copy },
	{ "refused", t_refused },
	{ "kept_after_close", t_kept_after_close },
	{ "unmapped_faults", t_unmapped_faults },
	{ "exit_mapped", t_exit_mapped },
	{ "split_counts", t_split_counts },
	{ "mprotect_read_only", t_mprotect_read_only },
};

int main(int argc, char **argv)
{
	return RUN_TESTS("scullmtest", tests, 1, argc, argv);
}
