/*
 * edutest.c: lab 14's driver test, run by labs/lab14/check.py: /dev/edu,
 * the driver of QEMU's edu device (-device edu; docs/labs/lab14-edu.md).
 * A number written, its factorial read back; data to the device's 4 KiB
 * buffer and back by DMA through two ioctls. One line a test: "ok NAME" or
 * "FAIL NAME: what happened". `edutest NAME...` runs some.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "test.h"

#define DEV "/dev/edu"
#define BUF_SIZE 4095 /* the device's 4096 but its last byte (QEMU 7.2's edu: see the lab's page) */

/* The driver's ioctls (docs/labs/lab14-edu.md): len bytes of buf to or from the device's buffer at offset. */
struct edu_xfer {
	uint32_t offset, len;
	void *buf;
};
#define EDU_IOC_TO_DEVICE _IOW('E', 1, struct edu_xfer)
#define EDU_IOC_FROM_DEVICE _IOW('E', 2, struct edu_xfer)

/* n! as the device's 32-bit register holds it. */
static uint32_t factorial(uint32_t n)
{
	uint32_t r = 1;

	while (n > 0)
		r *= n--;
	return r;
}

/* Writes n to /dev/edu and reads the answer from a new open; -1 if a call failed. */
static long long edu_fact(uint32_t n)
{
	char text[32];
	int fd = open(DEV, O_RDWR), len;
	ssize_t got;

	if (fd < 0)
		return -1;
	len = snprintf(text, sizeof(text), "%u\n", n);
	if (write(fd, text, (size_t)len) != len) {
		close(fd);
		return -1;
	}
	close(fd);
	fd = open(DEV, O_RDONLY);
	if (fd < 0)
		return -1;
	got = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (got <= 0)
		return -1;
	text[got] = '\0';
	return strtoll(text, NULL, 10);
}

/* 0 to 12, then 2 to 12 ten times more: a driver that reads the result too soon is seldom lucky 110 times. */
static void t_factorials(void)
{
	for (uint32_t i = 0; i <= 12 + 110; i++) {
		uint32_t n = i <= 12 ? i : 2 + (i - 13) % 11;
		long long got = edu_fact(n);

		if (got != (long long)factorial(n)) {
			snprintf(why, sizeof(why), "wrote %u, read %lld, expected %u%s", n, got,
				 factorial(n),
				 got == (long long)n ? " (the number written: read before the device was done?)" : "");
			return;
		}
	}
}

static void t_fact_bad_input(void)
{
	int fd = open(DEV, O_WRONLY);

	CHECK(fd >= 0);
	CHECK(write(fd, "ten\n", 4) < 0 && errno == EINVAL);
	CHECK(write(fd, "-1\n", 3) < 0 && errno == EINVAL);
	CHECK(write(fd, "99999999999\n", 12) < 0 && errno == EINVAL);
	close(fd);
}

static int xfer(int fd, unsigned long cmd, uint32_t offset, uint32_t len, void *buf)
{
	struct edu_xfer x = { offset, len, buf };

	return ioctl(fd, cmd, &x);
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 7 + (i >> 8));
}

/* The first byte where a and b differ, as text in why; 1 if none. */
static int same(const unsigned char *got, const unsigned char *want, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		if (got[i] != want[i]) {
			snprintf(why, sizeof(why), "%s: byte %zu is %#x, expected %#x", what, i, got[i],
				 want[i]);
			return 0;
		}
	}
	return 1;
}

/*
 * The whole buffer there and back; then 100 bytes at offset 3000, read back
 * with the rest: a DMA of the wrong length or direction shows as bytes
 * that are not what was sent.
 */
static void t_dma_round_trip(void)
{
	static unsigned char a[BUF_SIZE], b[BUF_SIZE], want[BUF_SIZE], got[BUF_SIZE];
	int fd = open(DEV, O_RDWR);

	CHECK(fd >= 0);
	fill(a, sizeof(a), 1);
	fill(b, sizeof(b), 101);
	CHECK(xfer(fd, EDU_IOC_TO_DEVICE, 0, BUF_SIZE, a) == 0);
	memset(got, 0xee, sizeof(got));
	CHECK(xfer(fd, EDU_IOC_FROM_DEVICE, 0, BUF_SIZE, got) == 0);
	if (!same(got, a, BUF_SIZE, "4095 bytes sent, read back"))
		return;
	CHECK(xfer(fd, EDU_IOC_TO_DEVICE, 3000, 100, b) == 0);
	memcpy(want, a, sizeof(want));
	memcpy(want + 3000, b, 100);
	memset(got, 0xee, sizeof(got));
	CHECK(xfer(fd, EDU_IOC_FROM_DEVICE, 0, BUF_SIZE, got) == 0);
	if (!same(got, want, BUF_SIZE, "100 bytes sent to offset 3000, the buffer read back"))
		return;
	memset(got, 0xee, sizeof(got));
	CHECK(xfer(fd, EDU_IOC_FROM_DEVICE, 2990, 20, got) == 0);
	if (!same(got, want + 2990, 20, "20 bytes read at offset 2990"))
		return;
	for (size_t i = 20; i < sizeof(got); i++)
		CHECK(got[i] == 0xee); /* nothing past the 20 bytes asked for */
	close(fd);
}

static void t_dma_bad_requests(void)
{
	static unsigned char buf[BUF_SIZE + 1];
	int fd = open(DEV, O_RDWR);

	CHECK(fd >= 0);
	CHECK(xfer(fd, EDU_IOC_TO_DEVICE, 0, BUF_SIZE + 1, buf) < 0 && errno == EINVAL);
	CHECK(xfer(fd, EDU_IOC_TO_DEVICE, 1, BUF_SIZE, buf) < 0 && errno == EINVAL);
	CHECK(xfer(fd, EDU_IOC_TO_DEVICE, 4000, 100, buf) < 0 && errno == EINVAL);
	CHECK(xfer(fd, EDU_IOC_FROM_DEVICE, 0, 0, buf) < 0 && errno == EINVAL);
	CHECK(xfer(fd, EDU_IOC_FROM_DEVICE, 0xfffff000u, 0x2000, buf) < 0 && errno == EINVAL);
	CHECK(xfer(fd, EDU_IOC_TO_DEVICE, 0, 16, (void *)0xc0100000) < 0 && errno == EFAULT);
	CHECK(ioctl(fd, _IO('E', 9), 0) < 0 && errno == ENOTTY);
	close(fd);
}

static const struct test tests[] = {
	{ "factorials", t_factorials },
	{ "fact_bad_input", t_fact_bad_input },
	{ "dma_round_trip", t_dma_round_trip },
	{ "dma_bad_requests", t_dma_bad_requests },
};

int main(int argc, char **argv)
{
	return RUN_TESTS("edutest", tests, 1, argc, argv);
}
