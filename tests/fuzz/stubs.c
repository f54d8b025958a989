/* stubs.c: what the host shim needs from lib/ktest.c, which fuzz targets leave out. */
#include <kobold/ktest.h>

int ktest_run(const char *filter)
{
	(void)filter;
	return 0;
}
