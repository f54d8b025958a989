/*
 * pci.c: the PCI subsystem's start and the calls drivers make on a function
 * (Linux 2.6's drivers/pci/pci.c): enabling its BARs, bus mastering, and
 * walking its capability list (PCI 3.0 §6.7), a driver's claim on its BARs
 * and the reach of its DMA.
 */
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>

#include "pci.h"

/* Turns on decoding for each kind of BAR the function has, and its interrupt. */
int pci_enable_device(struct pci_dev *pdev)
{
	u16 cmd = pci_read_config_word(pdev, PCI_COMMAND), old = cmd;

	for (int i = 0; i < PCI_STD_RESOURCES; i++) {
		if (pdev->resource[i].flags & IORESOURCE_IO)
			cmd |= PCI_COMMAND_IO;
		if (pdev->resource[i].flags & IORESOURCE_MEM)
			cmd |= PCI_COMMAND_MEMORY;
	}
	cmd &= ~PCI_COMMAND_INTX_DISABLE;
	if (cmd != old)
		pci_write_config_word(pdev, PCI_COMMAND, cmd);
	pcibios_enable_irq(pdev);
	pdev->is_enabled = true;
	return 0;
}

void pci_disable_device(struct pci_dev *pdev)
{
	u16 cmd = pci_read_config_word(pdev, PCI_COMMAND);

	pci_write_config_word(pdev, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
	pdev->is_enabled = false;
}

/* Bus mastering lets the function reach memory (DMA); only drivers that need it ask. */
void pci_set_master(struct pci_dev *pdev)
{
	u16 cmd = pci_read_config_word(pdev, PCI_COMMAND);

	if (!(cmd & PCI_COMMAND_MASTER))
		pci_write_config_word(pdev, PCI_COMMAND, cmd | PCI_COMMAND_MASTER);
}

void pci_clear_master(struct pci_dev *pdev)
{
	u16 cmd = pci_read_config_word(pdev, PCI_COMMAND);

	pci_write_config_word(pdev, PCI_COMMAND, cmd & ~PCI_COMMAND_MASTER);
}

int pci_request_region(struct pci_dev *pdev, int bar, const char *name)
{
	struct resource *bres = &pdev->resource[bar], *res;
	int err;

	if (bar < 0 || bar >= PCI_STD_RESOURCES || !pci_resource_len(pdev, bar))
		return -EINVAL;
	res = kzalloc(sizeof(*res));
	if (!res)
		return -ENOMEM;
	*res = (struct resource){ .start = bres->start, .end = bres->end, .flags = bres->flags, .name = name };
	err = request_resource(bres, res);
	if (err) {
		pr_warn("PCI: Unable to reserve %s region #%d:%llx@%llx for device %s\n",
			(bres->flags & IORESOURCE_IO) ? "I/O" : "mem", bar + 1,
			(unsigned long long)resource_size(bres), (unsigned long long)bres->start,
			pci_name(pdev));
		kfree(res);
		return err;
	}
	pdev->region[bar] = res;
	return 0;
}

void pci_release_region(struct pci_dev *pdev, int bar)
{
	if (bar < 0 || bar >= PCI_STD_RESOURCES || !pdev->region[bar])
		return;
	release_resource(pdev->region[bar]);
	kfree(pdev->region[bar]);
	pdev->region[bar] = NULL;
}

int pci_request_regions(struct pci_dev *pdev, const char *name)
{
	int bar, err;

	for (bar = 0; bar < PCI_STD_RESOURCES; bar++) {
		if (!pci_resource_len(pdev, bar))
			continue;
		err = pci_request_region(pdev, bar, name);
		if (err)
			goto out_release;
	}
	return 0;

out_release:
	while (--bar >= 0)
		pci_release_region(pdev, bar);
	return err;
}

void pci_release_regions(struct pci_dev *pdev)
{
	for (int bar = 0; bar < PCI_STD_RESOURCES; bar++)
		pci_release_region(pdev, bar);
}

int pci_set_dma_mask(struct pci_dev *pdev, u64 mask)
{
	if (mask < 0x00ffffffull)
		return -EIO;
	pdev->dma_mask = mask;
	return 0;
}

int pci_set_consistent_dma_mask(struct pci_dev *pdev, u64 mask)
{
	if (mask < 0x00ffffffull)
		return -EIO;
	pdev->dev.coherent_dma_mask = mask;
	return 0;
}

/* The next capability with id cap after the one at pos (0: from the list head). */
u8 pci_find_next_capability(struct pci_dev *pdev, u8 pos, u8 cap)
{
	int ttl = 48; /* a looping list must not hang us */

	if (!(pci_read_config_word(pdev, PCI_STATUS) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = pos ? pci_read_config_byte(pdev, pos + PCI_CAP_LIST_NEXT)
		  : pci_read_config_byte(pdev, PCI_CAPABILITY_LIST);
	while (ttl-- && pos >= 0x40) {
		pos &= ~3;
		if (pci_read_config_byte(pdev, pos + PCI_CAP_LIST_ID) == cap)
			return pos;
		pos = pci_read_config_byte(pdev, pos + PCI_CAP_LIST_NEXT);
	}
	return 0;
}

u8 pci_find_capability(struct pci_dev *pdev, u8 cap)
{
	return pci_find_next_capability(pdev, 0, cap);
}

/* The bus, the host bridge's directory /sys/devices/pci0000:00, then every function. */
int pci_init(void)
{
	struct device *host;
	int err;

	err = bus_register(&pci_bus_type);
	if (err)
		goto out;
	host = root_device_register("pci0000:00");
	err = -ENOMEM;
	if (!host)
		goto out_bus;
	err = pci_scan_root_bus(host);
	if (err)
		goto out_root;
	return 0;

out_root:
	root_device_unregister(host);
out_bus:
	bus_unregister(&pci_bus_type);
out:
	pr_err("pci: init failed: %d\n", err);
	return err;
}
