/*
 * kled.c: lab 4's class of its own, "kled": nr virtual LEDs, each a class
 * device /sys/class/kled/ledN with a writable "brightness" (0-255). Events
 * carry LED_NAME and LED_BRIGHTNESS; a new brightness sends a change event.
 * Each LED is freed by the class's release, when its last reference goes.
 *
 * Lab 4 starter (docs/labs/lab4-own-class.md): copy this file to
 * drivers/misc/kled.c. Two TODOs are yours, and there is one bug to find.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define KLED_MAX 8

static int nr = 2;
module_param(nr, int, "number of LEDs (0-8)");

struct kled {
	struct class_device cdev; /* /sys/class/kled/ledN */
	unsigned int brightness;
};

static struct kled *leds[KLED_MAX];

static struct kled *to_kled(struct class_device *cd)
{
	return container_of(cd, struct kled, cdev);
}

static ssize_t brightness_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", to_kled(cd)->brightness);
}

static void kled_set(struct kled *led, unsigned int brightness)
{
	struct class_device *cd = class_device_get(&led->cdev);

	led->brightness = brightness;
	kobject_hotplug(&cd->kobj, KOBJ_CHANGE);
}

static ssize_t brightness_store(struct class_device *cd, const char *buf, size_t count)
{
	unsigned int v;

	if (kstrtouint(buf, 10, &v) || v > 255)
		return -EINVAL;
	kled_set(to_kled(cd), v);
	return (ssize_t)count;
}
static CLASS_DEVICE_ATTR(brightness, S_IRUGO | S_IWUSR, brightness_show, brightness_store);

static int kled_hotplug(struct class_device *cd, char **envp, int num_envp, char *buffer,
			int buffer_size)
{
	int i = 0;

	/*
	 * TODO (step 3): add LED_NAME=ledN and LED_BRIGHTNESS=N with
	 * add_hotplug_env_var(), as sbd_hotplug in drivers/block/sbd.c does.
	 */
	envp[i] = NULL;
	return 0;
}

static void kled_release(struct class_device *cd)
{
	/* TODO (step 2): free the LED. This is the only place its memory may go. */
}

static struct class kled_class = {
	.name = "kled",
	.hotplug = kled_hotplug,
	.release = kled_release,
};

static int kled_add(int index)
{
	struct kled *led = kzalloc(sizeof(*led));
	int err;

	if (!led)
		return -ENOMEM;
	class_device_initialize(&led->cdev); /* from here on, release frees */
	led->cdev.class = &kled_class;
	scnprintf(led->cdev.class_id, BUS_ID_SIZE, "led%d", index);
	err = class_device_add(&led->cdev);
	if (err)
		goto out_put;
	err = class_device_create_file(&led->cdev, &class_device_attr_brightness);
	if (err)
		goto out_del;
	leds[index] = led;
	return 0;
out_del:
	class_device_del(&led->cdev);
out_put:
	class_device_put(&led->cdev);
	return err;
}

static void kled_remove_all(void)
{
	for (int i = KLED_MAX - 1; i >= 0; i--) {
		if (!leds[i])
			continue;
		class_device_unregister(&leds[i]->cdev);
		leds[i] = NULL;
	}
}

static int kled_init(void)
{
	int err;

	if (nr < 0 || nr > KLED_MAX)
		return -EINVAL;
	err = class_register(&kled_class);
	if (err)
		return err;
	for (int i = 0; i < nr; i++) {
		err = kled_add(i);
		if (err)
			goto out;
	}
	return 0;
out:
	kled_remove_all();
	class_unregister(&kled_class);
	return err;
}

static void kled_exit(void)
{
	kled_remove_all();
	class_unregister(&kled_class);
}

module_init(kled_init);
module_exit(kled_exit);
