/* devmodel_trace.c: the `trace on|off` switch: one log line per device-model call. */
#include <kobold/kobject.h>
#include <kobold/printk.h>
#include <kobold/sysfs.h>

static bool trace_on;

void devmodel_set_trace(bool on)
{
	trace_on = on;
}

bool devmodel_trace_enabled(void)
{
	return trace_on;
}

void devmodel_trace(const char *func, const char *what, const char *extra)
{
	if (!trace_on)
		return;
	if (extra)
		pr_info("trace: %s %s %s\n", func, what, extra);
	else
		pr_info("trace: %s %s\n", func, what);
}

/* The object's path while it is in sysfs, its name otherwise. */
void devmodel_trace_kobj(const char *func, struct kobject *kobj, const char *extra)
{
	char path[256];

	if (!trace_on)
		return;
	if (kobject_get_path(kobj, path, sizeof(path)) < 0)
		devmodel_trace(func, kobject_name(kobj), extra);
	else
		devmodel_trace(func, path, extra);
}
