/* printk.h: the kernel log, with Linux's log levels. */
#ifndef KOBOLD_PRINTK_H
#define KOBOLD_PRINTK_H

#include <kobold/types.h>

#define KERN_SOH "\001"
#define KERN_EMERG KERN_SOH "0"
#define KERN_ALERT KERN_SOH "1"
#define KERN_CRIT KERN_SOH "2"
#define KERN_ERR KERN_SOH "3"
#define KERN_WARNING KERN_SOH "4"
#define KERN_NOTICE KERN_SOH "5"
#define KERN_INFO KERN_SOH "6"
#define KERN_DEBUG KERN_SOH "7"
#define KERN_CONT KERN_SOH "c"

int printk(const char *fmt, ...) __printf(1, 2);

#define pr_emerg(fmt, ...) printk(KERN_EMERG fmt, ##__VA_ARGS__)
#define pr_err(fmt, ...) printk(KERN_ERR fmt, ##__VA_ARGS__)
#define pr_warn(fmt, ...) printk(KERN_WARNING fmt, ##__VA_ARGS__)
#define pr_notice(fmt, ...) printk(KERN_NOTICE fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...) printk(KERN_INFO fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...) printk(KERN_DEBUG fmt, ##__VA_ARGS__)
#define pr_cont(fmt, ...) printk(KERN_CONT fmt, ##__VA_ARGS__)

/* Print the call chain of the caller (a backtrace with symbol names). */
void dump_stack(void);

/* Count of WARN()s so far; tests check that misuse warned. */
extern unsigned long warn_count;
void warn_slowpath(const char *file, int line, const char *fmt, ...) __printf(3, 4);

#define WARN(cond, fmt, ...)                                                   \
	({                                                                     \
		bool __c = !!(cond);                                           \
		if (unlikely(__c))                                             \
			warn_slowpath(__FILE__, __LINE__, fmt, ##__VA_ARGS__); \
		__c;                                                           \
	})
#define WARN_ON(cond) WARN(cond, "%s", #cond)

/*
 * The log as a sequence of records: log_seq() is the number of the next
 * record; log_search() looks for text in the records from seq on.
 * Tests use the pair to check that a warning was printed.
 */
u32 log_seq(void);
bool log_search(u32 from_seq, const char *needle);

#ifndef KOBOLD_HOST
/* Every record still in the ring, oldest first (dmesg). */
void log_for_each(void (*fn)(u64 ts_ns, int level, const char *text, void *arg), void *arg);
void format_log_time(u64 ns, char *buf, size_t size);
int console_get_loglevel(void);
#endif

#endif
