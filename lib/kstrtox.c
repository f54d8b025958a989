/* kstrtox.c: whole-string number parsing for attributes, parameters and the shell. */
#include <kobold/string.h>
#include <kobold/errno.h>

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* Base 0 means: 0x prefix for hex, leading 0 for octal, else decimal. */
static const char *parse_base(const char *s, unsigned int *base)
{
	if (*base == 0) {
		if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && digit_value(s[2]) < 16) {
			*base = 16;
			return s + 2;
		}
		*base = (s[0] == '0' && s[1]) ? 8 : 10;
		return s;
	}
	if (*base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return s + 2;
	return s;
}

int kstrtoull(const char *s, unsigned int base, unsigned long long *res)
{
	unsigned long long v = 0;
	const char *p;
	int d;

	if (!s || base == 1 || base > 36)
		return -EINVAL;
	if (*s == '+')
		s++;
	p = parse_base(s, &base);
	if (!*p || *p == '\n')
		return -EINVAL;
	for (; *p && *p != '\n'; p++) {
		d = digit_value(*p);
		if (d >= (int)base)
			return -EINVAL;
		if (v > (~0ULL - (unsigned)d) / base)
			return -ERANGE;
		v = v * base + (unsigned)d;
	}
	if (*p == '\n' && p[1])
		return -EINVAL;
	*res = v;
	return 0;
}

int kstrtoul(const char *s, unsigned int base, unsigned long *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v != (unsigned long)v)
		return -ERANGE;
	*res = (unsigned long)v;
	return 0;
}

int kstrtouint(const char *s, unsigned int base, unsigned int *res)
{
	unsigned long long v;
	int err = kstrtoull(s, base, &v);

	if (err)
		return err;
	if (v > 0xffffffffULL)
		return -ERANGE;
	*res = (unsigned int)v;
	return 0;
}

int kstrtol(const char *s, unsigned int base, long *res)
{
	unsigned long long v;
	bool neg = s && *s == '-';
	int err = kstrtoull(neg ? s + 1 : s, base, &v);

	if (err)
		return err;
	if (neg && s[1] == '+')
		return -EINVAL;
	if (neg ? v > (unsigned long long)LONG_MAX + 1 : v > (unsigned long long)LONG_MAX)
		return -ERANGE;
	*res = neg ? (long)(0 - v) : (long)v;
	return 0;
}

int kstrtoint(const char *s, unsigned int base, int *res)
{
	long v;
	int err = kstrtol(s, base, &v);

	if (err)
		return err;
	if (v < INT32_MIN || v > INT32_MAX)
		return -ERANGE;
	*res = (int)v;
	return 0;
}

int kstrtobool(const char *s, bool *res)
{
	if (!s)
		return -EINVAL;
	if (sysfs_streq(s, "1") || sysfs_streq(s, "y") || sysfs_streq(s, "Y") ||
	    sysfs_streq(s, "on")) {
		*res = true;
		return 0;
	}
	if (sysfs_streq(s, "0") || sysfs_streq(s, "n") || sysfs_streq(s, "N") ||
	    sysfs_streq(s, "off")) {
		*res = false;
		return 0;
	}
	return -EINVAL;
}
