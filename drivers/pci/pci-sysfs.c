/*
 * pci-sysfs.c: the files of /sys/devices/pci0000:00/0000:BB:DD.F and of
 * /sys/bus/pci (Linux 2.6's drivers/pci/pci-sysfs.c), in Linux's formats.
 */
#include <kobold/errno.h>
#include <kobold/string.h>

#include "pci.h"

#define pci_config_attr(field, fmt)                                         \
	static ssize_t field##_show(struct device *dev,                     \
				    struct device_attribute *attr __unused, \
				    char *buf)                              \
	{                                                                   \
		return scnprintf(buf, SYSFS_PAGE_SIZE, fmt "\n",            \
				 to_pci_dev(dev)->field);                   \
	}

pci_config_attr(vendor, "0x%04x")
	pci_config_attr(device, "0x%04x")
		pci_config_attr(subsystem_vendor, "0x%04x")
			pci_config_attr(subsystem_device, "0x%04x")
				pci_config_attr(revision, "0x%02x")
					pci_config_attr(class, "0x%06x")
						pci_config_attr(irq, "%u")

	/* One line per BAR, then the ROM: start, end, flags. */
	static ssize_t resource_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	struct pci_dev *pdev = to_pci_dev(dev);
	size_t len = 0;

	for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
		const struct resource *r = &pdev->resource[i];

		len += scnprintf(buf + len, SYSFS_PAGE_SIZE - len,
				 "0x%016llx 0x%016llx 0x%016llx\n",
				 (unsigned long long)r->start, (unsigned long long)r->end,
				 (unsigned long long)r->flags);
	}
	return (ssize_t)len;
}

/* Linux's modalias file holds the same string as the MODALIAS event key. */
static ssize_t modalias_show(struct device *dev, struct device_attribute *attr __unused, char *buf)
{
	struct pci_dev *pdev = to_pci_dev(dev);

	return scnprintf(buf, SYSFS_PAGE_SIZE, "pci:v%08Xd%08Xsv%08Xsd%08Xbc%02Xsc%02Xi%02X\n",
			 pdev->vendor, pdev->device, pdev->subsystem_vendor,
			 pdev->subsystem_device, (u8)(pdev->class >> 16),
			 (u8)(pdev->class >> 8), (u8)pdev->class);
}

/* Writing a nonzero number unbinds and unregisters the function. */
static ssize_t remove_store(struct device *dev, struct device_attribute *attr __unused,
			    const char *buf, size_t count)
{
	unsigned long val;

	if (kstrtoul(buf, 0, &val))
		return -EINVAL;
	if (val && to_pci_dev(dev)->is_added)
		pci_stop_and_remove_bus_device(to_pci_dev(dev));
	return (ssize_t)count;
}

struct device_attribute pci_dev_attrs[] = {
	__ATTR_RO(vendor),
	__ATTR_RO(device),
	__ATTR_RO(subsystem_vendor),
	__ATTR_RO(subsystem_device),
	__ATTR_RO(revision),
	__ATTR_RO(class),
	__ATTR_RO(irq),
	__ATTR_RO(resource),
	__ATTR_RO(modalias),
	__ATTR(remove, S_IWUSR, NULL, remove_store),
	__ATTR_NULL,
};

/* Writing a nonzero number finds functions added since (QEMU's device_add). */
static ssize_t rescan_store(struct bus_type *bus, const char *buf, size_t count)
{
	unsigned long val;

	if (kstrtoul(buf, 0, &val))
		return -EINVAL;
	if (val)
		pci_rescan_bus();
	return (ssize_t)count;
}

struct bus_attribute pci_bus_attrs[] = {
	__ATTR(rescan, S_IWUSR, NULL, rescan_store),
	__ATTR_NULL,
};
