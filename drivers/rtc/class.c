/*
 * class.c: the rtc class (Linux 2.6.17's drivers/rtc/class.c and
 * rtc-sysfs.c): /sys/class/rtc/rtcN with name, date, time, since_epoch and
 * hctosys, each read from the clock when the file is read (UTC).
 */
#include <kobold/rtc.h>

#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

static struct class *rtc_class;
static u32 ids_used; /* rtcN numbers in use; the lowest free one is reused */

static struct rtc_device *to_rtc_device(struct device *dev)
{
	return container_of(dev, struct rtc_device, dev);
}

static int rtc_read(struct device *dev, struct rtc_time *tm)
{
	struct rtc_device *rtc = to_rtc_device(dev);

	return rtc->ops->read_time(dev->parent, tm);
}

static ssize_t name_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n", to_rtc_device(dev)->name);
}
static DEVICE_ATTR_RO(name);

static ssize_t date_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct rtc_time tm;
	int err = rtc_read(dev, &tm);

	return err ? err : sysfs_emit(buf, "%04d-%02d-%02d\n", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
}
static DEVICE_ATTR_RO(date);

static ssize_t time_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct rtc_time tm;
	int err = rtc_read(dev, &tm);

	return err ? err : sysfs_emit(buf, "%02d:%02d:%02d\n", tm.tm_hour, tm.tm_min, tm.tm_sec);
}
static DEVICE_ATTR_RO(time);

static ssize_t since_epoch_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct rtc_time tm;
	int err = rtc_read(dev, &tm);

	return err ? err : sysfs_emit(buf, "%llu\n", (unsigned long long)rtc_tm_to_time(&tm));
}
static DEVICE_ATTR_RO(since_epoch);

/* 1: this clock set the system time at boot (rtc0 does, as CONFIG_RTC_HCTOSYS_DEVICE). */
static ssize_t hctosys_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", to_rtc_device(dev)->id == 0);
}
static DEVICE_ATTR_RO(hctosys);

static struct attribute *rtc_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_date.attr,
	&dev_attr_time.attr,
	&dev_attr_since_epoch.attr,
	&dev_attr_hctosys.attr,
	NULL,
};
ATTRIBUTE_GROUPS(rtc);

static void rtc_device_release(struct device *dev)
{
	struct rtc_device *rtc = to_rtc_device(dev);

	ids_used &= ~(1u << rtc->id);
	kfree(rtc);
}

static int rtc_alloc_id(void)
{
	for (int i = 0; i < 32; i++)
		if (!(ids_used & (1u << i))) {
			ids_used |= 1u << i;
			return i;
		}
	return -ENOSPC;
}

struct rtc_device *rtc_device_register(const char *name, struct device *dev,
				       const struct rtc_class_ops *ops)
{
	struct rtc_device *rtc;
	int id = rtc_alloc_id(), err;

	if (id < 0)
		return ERR_PTR(id);
	rtc = kzalloc(sizeof(*rtc));
	if (!rtc) {
		ids_used &= ~(1u << id);
		return ERR_PTR(-ENOMEM);
	}
	rtc->id = id;
	rtc->name = name;
	rtc->ops = ops;
	rtc->dev.release = rtc_device_release; /* from here, put_device frees it */
	device_initialize(&rtc->dev);
	rtc->dev.class = rtc_class;
	rtc->dev.parent = dev;
	snprintf(rtc->dev.bus_id, BUS_ID_SIZE, "rtc%d", id);
	err = device_add(&rtc->dev);
	if (err) {
		put_device(&rtc->dev);
		return ERR_PTR(err);
	}
	pr_info("%s %s: rtc core: registered %s as %s\n", name, dev->bus_id, name,
		rtc->dev.bus_id);
	return rtc;
}

void rtc_device_unregister(struct rtc_device *rtc)
{
	device_unregister(&rtc->dev);
}

int rtc_class_init(void)
{
	struct class *cls = class_create(THIS_MODULE, "rtc");

	if (IS_ERR(cls))
		return (int)PTR_ERR(cls); /* rtc_class stays NULL: clocks register without a class */
	rtc_class = cls;
	rtc_class->dev_groups = rtc_groups;
	return 0;
}
