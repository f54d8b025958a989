/* vsprintf.c: printf-style formatting for the kernel (the subset it uses). */
#include <kobold/string.h>

struct fmt_out {
	char *buf;
	size_t size;
	size_t len; /* bytes the full output needs, even past size */
};

struct fmt_spec {
	bool left, zero, plus, space, alt;
	int width;
	int precision; /* -1: none */
};

static void put(struct fmt_out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct fmt_out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_str(struct fmt_out *o, const char *s, const struct fmt_spec *sp)
{
	size_t n;

	if (!s)
		s = "(null)";
	n = sp->precision >= 0 ? strnlen(s, (size_t)sp->precision) : strlen(s);
	if (!sp->left)
		pad(o, ' ', sp->width - (int)n);
	for (size_t i = 0; i < n; i++)
		put(o, s[i]);
	if (sp->left)
		pad(o, ' ', sp->width - (int)n);
}

static void put_num(struct fmt_out *o, unsigned long long v, bool neg, unsigned base,
		    bool upper, const struct fmt_spec *sp)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0, extra, zeros;
	char sign = neg ? '-' : (sp->plus ? '+' : (sp->space ? ' ' : 0));
	const char *prefix = sp->alt && base == 16 && v ? (upper ? "0X" : "0x") : "";

	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	zeros = sp->precision > n ? sp->precision - n : 0;
	extra = (sign ? 1 : 0) + (int)strlen(prefix) + zeros + n;
	if (!sp->left && !(sp->zero && sp->precision < 0))
		pad(o, ' ', sp->width - extra);
	if (sign)
		put(o, sign);
	for (; *prefix; prefix++)
		put(o, *prefix);
	if (!sp->left && sp->zero && sp->precision < 0)
		pad(o, '0', sp->width - extra);
	pad(o, '0', zeros);
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		pad(o, ' ', sp->width - extra);
}

static const char *parse_spec(const char *f, struct fmt_spec *sp, va_list *ap)
{
	*sp = (struct fmt_spec){ .precision = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else if (*f == '#')
			sp->alt = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		sp->precision = 0;
		if (*++f == '*') {
			sp->precision = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->precision = sp->precision * 10 + (*f++ - '0');
	}
	return f;
}

/* Reads an integer argument of the length given by the modifiers (l, ll, z, h). */
static unsigned long long get_arg(int lng, bool is_signed, bool *neg, va_list *ap)
{
	long long s;

	*neg = false;
	if (!is_signed) {
		if (lng == 2)
			return va_arg(*ap, unsigned long long);
		if (lng == 1)
			return va_arg(*ap, unsigned long);
		return va_arg(*ap, unsigned int);
	}
	s = lng == 2 ? va_arg(*ap, long long) : (lng == 1 ? va_arg(*ap, long) : va_arg(*ap, int));
	if (s < 0) {
		*neg = true;
		return 0ULL - (unsigned long long)s;
	}
	return (unsigned long long)s;
}

static void format_one(struct fmt_out *o, char conv, int lng, struct fmt_spec *sp, va_list *ap)
{
	unsigned long long v;
	bool neg;
	char c;

	switch (conv) {
	case 'd':
	case 'i':
		v = get_arg(lng, true, &neg, ap);
		put_num(o, v, neg, 10, false, sp);
		break;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		v = get_arg(lng, false, &neg, ap);
		put_num(o, v, false, conv == 'u' ? 10 : (conv == 'o' ? 8 : 16), conv == 'X', sp);
		break;
	case 'p':
		sp->alt = true;
		put_num(o, (unsigned long)va_arg(*ap, void *), false, 16, false, sp);
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		sp->precision = 1;
		put_str(o, &c, sp);
		break;
	case 's':
		put_str(o, va_arg(*ap, const char *), sp);
		break;
	case '%':
		put(o, '%');
		break;
	default:
		put(o, '%');
		put(o, conv);
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct fmt_out o = { buf, size, 0 };
	struct fmt_spec sp;
	va_list args;
	int lng;

	va_copy(args, ap);
	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(&o, *fmt);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &args);
		for (lng = 0; *fmt == 'l' || *fmt == 'z' || *fmt == 'h'; fmt++)
			lng += *fmt == 'l' || *fmt == 'z'; /* h: an int, as promoted */
		if (!*fmt)
			break;
		format_one(&o, *fmt, lng, &sp, &args);
	}
	va_end(args);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
