/* pci.h (internal): what the files of drivers/pci share (Linux's drivers/pci/pci.h). */
#ifndef DRIVERS_PCI_PCI_H
#define DRIVERS_PCI_PCI_H

#include <kobold/pci.h>

/* probe.c */
struct pci_bus *pci_alloc_bus(struct pci_bus *parent, struct pci_dev *self, unsigned int nr);
int pci_scan_root_bus(struct device *host_bridge);
struct pci_dev *pci_get_slot(struct pci_bus *bus, unsigned int devfn);

/* setup-res.c: addresses for BARs that firmware left at 0 (hotplugged functions). */
void pci_note_resources(struct pci_dev *pdev, void *unused);
void pci_assign_unassigned(struct pci_dev *pdev);
/* Gives a removed function's BAR ranges back (pci_destroy_dev). */
void pci_free_resources(struct pci_dev *pdev);

/* remove.c: off the bus, its ranges given back, its reference dropped. */
void pci_destroy_dev(struct pci_dev *pdev);

/* irq.c: INTx routing through the PIIX and level triggering on the 8259. */
void pcibios_fixup_irq(struct pci_dev *pdev);
void pcibios_enable_irq(struct pci_dev *pdev);

/* acpiphp.c: QEMU's ACPI PCI hotplug registers. */
bool acpiphp_eject_requested(struct pci_dev *pdev);
void acpiphp_eject_slot(struct pci_bus *bus, unsigned int slot);

/* pci-sysfs.c */
extern struct device_attribute pci_dev_attrs[];
extern struct bus_attribute pci_bus_attrs[];

#endif
