/*
 * acpiphp.c: PCI hotplug on QEMU's -M pc. Linux's acpiphp runs the ACPI
 * methods QEMU's tables provide; those methods only touch four registers
 * of the PIIX4 power management function (QEMU hw/acpi/pcihp.c,
 * docs/specs/acpi_pci_hotplug.rst), which we use directly. Each register
 * is a bit mask of slots on the selected bus, read and written 32 bits at
 * a time. QEMU announces a device_add or device_del with general-purpose
 * event 1, which raises the SCI; the interrupt only queues work, and the
 * work scans or removes (registering devices may sleep, allocate and call
 * drivers: not things to do in an interrupt).
 */
#include <asm/io.h>
#include <kobold/acpi.h>
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/workqueue.h>

#include "pci.h"

#define PCIHP_UP 0xae00	   /* slots QEMU added (device_add) */
#define PCIHP_DOWN 0xae04  /* slots QEMU wants removed (device_del) */
#define PCIHP_EJECT 0xae08 /* write a slot's bit: QEMU unplugs it */
#define PCIHP_RMV 0xae0c   /* slots that can be hot-removed */
#define PCIHP_SEL 0xae10   /* bus select; bus 0 is 0 */

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

#define PCIHP_GPE 1 /* QEMU's GPE for PCI hotplug on bus 0 */

static bool acpiphp_disabled;
module_param_named(disable, acpiphp_disabled, bool,
		   "ignore hotplug events: only /sys/bus/pci/rescan finds new functions");

/*
 * Last function first, as a bus is taken down; the last one's removal
 * ejects the slot. A slot with nothing of ours in it (its scan or its
 * registration failed) is ejected all the same: QEMU's device_del waits
 * for the eject, whatever state the function was left in.
 */
static void remove_slot(struct pci_bus *bus, unsigned int slot)
{
	bool found = false;

	for (int fn = 7; fn >= 0; fn--) {
		struct pci_dev *pdev = pci_get_slot(bus, PCI_DEVFN(slot, fn));

		if (pdev) {
			pci_stop_and_remove_bus_device(pdev);
			found = true;
		}
	}
	if (!found)
		acpiphp_eject_slot(bus, slot);
}

static void acpiphp_check_bus(struct work_struct *work)
{
	struct pci_bus *bus = pci_root_bus();
	u32 up, down;

	if (!bus)
		return;
	outl(PCIHP_SEL, 0);
	up = inl(PCIHP_UP);
	down = inl(PCIHP_DOWN);
	pr_debug("acpiphp: hotplug event: slots added %#x, removal asked %#x\n", up, down);
	if (devmodel_trace_enabled()) {
		char what[48];

		scnprintf(what, sizeof(what), "up %#x down %#x", up, down);
		devmodel_trace("acpiphp_check_bus", "0000:00", what);
	}
	for (unsigned int slot = 0; slot < 32; slot++)
		if (down & (1u << slot))
			remove_slot(bus, slot);
	if (up)
		pci_rescan_bus();
}

static struct work_struct acpiphp_work;

/* In the SCI: the work does the rest, outside the interrupt. */
static void acpiphp_gpe(unsigned int gpe, void *context)
{
	schedule_work(&acpiphp_work);
}

void acpiphp_init(void)
{
	int err;

	if (acpiphp_disabled || !pcihp_present())
		return;
	INIT_WORK(&acpiphp_work, acpiphp_check_bus);
	err = acpi_install_gpe_handler(PCIHP_GPE, acpiphp_gpe, NULL);
	if (err)
		pr_err("acpiphp: no hotplug events (%s): use /sys/bus/pci/rescan\n",
		       kstrerror(err));
}
