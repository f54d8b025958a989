/*
 * ktest.h: a small KUnit-style test framework. The same test files run on the
 * host (under ASan and UBSan) and inside the kernel (test=all), printing KTAP.
 */
#ifndef KOBOLD_KTEST_H
#define KOBOLD_KTEST_H

#include <kobold/types.h>

struct ktest {
	const char *suite;
	const char *name;
	int failures;
	void *priv; /* for the suite's init/exit */
};

struct ktest_case {
	const char *name;
	void (*run)(struct ktest *t);
};

struct ktest_suite {
	const char *name;
	const struct ktest_case *cases; /* ended by an entry with run == NULL */
	int (*init)(struct ktest *t);	/* before each case; non-zero fails it */
	void (*exit)(struct ktest *t);	/* after each case */
};

#define KTEST_CASE(fn) { #fn, fn }
#define KTEST_END { NULL, NULL }

/* Registers a suite in the ktest_suites section (both builds collect it). */
#define KTEST_SUITE(suite)                                         \
	static const struct ktest_suite *const __ktest_ptr_##suite \
		__attribute__((used, section("ktest_suites"), aligned(4))) = &suite

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
	__printf(4, 5);

#define KTEST_EXPECT_TRUE(t, cond)                                               \
	do {                                                                     \
		if (!(cond))                                                     \
			ktest_fail(t, __FILE__, __LINE__, "expected %s", #cond); \
	} while (0)
#define KTEST_EXPECT_FALSE(t, cond) KTEST_EXPECT_TRUE(t, !(cond))
#define KTEST_EXPECT_EQ(t, a, b)                                                    \
	do {                                                                        \
		long long __a = (long long)(a), __b = (long long)(b);               \
		if (__a != __b)                                                     \
			ktest_fail(t, __FILE__, __LINE__, "%s == %s: %lld != %lld", \
				   #a, #b, __a, __b);                               \
	} while (0)
#define KTEST_EXPECT_NE(t, a, b)                                                 \
	do {                                                                     \
		long long __a = (long long)(a), __b = (long long)(b);            \
		if (__a == __b)                                                  \
			ktest_fail(t, __FILE__, __LINE__, "%s != %s: both %lld", \
				   #a, #b, __a);                                 \
	} while (0)
#define KTEST_EXPECT_PTR_EQ(t, a, b)                                            \
	do {                                                                    \
		const void *__a = (a), *__b = (b);                              \
		if (__a != __b)                                                 \
			ktest_fail(t, __FILE__, __LINE__, "%s == %s: %p != %p", \
				   #a, #b, __a, __b);                           \
	} while (0)
#define KTEST_EXPECT_STREQ(t, a, b)                                                     \
	do {                                                                            \
		const char *__a = (a), *__b = (b);                                      \
		if (!__a || !__b || strcmp(__a, __b) != 0)                              \
			ktest_fail(t, __FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", \
				   #a, #b, __a ? __a : "(null)", __b ? __b : "(null)"); \
	} while (0)
/* ASSERT variants end the case at the first failure. */
#define KTEST_ASSERT_TRUE(t, cond)                                                \
	do {                                                                      \
		if (!(cond)) {                                                    \
			ktest_fail(t, __FILE__, __LINE__, "assertion %s", #cond); \
			return;                                                   \
		}                                                                 \
	} while (0)
#define KTEST_ASSERT_EQ(t, a, b)          \
	do {                              \
		int __f = (t)->failures;  \
		KTEST_EXPECT_EQ(t, a, b); \
		if ((t)->failures != __f) \
			return;           \
	} while (0)

/*
 * Run the registered suites whose names appear in the comma-separated filter
 * ("all" or NULL for every suite). Prints KTAP; returns the number of failed
 * cases. Each case also fails if it leaves kmalloc objects behind.
 */
int ktest_run(const char *filter);

/* Provided by the environment: raw output for KTAP lines, and the suite table. */
void ktest_print(const char *fmt, ...) __printf(1, 2);
extern const struct ktest_suite *const __start_ktest_suites[];
extern const struct ktest_suite *const __stop_ktest_suites[];

#endif
