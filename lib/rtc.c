/* rtc.c: calendar arithmetic for real-time clocks (Linux's rtc_tm_to_time, by way of mktime). */
#include <kobold/rtc.h>

/* Gauss's algorithm, as Linux's mktime: March is month 1, so the leap day ends the year. */
u64 rtc_tm_to_time(const struct rtc_time *tm)
{
	long long year = tm->tm_year + 1900, mon = tm->tm_mon + 1;
	long long days;

	mon -= 2;
	if (mon <= 0) {
		mon += 12;
		year -= 1;
	}
	days = year / 4 - year / 100 + year / 400 + 367 * mon / 12 + tm->tm_mday + year * 365 -
	       719499;
	return (u64)(((days * 24 + tm->tm_hour) * 60 + tm->tm_min) * 60 + tm->tm_sec);
}
