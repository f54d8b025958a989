/*
 * cpu.c: the CPUs as system devices (Linux 2.6's drivers/base/cpu.c):
 * /sys/devices/system/cpu/cpuN, and its `online` file, CPU hotplug's
 * switch: 0 takes the CPU down, 1 brings it up, each with its event.
 */
#include <kobold/errno.h>
#include <kobold/kobject_uevent.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/sysdev.h>

static struct sysdev_class cpu_sysdev_class = {
	.name = "cpu",
};

static ssize_t show_online(struct sys_device *dev, char *buf)
{
	return scnprintf(buf, SYSFS_PAGE_SIZE, "%u\n", cpu_online(dev->id) ? 1 : 0);
}

/* "0" or "1", with or without a newline; anything else is refused and changes nothing. */
static ssize_t store_online(struct sys_device *dev, const char *buf, size_t count)
{
	size_t len = count && buf[count - 1] == '\n' ? count - 1 : count;
	int err;

	if (len != 1 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	if (buf[0] == '0') {
		err = cpu_down(dev->id);
		if (!err)
			kobject_hotplug(&dev->kobj, KOBJ_OFFLINE);
	} else {
		err = cpu_up(dev->id);
		if (!err)
			kobject_hotplug(&dev->kobj, KOBJ_ONLINE);
	}
	return err ? err : (ssize_t)count;
}
static SYSDEV_ATTR(online, 0600, show_online, store_online); /* 2.6's mode */

int register_cpu(struct cpu *cpu, int num)
{
	int err;

	cpu->sysdev.id = (u32)num;
	cpu->sysdev.cls = &cpu_sysdev_class;
	err = sysdev_register(&cpu->sysdev);
	if (!err && !cpu->no_control)
		err = sysdev_create_file(&cpu->sysdev, &attr_online);
	return err;
}

/*
 * The CPUs' events (add, and online/offline from the online file) carry
 * SUBSYSTEM=cpu. 2.6.10 sent events for every kobject of a kset, with
 * hotplug operations or without; Kobold keeps 2.6.0's rule (a kset sends
 * events only if it has them), so the cpu class is given empty ones: the
 * other system devices stay silent.
 */
static struct kset_hotplug_ops cpu_hotplug_ops;

int cpu_dev_init(void)
{
	int err = sysdev_class_register(&cpu_sysdev_class);

	if (!err)
		cpu_sysdev_class.kset.hotplug_ops = &cpu_hotplug_ops;
	return err;
}
