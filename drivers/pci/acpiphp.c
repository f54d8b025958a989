/*
 * acpiphp.c: PCI hotplug on QEMU's -M pc. Linux's acpiphp runs the ACPI
 * methods QEMU's tables provide; those methods only touch four registers
 * of the PIIX4 power management function (QEMU hw/acpi/pcihp.c,
 * docs/specs/acpi_pci_hotplug.rst), which we use directly. Each register
 * is a bit mask of slots on the selected bus, read and written 32 bits at
 * a time.
 */
#include <asm/io.h>
#include <kobold/printk.h>

#include "pci.h"

#define PCIHP_UP 0xae00		/* slots QEMU added (device_add) */
#define PCIHP_DOWN 0xae04	/* slots QEMU wants removed (device_del) */
#define PCIHP_EJECT 0xae08	/* write a slot's bit: QEMU unplugs it */
#define PCIHP_RMV 0xae0c	/* slots that can be hot-removed */
#define PCIHP_SEL 0xae10	/* bus select; bus 0 is 0 */

/* The registers exist only on QEMU's PIIX4 (00:01.3, 8086:7113). */
static bool pcihp_present(void)
{
	return pci_bus_read_config(0, PCI_DEVFN(1, 3), PCI_VENDOR_ID, 4) == 0x71138086;
}

/* Only bus 0's slots are QEMU-hotpluggable here: bridges' buses have other bsel numbers. */
bool acpiphp_eject_requested(struct pci_dev *pdev)
{
	if (pdev->bus->number != 0 || !pcihp_present())
		return false;
	outl(PCIHP_SEL, 0);
	return inl(PCIHP_DOWN) & (1u << PCI_SLOT(pdev->devfn));
}

void acpiphp_eject_slot(struct pci_bus *bus, unsigned int slot)
{
	if (bus->number != 0 || !pcihp_present())
		return;
	outl(PCIHP_SEL, 0);
	if (!(inl(PCIHP_RMV) & (1u << slot)))
		return;
	outl(PCIHP_EJECT, 1u << slot);
	pr_info("pci 0000:00:%02x: slot ejected\n", slot);
}
