/*
 * shim.c: the few kernel services that the portable core needs, for the host
 * test binary: kmalloc over malloc (counted), printk into a captured log,
 * and a main() that runs the ktest suites.
 */
#include <kobold/clock.h>
#include <kobold/errno.h>
#include <kobold/ktest.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/sched.h>
#include <kobold/signal.h>
#include <kobold/wait.h>
#include <kobold/workqueue.h>

#include <execinfo.h>
#include <stdarg.h>
#include <stdlib.h>
#include <time.h>

static struct kmem_stats stats;
static unsigned long fail_countdown;

struct alloc_hdr {
	size_t size;
	size_t pad; /* keeps the payload 16-byte aligned */
};

void kmalloc_fail_nth(unsigned long n) { fail_countdown = n; }

void *kmalloc(size_t size)
{
	struct alloc_hdr *h;

	if (fail_countdown && --fail_countdown == 0) {
		stats.failures++;
		return NULL;
	}
	h = malloc(sizeof(*h) + size);
	if (!h) {
		stats.failures++;
		return NULL;
	}
	h->size = size;
	memset(h + 1, 0xa5, size); /* like the kernel: never hand out zeros by chance */
	stats.bytes_in_use += size;
	stats.objects_in_use++;
	stats.total_allocs++;
	if (stats.bytes_in_use > stats.peak_bytes)
		stats.peak_bytes = stats.bytes_in_use;
	return h + 1;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);

	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(const void *p)
{
	struct alloc_hdr *h;

	if (!p)
		return;
	h = (struct alloc_hdr *)p - 1;
	stats.bytes_in_use -= h->size;
	stats.objects_in_use--;
	stats.total_frees++;
	free(h);
}

char *kstrdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = kmalloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

char *kasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	p = kmalloc((size_t)n + 1);
	if (!p)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return p;
}

void kmem_get_stats(struct kmem_stats *st) { *st = stats; }

/* Whole pages (the RAM filesystem's data), counted as the kernel's page allocator does. */
static unsigned long pages_in_use;

void *alloc_pages(unsigned int n)
{
	void *p;

	if (fail_countdown && --fail_countdown == 0) {
		stats.failures++;
		return NULL;
	}
	p = aligned_alloc(PAGE_SIZE, (size_t)n * PAGE_SIZE);
	if (p)
		pages_in_use += n;
	return p;
}

void free_pages(void *addr, unsigned int n)
{
	if (!addr)
		return;
	pages_in_use -= n;
	free(addr);
}

void page_get_stats(struct page_stats *st)
{
	st->total = 65536; /* 256 MiB, as QEMU's -m 256M */
	st->free = st->total - pages_in_use;
	st->reserved = 0;
}

/* The captured log: every printk record, newest last, for log_search(). */
#define LOG_RECORDS 4096
static char *log_rec[LOG_RECORDS];
static u32 log_next;
static int verbose_log = -1;

static void log_store(const char *text)
{
	u32 slot = log_next++ % LOG_RECORDS;

	free(log_rec[slot]);
	log_rec[slot] = strdup(text);
	if (verbose_log < 0)
		verbose_log = getenv("KTEST_VERBOSE") != NULL;
	if (verbose_log)
		fprintf(stderr, "%s", text);
}

int printk(const char *fmt, ...)
{
	char buf[1024];
	const char *text = buf;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (buf[0] == '\001' && buf[1])
		text += 2;
	log_store(text);
	return n;
}

u32 log_seq(void) { return log_next; }

bool log_search(u32 from_seq, const char *needle)
{
	u32 s = from_seq;

	if (log_next - s > LOG_RECORDS)
		s = log_next - LOG_RECORDS;
	for (; s != log_next; s++)
		if (log_rec[s % LOG_RECORDS] && strstr(log_rec[s % LOG_RECORDS], needle))
			return true;
	return false;
}

unsigned long warn_count;

void dump_stack(void)
{
	void *frames[16];
	char **names;
	int i, n = backtrace(frames, 16);

	printk(KERN_WARNING "Call Trace:\n");
	names = backtrace_symbols(frames, n);
	for (i = 1; names && i < n; i++)
		printk(KERN_WARNING " %s\n", names[i]);
	free(names);
}

void warn_slowpath(const char *file, int line, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warn_count++;
	printk(KERN_WARNING "WARNING: at %s:%d: %s\n", file, line, msg);
	dump_stack();
}

u64 ktime_get_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

void ktest_print(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	return ktest_run(argc > 1 ? argv[1] : "all") ? 1 : 0;
}

/* Host drivers complete at once; a flag still clear here is a test bug. */
void wait_for_flag(volatile bool *flag)
{
	WARN(!*flag, "wait_for_flag: nothing will set this flag on the host");
}

/* A test's stand-in for the interrupt that would arrive while the CPU idles. */
void (*host_idle_hook)(void);

/* A deadline set and passed (any but 0 on the host) stands for a signal pending, as in the kernel. */
static u64 host_signal_deadline;

u64 signal_set_deadline(u64 deadline_ns)
{
	u64 old = host_signal_deadline;

	host_signal_deadline = deadline_ns;
	return old;
}

/* Nothing else runs beside a host test: a sleeper nobody has woken would sleep for ever. */
int schedule_wait(struct wait_queue_entry *wait, bool interruptible)
{
	if (!wait->woken && interruptible && host_signal_deadline)
		return -ERESTARTSYS;
	if (!wait->woken && host_idle_hook)
		host_idle_hook();
	if (WARN(!wait->woken, "schedule_wait: nothing will wake this on the host"))
		return -EAGAIN;
	return 0;
}

/* No scheduler on the host: a woken task is only marked runnable, and counted. */
unsigned long host_wakeups;

bool wake_up_process(struct task_struct *p)
{
	bool woke = p->state != TASK_RUNNING;

	p->state = TASK_RUNNING;
	host_wakeups++;
	return woke;
}

void preempt_schedule(void) {}

/* No worker threads on the host: tests run the queues themselves. */
int workqueue_start_worker(struct workqueue_struct *wq) { return 0; }
void workqueue_stop_worker(struct workqueue_struct *wq) {}
void workqueue_wake_worker(struct workqueue_struct *wq) {}
bool workqueue_flush_in_caller(struct workqueue_struct *wq) { return true; }

/* The host has one CPU, and no other to bring up or take down. */
bool cpu_online(unsigned int cpu) { return cpu == 0; }
int cpu_up(unsigned int cpu) { return -EINVAL; }
int cpu_down(unsigned int cpu) { return -EINVAL; }

/* No kernel symbol table on the host: addresses print as numbers. */
bool ksym_lookup(u32 addr, const char **name, u32 *offset, u32 *size) { return false; }
volatile unsigned long jiffies; /* no tick on the host: tests move time themselves */

/* kernel/uevent_helper.c's setting, which kernel/sysctl.c's table points at. */
char uevent_helper[256] = "/sbin/hotplug";
int pid_max = 32768;			    /* kernel/pid.c's, also in that table */
unsigned long aio_nr, aio_max_nr = 0x10000; /* fs/aio.c's, in the fs table */
