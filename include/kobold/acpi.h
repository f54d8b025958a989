/* acpi.h: the few ACPI tables and events Kobold uses (ACPI 6.4). */
#ifndef KOBOLD_ACPI_H
#define KOBOLD_ACPI_H

#include <kobold/types.h>

struct acpi_header {
	char signature[4];
	u32 length;
	u8 revision, checksum;
	char oem[6], oem_table[8];
	u32 oem_rev, creator, creator_rev;
} __packed;

/* A table from the RSDT by its signature ("FACP" is the FADT), or NULL. */
const struct acpi_header *acpi_find_table(const char *sig);

/*
 * General-purpose events (GPEs): bits of the FADT's GPE0 block that
 * raise the SCI. The handler runs in the interrupt, with the event's
 * status bit already cleared; it should queue work and return.
 */
typedef void (*acpi_gpe_handler)(unsigned int gpe, void *context);
int acpi_install_gpe_handler(unsigned int gpe, acpi_gpe_handler fn, void *context);

/* /sys/firmware/acpi/namespace: the DSDT's device nodes, as 2.6.0-2.6.20 showed them. */
int acpi_scan_init(void);

/* Switches the machine to ACPI mode and takes the SCI (IRQ 9 on a PC). */
int acpi_sci_init(void);

/* PCI hotplug's GPE: QEMU's device_add and device_del (acpiphp.c). */
void acpiphp_init(void);

#endif
