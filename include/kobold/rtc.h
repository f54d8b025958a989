/* rtc.h: real-time clock times (Linux's <linux/rtc.h>): broken-down UTC, and seconds since 1970. */
#ifndef KOBOLD_RTC_H
#define KOBOLD_RTC_H

#include <kobold/device.h>
#include <kobold/types.h>

/* As struct tm: tm_mon 0-11, tm_year since 1900. */
struct rtc_time {
	int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year;
};

struct rtc_class_ops {
	int (*read_time)(struct device *dev, struct rtc_time *tm);
};

/* A clock in /sys/class/rtc (Linux 2.6.17's rtc class, with the newer struct device). */
struct rtc_device {
	struct device dev; /* rtcN, below the clock's own device */
	int id;
	const char *name; /* its driver's: the "name" file */
	const struct rtc_class_ops *ops;
};

/* Registers rtcN below dev (whose driver is name); an ERR_PTR on failure. */
struct rtc_device *rtc_device_register(const char *name, struct device *dev,
				       const struct rtc_class_ops *ops);
void rtc_device_unregister(struct rtc_device *rtc);
int rtc_class_init(void);

/* Seconds since 1970-01-01 00:00:00 UTC (Linux's rtc_tm_to_time / mktime). */
u64 rtc_tm_to_time(const struct rtc_time *tm);
/* The CMOS clock now, UTC; 0 or -EIO if it never settles (drivers/rtc/rtc-cmos.c). */
int cmos_read_time(struct rtc_time *tm);

#endif
