/*
 * printk.c: the kernel log. Each line becomes a record (time stamp, level,
 * text) in a ring that `dmesg` prints; lines below the console log level
 * (loglevel=, default 7 as in Linux) also go to the consoles at once.
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/console.h>
#include <kobold/param.h>
#include <kobold/preempt.h>
#include <kobold/printk.h>
#include <kobold/string.h>

#define LOG_RECORDS 2048
#define LOG_LINE 240
#define DEFAULT_LEVEL 4 /* KERN_WARNING for a printk with no level, as Linux */

struct log_record {
	u64 ts_ns;
	u8 level;
	bool open; /* no newline yet: KERN_CONT may extend it */
	char text[LOG_LINE];
};

static struct log_record log_buf[LOG_RECORDS];
static u32 log_next; /* sequence number of the next record */
static int console_loglevel = 7;
core_param(loglevel, console_loglevel, int, "console log level: messages below it are shown (0-7)");

static void console_emit(const struct log_record *r, const char *text, size_t n, bool prefix,
			 bool newline)
{
	char stamp[24];

	if (r->level >= console_loglevel)
		return;
	preempt_disable(); /* the stamp, the text and its newline together */
	if (prefix) {
		format_log_time(r->ts_ns, stamp, sizeof(stamp));
		console_puts(stamp);
		console_puts(" ");
	}
	console_write(text, n);
	if (newline)
		console_write("\n", 1);
	preempt_enable();
}

/* "[    1.234567]": seconds and microseconds, as Linux's printk.time. */
void format_log_time(u64 ns, char *buf, size_t size)
{
	u64 us = ns / 1000;

	scnprintf(buf, size, "[%5lu.%06lu]", (unsigned long)(us / 1000000),
		  (unsigned long)(us % 1000000));
}

static void append_line(int level, bool cont, const char *s, size_t n, bool newline)
{
	struct log_record *r = &log_buf[(log_next - 1) % LOG_RECORDS];
	size_t used;

	if (!(cont && log_next && r->open)) {
		r = &log_buf[log_next++ % LOG_RECORDS];
		r->ts_ns = ktime_get_ns();
		r->level = (u8)level;
		r->text[0] = '\0';
		cont = false;
	}
	used = strlen(r->text);
	strscpy(r->text + used, s, min(n + 1, sizeof(r->text) - used));
	r->open = !newline;
	console_emit(r, s, n, !cont, newline);
}

static int vprintk(const char *fmt, va_list ap)
{
	char buf[1024];
	const char *p = buf, *nl;
	int level = DEFAULT_LEVEL, n;
	bool cont = false;
	unsigned long flags;

	n = vscnprintf(buf, sizeof(buf), fmt, ap);
	if (p[0] == KERN_SOH[0] && p[1]) {
		if (p[1] == 'c')
			cont = true;
		else if (p[1] >= '0' && p[1] <= '7')
			level = p[1] - '0';
		p += 2;
	}
	flags = local_irq_save();
	do {
		nl = strchr(p, '\n');
		append_line(level, cont, p, nl ? (size_t)(nl - p) : strlen(p), nl != NULL);
		cont = false;
		p = nl ? nl + 1 : p + strlen(p);
	} while (*p);
	local_irq_restore(flags);
	return n;
}

int printk(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintk(fmt, ap);
	va_end(ap);
	return n;
}

u32 log_seq(void) { return log_next; }

static u32 log_first(void) { return log_next > LOG_RECORDS ? log_next - LOG_RECORDS : 0; }

bool log_search(u32 from_seq, const char *needle)
{
	for (u32 s = max(from_seq, log_first()); s < log_next; s++)
		if (strstr(log_buf[s % LOG_RECORDS].text, needle))
			return true;
	return false;
}

void log_for_each(void (*fn)(u64 ts_ns, int level, const char *text, void *arg), void *arg)
{
	for (u32 s = log_first(); s < log_next; s++) {
		const struct log_record *r = &log_buf[s % LOG_RECORDS];

		fn(r->ts_ns, r->level, r->text, arg);
	}
}

int console_get_loglevel(void) { return console_loglevel; }
