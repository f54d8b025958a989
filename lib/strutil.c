/* strutil.c: bounded string copies and formatting that cannot overrun. */
#include <kobold/string.h>
#include <kobold/errno.h>

long strscpy(char *dst, const char *src, size_t size)
{
	size_t i;

	if (size == 0)
		return -E2BIG;
	for (i = 0; i < size - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
	return src[i] ? -E2BIG : (long)i;
}

int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	int n;

	if (size == 0)
		return 0;
	n = vsnprintf(buf, size, fmt, ap);
	if (n < 0)
		return 0;
	return (size_t)n >= size ? (int)(size - 1) : n;
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

bool sysfs_streq(const char *a, const char *b)
{
	while (*a && *a == *b) {
		a++;
		b++;
	}
	if (*a == *b)
		return true;
	if (*a == '\n' && !a[1] && !*b)
		return true;
	return *b == '\n' && !b[1] && !*a;
}
