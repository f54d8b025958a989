/*
 * kthermo.c: lab 6's driver, written in the LWN article's API: nr simulated
 * thermal zones, each a class device /sys/class/kthermo/zoneN with "type"
 * and "temp" (millidegrees Celsius) to read and a writable "trip" (0-150000).
 * Events carry THERMO_ZONE and THERMO_TRIP; a new trip sends a change event.
 *
 * Lab 6 starter (docs/labs/lab6-porting.md): copy this file to
 * drivers/misc/kthermo.c. It works; port it to the newer API (struct device,
 * DEVICE_ATTR_RO/RW, ATTRIBUTE_GROUPS, dev_uevent) without changing what
 * user space reads in the files and the events.
 */
#include <kobold/device.h>
#include <kobold/errno.h>
#include <kobold/module.h>
#include <kobold/param.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#define KTHERMO_MAX 4
#define TRIP_MAX 150000

static int nr = 2;
module_param(nr, int, "number of thermal zones (0-4)");

struct kthermo_zone {
	struct class_device cdev; /* /sys/class/kthermo/zoneN */
	int index;
	int trip; /* millidegrees Celsius */
};

static struct kthermo_zone *zones[KTHERMO_MAX];

static struct kthermo_zone *to_zone(struct class_device *cd)
{
	return class_get_devdata(cd);
}

/* A simulated sensor: each zone a degree warmer than the one before. */
static ssize_t temp_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", 40000 + 1000 * to_zone(cd)->index);
}
static CLASS_DEVICE_ATTR(temp, S_IRUGO, temp_show, NULL);

static ssize_t type_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "kthermo\n");
}
static CLASS_DEVICE_ATTR(type, S_IRUGO, type_show, NULL);

static ssize_t trip_show(struct class_device *cd, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%d\n", to_zone(cd)->trip);
}

static ssize_t trip_store(struct class_device *cd, const char *buf, size_t count)
{
	int v;

	if (kstrtoint(buf, 10, &v) || v < 0 || v > TRIP_MAX)
		return -EINVAL;
	to_zone(cd)->trip = v;
	kobject_hotplug(&cd->kobj, KOBJ_CHANGE);
	return (ssize_t)count;
}
static CLASS_DEVICE_ATTR(trip, S_IRUGO | S_IWUSR, trip_show, trip_store);

static int kthermo_hotplug(struct class_device *cd, char **envp, int num_envp,
			   char *buffer, int buffer_size)
{
	int i = 0, len = 0;

	if (add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				"THERMO_ZONE=%s", cd->class_id) ||
	    add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len,
				"THERMO_TRIP=%d", to_zone(cd)->trip))
		return -ENOMEM;
	envp[i] = NULL;
	return 0;
}

static void kthermo_release(struct class_device *cd)
{
	kfree(container_of(cd, struct kthermo_zone, cdev));
}

static struct class kthermo_class = {
	.name = "kthermo",
	.owner = THIS_MODULE,
	.hotplug = kthermo_hotplug,
	.release = kthermo_release,
};

static int kthermo_create_files(struct class_device *cd)
{
	int err;

	err = class_device_create_file(cd, &class_device_attr_type);
	if (err)
		return err;
	err = class_device_create_file(cd, &class_device_attr_temp);
	if (err)
		return err;
	return class_device_create_file(cd, &class_device_attr_trip);
}

static int kthermo_add(int index)
{
	struct kthermo_zone *zone = kzalloc(sizeof(*zone));
	int err;

	if (!zone)
		return -ENOMEM;
	zone->index = index;
	zone->trip = 90000;
	class_device_initialize(&zone->cdev); /* from here on, only the release frees */
	zone->cdev.class = &kthermo_class;
	class_set_devdata(&zone->cdev, zone);
	scnprintf(zone->cdev.class_id, BUS_ID_SIZE, "zone%d", index);
	err = class_device_add(&zone->cdev);
	if (err)
		goto out_put;
	err = kthermo_create_files(&zone->cdev);
	if (err)
		goto out_del;
	zones[index] = zone;
	return 0;
out_del:
	class_device_del(&zone->cdev);
out_put:
	class_device_put(&zone->cdev);
	return err;
}

static void kthermo_remove_all(void)
{
	for (int i = KTHERMO_MAX - 1; i >= 0; i--) {
		if (!zones[i])
			continue;
		class_device_unregister(&zones[i]->cdev);
		zones[i] = NULL;
	}
}

static int kthermo_init(void)
{
	int err;

	if (nr < 0 || nr > KTHERMO_MAX)
		return -EINVAL;
	err = class_register(&kthermo_class);
	if (err)
		return err;
	for (int i = 0; i < nr; i++) {
		err = kthermo_add(i);
		if (err)
			goto out;
	}
	return 0;
out:
	kthermo_remove_all();
	class_unregister(&kthermo_class);
	return err;
}

static void kthermo_exit(void)
{
	kthermo_remove_all();
	class_unregister(&kthermo_class);
}

module_init(kthermo_init);
module_exit(kthermo_exit);
