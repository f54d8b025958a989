/* rtc.h: real-time clock times (Linux's <linux/rtc.h>): broken-down UTC, and seconds since 1970. */
#ifndef KOBOLD_RTC_H
#define KOBOLD_RTC_H

#include <kobold/types.h>

/* As struct tm: tm_mon 0-11, tm_year since 1900. */
struct rtc_time {
	int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year;
};

/* Seconds since 1970-01-01 00:00:00 UTC (Linux's rtc_tm_to_time / mktime). */
u64 rtc_tm_to_time(const struct rtc_time *tm);
/* The CMOS clock now, UTC; 0 or -EIO if it never settles (drivers/rtc/rtc-cmos.c). */
int cmos_read_time(struct rtc_time *tm);

#endif
