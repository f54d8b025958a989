/* cpu.c: the CPUs as system devices (Linux 2.6's drivers/base/cpu.c): /sys/devices/system/cpu/cpuN. */
#include <kobold/sysdev.h>

static struct sysdev_class cpu_sysdev_class = {
	.name = "cpu",
};

int register_cpu(struct cpu *cpu, int num)
{
	cpu->sysdev.id = (u32)num;
	cpu->sysdev.cls = &cpu_sysdev_class;
	return sysdev_register(&cpu->sysdev);
}

int cpu_dev_init(void)
{
	return sysdev_class_register(&cpu_sysdev_class);
}
