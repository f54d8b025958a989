/*
 * access.c: PCI configuration space through configuration mechanism #1
 * (PCI 3.0 §3.2.2.3.2): an address written to port 0xcf8, data at 0xcfc.
 */
#include <kobold/pci.h>

#include <asm/io.h>

#define PCI_CONF1_ADDRESS_PORT 0xcf8
#define PCI_CONF1_DATA_PORT 0xcfc
#define PCI_CONF1_ENABLE 0x80000000u

static u32 conf1_address(unsigned int bus, unsigned int devfn, unsigned int where)
{
	return PCI_CONF1_ENABLE | (bus & 0xff) << 16 | (devfn & 0xff) << 8 | (where & 0xfc);
}

/* The address and data cycles must not be split by a handler that also uses them. */
u32 pci_bus_read_config(unsigned int bus, unsigned int devfn, unsigned int where, int size)
{
	u16 port = PCI_CONF1_DATA_PORT + (where & 3);
	unsigned long flags = local_irq_save();
	u32 v;

	outl(PCI_CONF1_ADDRESS_PORT, conf1_address(bus, devfn, where));
	if (size == 1)
		v = inb(port);
	else if (size == 2)
		v = inw(port);
	else
		v = inl(PCI_CONF1_DATA_PORT);
	local_irq_restore(flags);
	return v;
}

void pci_bus_write_config(unsigned int bus, unsigned int devfn, unsigned int where,
			  int size, u32 val)
{
	u16 port = PCI_CONF1_DATA_PORT + (where & 3);
	unsigned long flags = local_irq_save();

	outl(PCI_CONF1_ADDRESS_PORT, conf1_address(bus, devfn, where));
	if (size == 1)
		outb(port, (u8)val);
	else if (size == 2)
		outw(port, (u16)val);
	else
		outl(PCI_CONF1_DATA_PORT, val);
	local_irq_restore(flags);
}

u8 pci_read_config_byte(const struct pci_dev *pdev, unsigned int where)
{
	return (u8)pci_bus_read_config(pdev->bus->number, pdev->devfn, where, 1);
}

u16 pci_read_config_word(const struct pci_dev *pdev, unsigned int where)
{
	return (u16)pci_bus_read_config(pdev->bus->number, pdev->devfn, where, 2);
}

u32 pci_read_config_dword(const struct pci_dev *pdev, unsigned int where)
{
	return pci_bus_read_config(pdev->bus->number, pdev->devfn, where, 4);
}

void pci_write_config_byte(const struct pci_dev *pdev, unsigned int where, u8 val)
{
	pci_bus_write_config(pdev->bus->number, pdev->devfn, where, 1, val);
}

void pci_write_config_word(const struct pci_dev *pdev, unsigned int where, u16 val)
{
	pci_bus_write_config(pdev->bus->number, pdev->devfn, where, 2, val);
}

void pci_write_config_dword(const struct pci_dev *pdev, unsigned int where, u32 val)
{
	pci_bus_write_config(pdev->bus->number, pdev->devfn, where, 4, val);
}
