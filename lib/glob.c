/* glob.c: shell-style wildcard matching ('*', '?', '[...]'). */
#include <kobold/glob.h>

/*
 * Matches c against the set that starts after '[' at *pp. On return *pp
 * is past the closing ']'. -1 if the set has no ']' (the '[' is plain).
 */
static int match_set(const char **pp, char c)
{
	const char *p = *pp;
	bool negate = *p == '!' || *p == '^', found = false;

	if (negate)
		p++;
	for (bool first = true; first || *p != ']'; first = false) {
		char lo = *p, hi;

		if (!lo)
			return -1;
		if (lo == '\\' && p[1])
			lo = *++p;
		hi = lo;
		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = p[2];
			p += 2;
			if (hi == '\\' && p[1])
				hi = *++p;
		}
		if ((unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi)
			found = true;
		p++;
	}
	*pp = p + 1;
	return found != negate;
}

/* One pattern character (or set) against *s; advances *pp past it. */
static bool match_one(const char **pp, char c)
{
	const char *p = *pp;
	int set;

	if (*p == '?') {
		*pp = p + 1;
		return true;
	}
	if (*p == '[') {
		const char *q = p + 1;

		set = match_set(&q, c);
		if (set >= 0) {
			*pp = q;
			return set;
		}
	}
	if (*p == '\\' && p[1])
		p++;
	*pp = p + 1;
	return *p == c;
}

bool glob_match(const char *pat, const char *str)
{
	const char *star = NULL, *retry = NULL; /* the last '*': where to try again */

	while (*str) {
		if (*pat == '*') {
			star = ++pat;
			retry = str;
			continue;
		}
		if (*pat && match_one(&pat, *str)) {
			str++;
			continue;
		}
		if (!star)
			return false;
		pat = star; /* let the last '*' take one more character */
		str = ++retry;
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}
