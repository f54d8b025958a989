/* uptime.c: /proc/uptime, seconds since boot and seconds the CPUs spent idle, to 1/100 s. */
#include <kobold/clock.h>
#include <kobold/idle.h>
#include <kobold/proc_fs.h>
#include <kobold/string.h>

#define NSEC_PER_CSEC 10000000ULL

size_t proc_show_uptime(char *buf, size_t size)
{
	u64 up = ktime_get_ns() / NSEC_PER_CSEC, idle = idle_time_ns() / NSEC_PER_CSEC;

	return scnprintf(buf, size, "%lu.%02u %lu.%02u\n", (unsigned long)(up / 100),
			 (unsigned int)(up % 100), (unsigned long)(idle / 100), (unsigned int)(idle % 100));
}
