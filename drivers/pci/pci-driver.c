/*
 * pci-driver.c: the `pci` bus type (Linux 2.6's drivers/pci/pci-driver.c):
 * matching functions against drivers' id tables, probe and remove, and the
 * variables a PCI function adds to its hotplug events.
 */
#include <kobold/pci.h>

#include <kobold/errno.h>
#include <kobold/printk.h>

#include "pci.h"

static bool pci_id_matches(const struct pci_device_id *id, const struct pci_dev *pdev)
{
	return (id->vendor == PCI_ANY_ID || id->vendor == pdev->vendor) &&
	       (id->device == PCI_ANY_ID || id->device == pdev->device) &&
	       (id->subvendor == PCI_ANY_ID || id->subvendor == pdev->subsystem_vendor) &&
	       (id->subdevice == PCI_ANY_ID || id->subdevice == pdev->subsystem_device) &&
	       !((id->class ^ pdev->class) & id->class_mask);
}

/* The table ends with an entry whose vendor, subvendor and class_mask are all 0. */
const struct pci_device_id *pci_match_id(const struct pci_device_id *ids,
					 const struct pci_dev *pdev)
{
	for (; ids && (ids->vendor || ids->subvendor || ids->class_mask); ids++)
		if (pci_id_matches(ids, pdev))
			return ids;
	return NULL;
}

static int pci_bus_match(struct device *dev, struct device_driver *drv)
{
	return pci_match_id(to_pci_driver(drv)->id_table, to_pci_dev(dev)) != NULL;
}

static int pci_device_probe(struct device *dev)
{
	struct pci_driver *drv = to_pci_driver(dev->driver);
	struct pci_dev *pdev = to_pci_dev(dev);
	const struct pci_device_id *id = pci_match_id(drv->id_table, pdev);
	int err;

	if (!id || !drv->probe)
		return -ENODEV;
	get_device(dev); /* held while bound, as Linux does */
	pdev->driver = drv;
	err = drv->probe(pdev, id);
	if (err) {
		pdev->driver = NULL;
		put_device(dev);
	}
	return err;
}

static int pci_device_remove(struct device *dev)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	struct pci_driver *drv = pdev->driver;

	if (drv && drv->remove)
		drv->remove(pdev);
	pdev->driver = NULL;
	put_device(dev);
	return 0;
}

/* The keys Linux's pci_uevent adds; udev loads drivers by MODALIAS. */
static int pci_hotplug(struct device *dev, char **envp, int num_envp, char *buffer,
		       int buffer_size)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	int i = 0, len = 0, err;

#define ADD_VAR(...) add_hotplug_env_var(envp, num_envp, &i, buffer, buffer_size, &len, __VA_ARGS__)
	err = ADD_VAR("PCI_CLASS=%04X", pdev->class);
	if (!err)
		err = ADD_VAR("PCI_ID=%04X:%04X", pdev->vendor, pdev->device);
	if (!err)
		err = ADD_VAR("PCI_SUBSYS_ID=%04X:%04X", pdev->subsystem_vendor,
			      pdev->subsystem_device);
	if (!err)
		err = ADD_VAR("PCI_SLOT_NAME=%s", pci_name(pdev));
	if (!err)
		err = ADD_VAR("MODALIAS=pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X",
			      pdev->vendor, pdev->device, pdev->subsystem_vendor,
			      pdev->subsystem_device, (u8)(pdev->class >> 16),
			      (u8)(pdev->class >> 8), (u8)pdev->class);
#undef ADD_VAR
	return err;
}

struct bus_type pci_bus_type = {
	.name = "pci",
	.match = pci_bus_match,
	.hotplug = pci_hotplug,
	.dev_attrs = pci_dev_attrs,
	.bus_attrs = pci_bus_attrs,
};

int pci_register_driver(struct pci_driver *drv)
{
	drv->driver.name = drv->name;
	drv->driver.bus = &pci_bus_type;
	drv->driver.probe = pci_device_probe;
	drv->driver.remove = pci_device_remove;
	return driver_register(&drv->driver);
}

void pci_unregister_driver(struct pci_driver *drv)
{
	driver_unregister(&drv->driver);
}
