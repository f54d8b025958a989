/* ktest.c: runs the registered test suites and prints KTAP (host and kernel). */
#include <kobold/ktest.h>
#include <kobold/slab.h>
#include <kobold/string.h>

void ktest_fail(struct ktest *t, const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vscnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ktest_print("        # %s: %s:%d: %s\n", t->name, file, line, msg);
	t->failures++;
}

static bool filter_match(const char *filter, const char *name)
{
	size_t n = strlen(name);
	const char *p = filter;

	if (!filter || !*filter || strcmp(filter, "all") == 0)
		return true;
	while (*p) {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (!p)
			break;
		p++;
	}
	return false;
}

/* One case: run it between init and exit, then check it freed what it took. */
static bool run_case(const struct ktest_suite *s, const struct ktest_case *c)
{
	struct ktest t = { .suite = s->name, .name = c->name };
	struct kmem_stats before, after;

	kmem_get_stats(&before);
	if (s->init && s->init(&t)) {
		ktest_fail(&t, __FILE__, __LINE__, "suite init failed");
		return false;
	}
	c->run(&t);
	if (s->exit)
		s->exit(&t);
	kmem_get_stats(&after);
	if (after.objects_in_use != before.objects_in_use)
		ktest_fail(&t, __FILE__, __LINE__, "leaked %ld kmalloc objects",
			   (long)after.objects_in_use - (long)before.objects_in_use);
	return t.failures == 0;
}

static int run_suite(const struct ktest_suite *s, int index)
{
	const struct ktest_case *c;
	int n = 0, failed = 0;

	for (c = s->cases; c->run; c++)
		n++;
	ktest_print("    KTAP version 1\n    # Subtest: %s\n    1..%d\n", s->name, n);
	n = 0;
	for (c = s->cases; c->run; c++) {
		bool ok = run_case(s, c);

		failed += !ok;
		ktest_print("    %sok %d %s\n", ok ? "" : "not ", ++n, c->name);
	}
	ktest_print("%sok %d %s\n", failed ? "not " : "", index, s->name);
	return failed;
}

int ktest_run(const char *filter)
{
	const struct ktest_suite *const *s;
	int n = 0, index = 0, failed = 0;

	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		n += filter_match(filter, (*s)->name);
	ktest_print("KTAP version 1\n1..%d\n", n);
	for (s = __start_ktest_suites; s < __stop_ktest_suites; s++)
		if (filter_match(filter, (*s)->name))
			failed += run_suite(*s, ++index);
	ktest_print("# ktest: %d suites, %d failed cases\n", n, failed);
	return failed;
}
