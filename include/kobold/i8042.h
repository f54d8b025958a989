/* i8042.h: a filter on the PS/2 controller's keyboard bytes (Linux 2.6.33's i8042_install_filter). */
#ifndef KOBOLD_I8042_H
#define KOBOLD_I8042_H

#include <kobold/serio.h>
#include <kobold/types.h>

/*
 * The filter sees each keyboard byte in i8042's interrupt handler, with the
 * controller's status, before the port's driver (atkbd) does; returning true
 * drops the byte. One filter at a time: a second install fails with -EBUSY;
 * after i8042_remove_filter returns, the filter is not running and never runs.
 */
typedef bool (*i8042_filter_t)(unsigned char data, unsigned char str, struct serio *serio);

int i8042_install_filter(i8042_filter_t filter);
int i8042_remove_filter(i8042_filter_t filter);

#endif
