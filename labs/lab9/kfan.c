/*
 * kfan.c: lab 9's fan controller: a controller (platform device "kfan")
 * and its two fans ("kfan-fan.0", ".1"), each with a "speed" file in rpm.
 * It works, but has no power management: copy it to drivers/misc/kfan.c,
 * add suspend and resume, and get the order right
 * (docs/labs/lab9-power-management.md). The chip is simulated: as a real
 * one, it forgets the fans' speeds when its power goes.
 */
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/platform_device.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define NR_FANS 2
#define MAX_RPM 10000

static int stuck = -1;
module_param(stuck, int, "a fan (0 or 1) that will not stop, so its suspend fails");

/* The chip: a register per fan, and its power. `trace on` shows what it is told. */
static struct {
	bool powered;
	unsigned int rpm[NR_FANS];
} chip;

static void chip_power(bool on)
{
	chip.powered = on;
	if (!on)
		memset(chip.rpm, 0, sizeof(chip.rpm)); /* the registers lose their contents */
	devmodel_trace("kfan_chip", "power", on ? "on" : "off");
}

static int chip_read(int fan)
{
	return chip.powered ? (int)chip.rpm[fan] : -EIO;
}

static int chip_write(int fan, unsigned int rpm)
{
	char what[8], val[16];

	if (!chip.powered)
		return -EIO;
	if (rpm == 0 && fan == stuck)
		return -EBUSY;
	chip.rpm[fan] = rpm;
	snprintf(what, sizeof(what), "fan%d", fan);
	snprintf(val, sizeof(val), "%u rpm", rpm);
	devmodel_trace("kfan_chip", what, val);
	return 0;
}

/* The fans: platform devices below the controller, driven by "kfan-fan". */
struct kfan_fan {
	unsigned int saved; /* TODO: the speed, while suspended */
};

static ssize_t speed_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	int rpm = chip_read(to_platform_device(dev)->id);

	return rpm < 0 ? rpm : sysfs_emit(buf, "%d\n", rpm);
}

static ssize_t speed_store(struct device *dev, struct device_attribute *attr, const char *buf,
			   size_t count)
{
	unsigned int rpm;
	int err;

	if (kstrtouint(buf, 10, &rpm) || rpm > MAX_RPM)
		return -EINVAL;
	err = chip_write(to_platform_device(dev)->id, rpm);
	return err ? err : (ssize_t)count;
}
static DEVICE_ATTR_RW(speed);

static int fan_probe(struct platform_device *pdev)
{
	struct kfan_fan *fan = kzalloc(sizeof(*fan));
	int err;

	if (!fan)
		return -ENOMEM;
	platform_set_drvdata(pdev, fan);
	err = device_create_file(&pdev->dev, &dev_attr_speed);
	if (err) {
		platform_set_drvdata(pdev, NULL);
		kfree(fan);
	}
	return err;
}

static int fan_remove(struct platform_device *pdev)
{
	device_remove_file(&pdev->dev, &dev_attr_speed);
	kfree(platform_get_drvdata(pdev));
	platform_set_drvdata(pdev, NULL);
	return 0;
}

static struct platform_driver fan_driver = {
	.driver = { .name = "kfan-fan" },
	.probe = fan_probe,
	.remove = fan_remove,
	/* TODO: .suspend stops the fan and keeps its speed; .resume sets it again. */
};

/* The controller: "kfan". */
static struct platform_device *ctl_device;
static struct platform_device *fans[NR_FANS];

static int ctl_probe(struct platform_device *pdev)
{
	chip_power(true);
	return 0;
}

static int ctl_remove(struct platform_device *pdev)
{
	chip_power(false);
	return 0;
}

static struct platform_driver ctl_driver = {
	.driver = { .name = "kfan" },
	.probe = ctl_probe,
	.remove = ctl_remove,
	/* TODO: .suspend powers the chip off; .resume powers it on. */
};

static void remove_fans(void)
{
	for (int i = NR_FANS - 1; i >= 0; i--) {
		platform_device_unregister(fans[i]);
		fans[i] = NULL;
	}
}

static int add_fans(void)
{
	for (int i = 0; i < NR_FANS; i++) {
		fans[i] = platform_device_register_simple("kfan-fan", i, NULL, 0);
		if (!fans[i]) {
			remove_fans();
			return -ENOMEM;
		}
	}
	return 0;
}

static int kfan_init(void)
{
	int err = platform_driver_register(&fan_driver);

	if (err)
		return err;
	err = platform_driver_register(&ctl_driver);
	if (err)
		goto out_fan_driver;
	err = add_fans();
	if (err)
		goto out_ctl_driver;
	ctl_device = platform_device_register_simple("kfan", -1, NULL, 0);
	if (!ctl_device) {
		err = -ENOMEM;
		goto out_fans;
	}
	return 0;

out_fans:
	remove_fans();
out_ctl_driver:
	platform_driver_unregister(&ctl_driver);
out_fan_driver:
	platform_driver_unregister(&fan_driver);
	return err;
}

static void kfan_exit(void)
{
	platform_device_unregister(ctl_device);
	remove_fans();
	platform_driver_unregister(&ctl_driver);
	platform_driver_unregister(&fan_driver);
}

module_init(kfan_init);
module_exit(kfan_exit);
