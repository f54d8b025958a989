/*
 * rtc-cmos.c: the PC's CMOS clock (MC146818; QEMU: -rtc base=...) as the
 * rtc_cmos platform driver (Linux 2.6.21's drivers/rtc/rtc-cmos.c). The
 * probe reads the time once and says it, as Linux's hctosys does at boot,
 * and registers the clock in the rtc class (rtc0).
 */
#include <asm/io.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/platform_device.h>
#include <kobold/printk.h>
#include <kobold/rtc.h>
#include <kobold/time.h>

#define RTC_PORT_INDEX 0x70
#define RTC_PORT_DATA 0x71
#define RTC_SECONDS 0x00 /* MC146818 datasheet: registers 0-9 hold the time */
#define RTC_MINUTES 0x02
#define RTC_HOURS 0x04
#define RTC_DAY_OF_MONTH 0x07
#define RTC_MONTH 0x08
#define RTC_YEAR 0x09
#define RTC_REG_A 0x0a
#define RTC_UIP 0x80 /* an update is in progress: the registers may be torn */
#define RTC_REG_B 0x0b
#define RTC_24H 0x02
#define RTC_DM_BINARY 0x04
#define RTC_CENTURY 0x32     /* the ACPI FADT's default century register, as QEMU sets it */
#define RTC_READ_TRIES 10000 /* 100 us apart: a second */

static u8 cmos_read(u8 reg)
{
	outb(RTC_PORT_INDEX, reg);
	return inb(RTC_PORT_DATA);
}

static int bcd2bin(u8 v)
{
	return (v & 0x0f) + (v >> 4) * 10;
}

static void cmos_read_raw(u8 r[7])
{
	static const u8 regs[7] = { RTC_SECONDS, RTC_MINUTES, RTC_HOURS, RTC_DAY_OF_MONTH,
				    RTC_MONTH, RTC_YEAR, RTC_CENTURY };

	for (int i = 0; i < 7; i++)
		r[i] = cmos_read(regs[i]);
}

/* One try: the time read twice, the same, with no update in progress before either read. */
static bool cmos_read_once(u8 r[7])
{
	u8 again[7];

	if (cmos_read(RTC_REG_A) & RTC_UIP)
		return false;
	cmos_read_raw(r);
	if (cmos_read(RTC_REG_A) & RTC_UIP)
		return false;
	cmos_read_raw(again);
	return __builtin_memcmp(r, again, 7) == 0;
}

/*
 * A whole time, trying every 100 us for up to a second (an update takes
 * about 2 ms). The wait leaves the chip alone, as Linux 2.6 mdelay()s when
 * it sees an update: QEMU holds UIP until its main loop runs the clock's
 * update, and every port access takes the lock that loop needs.
 */
static int cmos_read_stable(u8 r[7])
{
	for (int n = 0; n < RTC_READ_TRIES; n++) {
		if (cmos_read_once(r))
			return 0;
		udelay(100);
	}
	return -EIO;
}

int cmos_read_time(struct rtc_time *tm)
{
	u8 r[7], b;
	int v[7], pm;

	if (cmos_read_stable(r))
		return -EIO;
	b = cmos_read(RTC_REG_B);
	pm = !(b & RTC_24H) && (r[2] & 0x80);
	r[2] &= 0x7f;
	for (int i = 0; i < 7; i++)
		v[i] = (b & RTC_DM_BINARY) ? r[i] : bcd2bin(r[i]);
	if (!(b & RTC_24H))
		v[2] = v[2] % 12 + (pm ? 12 : 0);
	tm->tm_sec = v[0];
	tm->tm_min = v[1];
	tm->tm_hour = v[2];
	tm->tm_mday = v[3];
	tm->tm_mon = v[4] - 1;
	tm->tm_year = (v[6] ? v[6] * 100 : 2000) + v[5] - 1900;
	return 0;
}

static int cmos_rtc_read_time(struct device *dev, struct rtc_time *tm)
{
	return cmos_read_time(tm);
}

static const struct rtc_class_ops cmos_rtc_ops = { .read_time = cmos_rtc_read_time };

static int cmos_probe(struct platform_device *pdev)
{
	struct rtc_device *rtc;
	struct rtc_time tm;

	if (cmos_read_time(&tm)) {
		pr_err("rtc_cmos %s: the clock does not settle\n", pdev->dev.bus_id);
		return -ENODEV;
	}
	rtc = rtc_device_register("rtc_cmos", &pdev->dev, &cmos_rtc_ops);
	if (IS_ERR(rtc))
		return (int)PTR_ERR(rtc);
	platform_set_drvdata(pdev, rtc);
	pr_info("rtc_cmos %s: setting system clock to %d-%02d-%02d %02d:%02d:%02d UTC (%llu)\n",
		pdev->dev.bus_id, tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		tm.tm_min, tm.tm_sec, (unsigned long long)rtc_tm_to_time(&tm));
	return 0;
}

static int cmos_remove(struct platform_device *pdev)
{
	rtc_device_unregister(platform_get_drvdata(pdev));
	platform_set_drvdata(pdev, NULL);
	return 0;
}

static struct platform_driver cmos_platform_driver = {
	.probe = cmos_probe,
	.remove = cmos_remove,
	.driver = { .name = "rtc_cmos" },
};

int rtc_cmos_init(void)
{
	return platform_driver_register(&cmos_platform_driver);
}
