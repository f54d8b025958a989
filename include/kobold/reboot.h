/* reboot.h: switching off and restarting, drivers' shutdown first (Linux's kernel_power_off, kernel_restart). */
#ifndef KOBOLD_REBOOT_H
#define KOBOLD_REBOOT_H

#include <kobold/types.h>

__noreturn void kernel_power_off(void);
__noreturn void kernel_restart(void);

#endif
