/* test.h: the table runner of the user test programs: "ok NAME" or "FAIL NAME: why" a test, then the counts. */
#ifndef USER_TEST_H
#define USER_TEST_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* A test passes unless it leaves in why what failed (CHECK does, then returns). */
struct test {
	const char *name;
	void (*fn)(void);
};

static char why[256];

#ifdef TEST_BRIEF
/* usertests' and aiotests' reason: the condition; the runner adds errno as the test left it. */
#define CHECK(cond)                                              \
	do {                                                     \
		if (!(cond)) {                                   \
			snprintf(why, sizeof(why), "%s", #cond); \
			return;                                  \
		}                                                \
	} while (0)
#else
/* The labs' reason: the line, the condition and errno. */
#define CHECK(cond)                                                                               \
	do {                                                                                      \
		if (!(cond)) {                                                                    \
			snprintf(why, sizeof(why), "line %d: %s (errno %d, %s)", __LINE__, #cond, \
				 errno, strerror(errno));                                         \
			return;                                                                   \
		}                                                                                 \
	} while (0)
#endif

/* Called before and after each test when a program sets them (scullptest's watchdog). */
static void (*test_before)(void), (*test_after)(void);

/* Whether argv[first..] names the test; with no names there, every test is wanted. */
static inline bool wanted(const char *name, int first, int argc, char **argv)
{
	if (argc <= first)
		return true;
	for (int i = first; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return true;
	return false;
}

/* Runs the wanted tests, a line each, then "PROG: N passed, N failed"; main's exit status. */
static inline int run_tests(const char *prog, const struct test *tests, size_t count, int first,
			    int argc, char **argv)
{
	int passed = 0, failed = 0, err;

	setvbuf(stdout, NULL, _IONBF, 0); /* each line out before a test that may crash the kernel */
	for (size_t i = 0; i < count; i++) {
		if (!wanted(tests[i].name, first, argc, argv))
			continue;
		why[0] = '\0';
		if (test_before)
			test_before();
		errno = 0;
		tests[i].fn();
		err = errno;
		if (test_after)
			test_after();
		errno = err; /* as the test left it */
		if (!why[0]) {
			printf("ok %s\n", tests[i].name);
			passed++;
			continue;
		}
#ifdef TEST_BRIEF
		printf("FAIL %s: %s (errno %d)\n", tests[i].name, why, errno);
#else
		printf("FAIL %s: %s\n", tests[i].name, why);
#endif
		failed++;
	}
	printf("%s: %d passed, %d failed\n", prog, passed, failed);
	return failed ? 1 : 0;
}

#define RUN_TESTS(prog, tests, first, argc, argv) \
	run_tests(prog, tests, sizeof(tests) / sizeof(tests[0]), first, argc, argv)

#endif
