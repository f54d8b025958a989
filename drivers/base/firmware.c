/* firmware.c: /sys/firmware, where firmware interfaces hang their ksets (Linux 2.6's drivers/base/firmware.c). */
#include <kobold/device.h>

struct kset firmware_subsys;

/* A firmware's kset, as /sys/firmware/<name> (2.6: /sys/firmware/acpi). */
int firmware_register(struct kset *s)
{
	s->kobj.parent = &firmware_subsys.kobj;
	return kset_register(s);
}

int firmware_init(void)
{
	kobject_set_name(&firmware_subsys.kobj, "firmware");
	return kset_register(&firmware_subsys);
}
