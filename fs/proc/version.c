/* version.c: /proc/version, the release and the compiler, in Linux's "Linux version ..." shape. */
#include <kobold/proc_fs.h>
#include <kobold/string.h>
#include <kobold/version.h>

size_t proc_show_version(char *buf, size_t size)
{
	return scnprintf(buf, size, "Kobold version %s (gcc version %s) #1\n", KOBOLD_VERSION,
			 __VERSION__);
}
