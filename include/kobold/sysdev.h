/*
 * sysdev.h: system devices (Linux 2.6's <linux/sysdev.h>): the CPU, the
 * interrupt controllers and the timer, which sit on no bus and have no
 * driver. Each class is a directory of /sys/devices/system, each device
 * a directory in it named class + id (i8259/i82590, timer/timer0). Their
 * suspend and resume run with interrupts off, after every other device's
 * suspend and before every other device's resume.
 */
#ifndef KOBOLD_SYSDEV_H
#define KOBOLD_SYSDEV_H

#include <kobold/device.h>
#include <kobold/kobject.h>

struct sys_device;

struct sysdev_class {
	const char *name; /* 2.6 set it with set_kset_name() */
	int (*shutdown)(struct sys_device *dev);
	int (*suspend)(struct sys_device *dev, pm_message_t state);
	int (*resume)(struct sys_device *dev);
	struct kset kset; /* /sys/devices/system/<name>; its list holds the devices */
};

struct sys_device {
	u32 id;
	struct sysdev_class *cls;
	struct kobject kobj;
};

struct sysdev_attribute {
	struct attribute attr;
	ssize_t (*show)(struct sys_device *dev, char *buf);
	ssize_t (*store)(struct sys_device *dev, const char *buf, size_t count);
};
#define SYSDEV_ATTR(_name, _mode, _show, _store) \
	struct sysdev_attribute attr_##_name = __ATTR(_name, _mode, _show, _store)

/* /sys/devices/system (drivers/base/sys.c's system_bus_init). */
extern struct kset system_subsys;
int system_bus_init(void);

int sysdev_class_register(struct sysdev_class *cls);
void sysdev_class_unregister(struct sysdev_class *cls);
int sysdev_register(struct sys_device *dev);
void sysdev_unregister(struct sys_device *dev);
int sysdev_create_file(struct sys_device *dev, struct sysdev_attribute *attr);
void sysdev_remove_file(struct sys_device *dev, struct sysdev_attribute *attr);

/*
 * Called by the PM core with interrupts off: classes in the reverse of
 * their registration, each class's devices in add order; a failed suspend
 * resumes the ones already suspended. Resume goes forward.
 */
int sysdev_suspend(pm_message_t state);
int sysdev_resume(void);
/* Last step of device_shutdown: every class's shutdown, classes in reverse. */
void sysdev_shutdown(void);

/* drivers/base/cpu.c: /sys/devices/system/cpu/cpuN. */
struct cpu {
	bool no_control; /* no `online` file: this CPU cannot be taken down (cpu0 on i386) */
	struct sys_device sysdev;
};
int cpu_dev_init(void);
int register_cpu(struct cpu *cpu, int num);

#endif
