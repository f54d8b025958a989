/*
 * remove.c: taking a function out (Linux 2.6's drivers/pci/remove.c): unbind
 * its driver, unregister it (the remove event), and if QEMU asked for it
 * (device_del), let QEMU eject the slot.
 */
#include <kobold/slab.h>

#include "pci.h"

static bool slot_empty(struct pci_bus *bus, unsigned int slot)
{
	struct pci_dev *pdev;

	list_for_each_entry(pdev, &bus->devices, bus_list)
		if (PCI_SLOT(pdev->devfn) == slot)
			return false;
	return true;
}

static void pci_remove_bus(struct pci_bus *bus)
{
	/* Children before parents, last function first: the reverse of adding. */
	while (!list_empty(&bus->devices))
		pci_stop_and_remove_bus_device(list_last_entry(&bus->devices, struct pci_dev,
							       bus_list));
	kfree(bus);
}

void pci_destroy_dev(struct pci_dev *pdev)
{
	list_del_init(&pdev->bus_list);
	pci_free_resources(pdev);
	put_device(&pdev->dev);
}

void pci_stop_and_remove_bus_device(struct pci_dev *pdev)
{
	struct pci_bus *bus = pdev->bus;
	unsigned int slot = PCI_SLOT(pdev->devfn);
	bool eject = acpiphp_eject_requested(pdev);

	if (pdev->subordinate) {
		pci_remove_bus(pdev->subordinate);
		pdev->subordinate = NULL;
	}
	if (pdev->is_added)
		device_del(&pdev->dev); /* unbinds the driver; the remove event */
	pdev->is_added = false;
	pci_destroy_dev(pdev);
	if (eject && slot_empty(bus, slot))
		acpiphp_eject_slot(bus, slot);
}
