/* panic.h: stopping the machine, and how QEMU reports the outcome to the host. */
#ifndef KOBOLD_PANIC_H
#define KOBOLD_PANIC_H

#include <kobold/types.h>

/*
 * QEMU's isa-debug-exit device (port 0xf4) exits with (value << 1) | 1.
 * Exactly one value means success; anything else, a triple fault's plain
 * exit included, is a failure to the test harness.
 */
#define DEBUG_EXIT_PORT 0xf4
#define EXIT_SUCCESS_CODE 0x10 /* QEMU exits with 33 */
#define EXIT_FAILURE_CODE 0x11 /* QEMU exits with 35 */

__noreturn void panic(const char *fmt, ...) __printf(1, 2);
__noreturn void qemu_exit(u8 code);
__noreturn void machine_power_off(void);
__noreturn void machine_restart(void);

#endif
