/* string.h: the C string functions, plus the kernel's own helpers. */
#ifndef KOBOLD_STRING_H
#define KOBOLD_STRING_H

#include <kobold/types.h>
#include <stdarg.h>

#ifdef KOBOLD_HOST
#include <stdio.h>
#include <string.h>
#else
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
int snprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
#endif

/* Portable helpers in lib/, built for the host too. */

/* Copy at most size-1 bytes and terminate; -E2BIG if truncated, else length. */
long strscpy(char *dst, const char *src, size_t size);
/* Like snprintf, but returns the bytes actually written (never more than size-1). */
int scnprintf(char *buf, size_t size, const char *fmt, ...) __printf(3, 4);
int vscnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/* True if a equals b, ignoring one trailing newline on either (sysfs input). */
bool sysfs_streq(const char *a, const char *b);
/* Parse whole strings as numbers; a trailing newline is allowed. 0 or -EINVAL/-ERANGE. */
int kstrtoul(const char *s, unsigned int base, unsigned long *res);
int kstrtoull(const char *s, unsigned int base, unsigned long long *res);
int kstrtol(const char *s, unsigned int base, long *res);
int kstrtoint(const char *s, unsigned int base, int *res);
int kstrtouint(const char *s, unsigned int base, unsigned int *res);
int kstrtobool(const char *s, bool *res);

#endif
