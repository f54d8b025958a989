/* cmdline.c: /proc/cmdline, the command line the loader gave the kernel. */
#include <kobold/param.h>
#include <kobold/proc_fs.h>
#include <kobold/string.h>

size_t proc_show_cmdline(char *buf, size_t size)
{
	return scnprintf(buf, size, "%s\n", saved_command_line());
}
