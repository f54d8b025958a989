/* string.c: the C library's memory and string functions, for the kernel. */
#include <kobold/string.h>

/* Large copies as memset's fills: eight 32-bit moves a step, then rep movsb. */
void *memcpy(void *dst, const void *src, size_t n)
{
	void *ret = dst;

	if (n >= 64) {
		u32 *d = dst;
		const u32 *s = src;

		for (; n >= 32; n -= 32, d += 8, s += 8) {
			d[0] = s[0];
			d[1] = s[1];
			d[2] = s[2];
			d[3] = s[3];
			d[4] = s[4];
			d[5] = s[5];
			d[6] = s[6];
			d[7] = s[7];
		}
		dst = d;
		src = s;
	}
	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
	return ret;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

/*
 * Under QEMU's TCG a rep stos runs one translated loop per element; a loop
 * of eight 32-bit stores fills 1.6 times as fast or more. Large fills (a RAM
 * disk's kzalloc, the slab's poison, /dev/zero) take that loop, from the
 * first aligned word; the rest, and small fills, rep stosb.
 */
void *memset(void *dst, int c, size_t n)
{
	unsigned char *b = dst;

	if (n >= 64) {
		u32 v = (u8)c * 0x01010101u, *p;
		size_t head = -(uintptr_t)b & 3;

		n -= head;
		__asm__ volatile("rep stosb" : "+D"(b), "+c"(head) : "a"(c) : "memory");
		for (p = (u32 *)b; n >= 32; n -= 32, p += 8) {
			p[0] = v;
			p[1] = v;
			p[2] = v;
			p[3] = v;
			p[4] = v;
			p[5] = v;
			p[6] = v;
			p[7] = v;
		}
		b = (unsigned char *)p;
	}
	__asm__ volatile("rep stosb" : "+D"(b), "+c"(n) : "a"(c) : "memory");
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return c ? NULL : (char *)s;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;

	do {
		if (*s == (char)c)
			last = s;
	} while (*s++);
	return (char *)last;
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n ? NULL : (char *)hay;
}
