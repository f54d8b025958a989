/*
 * probe.c: finding PCI functions (Linux 2.6's drivers/pci/probe.c): bus 0,
 * every slot and function on it, the buses behind PCI-PCI bridges, and the
 * size of each base address register (PCI 3.0 §6.2.5.1).
 */
#include <kobold/pci.h>

#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

#include "pci.h"

static struct pci_bus *root;

struct pci_bus *pci_root_bus(void)
{
	return root;
}

struct pci_bus *pci_alloc_bus(struct pci_bus *parent, struct pci_dev *self, unsigned int nr)
{
	struct pci_bus *bus = kzalloc(sizeof(*bus));

	if (!bus)
		return NULL;
	INIT_LIST_HEAD(&bus->devices);
	INIT_LIST_HEAD(&bus->node);
	bus->parent = parent;
	bus->self = self;
	bus->number = nr;
	bus->bridge = self ? &self->dev : NULL;
	return bus;
}

static u64 size_from_mask(u64 mask)
{
	return mask & (~mask + 1); /* the lowest bit the device lets us set */
}

static unsigned long bar_flags(u32 bar)
{
	unsigned long flags;

	if (bar & PCI_BASE_ADDRESS_SPACE_IO)
		return (bar & ~PCI_BASE_ADDRESS_IO_MASK) | IORESOURCE_IO;
	flags = (bar & ~PCI_BASE_ADDRESS_MEM_MASK) | IORESOURCE_MEM;
	if (bar & PCI_BASE_ADDRESS_MEM_PREFETCH)
		flags |= IORESOURCE_PREFETCH;
	if (bar & PCI_BASE_ADDRESS_MEM_TYPE_64)
		flags |= IORESOURCE_MEM_64;
	return flags;
}

/* Writes all ones and reads back which address bits the device decodes. */
static u32 probe_bar(struct pci_dev *pdev, unsigned int reg, u32 *orig)
{
	u32 sz;

	*orig = pci_read_config_dword(pdev, reg);
	pci_write_config_dword(pdev, reg, ~0u);
	sz = pci_read_config_dword(pdev, reg);
	pci_write_config_dword(pdev, reg, *orig);
	return sz;
}

/* Sizes BAR i; returns how many registers it used (2 for a 64-bit BAR). */
static int pci_read_base(struct pci_dev *pdev, int i)
{
	unsigned int reg = PCI_BASE_ADDRESS_0 + 4 * i;
	struct resource *res = &pdev->resource[i];
	u32 l, sz, lh = 0, szh = 0;
	u64 base, mask;

	sz = probe_bar(pdev, reg, &l);
	if (!sz || sz == ~0u)
		return 1; /* the function has no such BAR */
	res->flags = bar_flags(l) | IORESOURCE_SIZEALIGN;
	if (l & PCI_BASE_ADDRESS_SPACE_IO) {
		base = l & PCI_BASE_ADDRESS_IO_MASK;
		mask = (sz & PCI_BASE_ADDRESS_IO_MASK) | 0xffff0000u; /* 16-bit ports */
	} else {
		base = l & PCI_BASE_ADDRESS_MEM_MASK;
		mask = (u64)(sz & PCI_BASE_ADDRESS_MEM_MASK) | 0xffffffff00000000ull;
	}
	if (res->flags & IORESOURCE_MEM_64) {
		szh = probe_bar(pdev, reg + 4, &lh);
		base |= (u64)lh << 32;
		mask = (mask & 0xffffffffu) | (u64)szh << 32;
	}
	res->start = base;
	res->end = base + size_from_mask(mask) - 1;
	return res->flags & IORESOURCE_MEM_64 ? 2 : 1;
}

static void pci_read_rom(struct pci_dev *pdev, unsigned int reg)
{
	struct resource *res = &pdev->resource[PCI_ROM_RESOURCE];
	u32 l, sz;

	l = pci_read_config_dword(pdev, reg);
	pci_write_config_dword(pdev, reg, PCI_ROM_ADDRESS_MASK);
	sz = pci_read_config_dword(pdev, reg) & PCI_ROM_ADDRESS_MASK;
	pci_write_config_dword(pdev, reg, l);
	if (!sz)
		return;
	res->flags = IORESOURCE_MEM | IORESOURCE_PREFETCH | IORESOURCE_READONLY |
		     IORESOURCE_SIZEALIGN;
	res->start = l & PCI_ROM_ADDRESS_MASK;
	res->end = res->start + size_from_mask(sz) - 1;
}

/* Decoding is off while sizing: the all-ones address must not claim cycles. */
static void pci_read_bases(struct pci_dev *pdev, int howmany, unsigned int rom)
{
	u16 cmd = pci_read_config_word(pdev, PCI_COMMAND);

	pci_write_config_word(pdev, PCI_COMMAND,
			      cmd & ~(PCI_COMMAND_IO | PCI_COMMAND_MEMORY));
	for (int i = 0; i < howmany;)
		i += pci_read_base(pdev, i);
	pci_read_rom(pdev, rom);
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
}

static void pci_setup_device(struct pci_dev *pdev)
{
	u32 class = pci_read_config_dword(pdev, PCI_REVISION_ID);

	pdev->vendor = pci_read_config_word(pdev, PCI_VENDOR_ID);
	pdev->device = pci_read_config_word(pdev, PCI_DEVICE_ID);
	pdev->revision = (u8) class;
	pdev->class = class >> 8;
	pdev->hdr_type = pci_read_config_byte(pdev, PCI_HEADER_TYPE) & 0x7f;
	pdev->pin = pci_read_config_byte(pdev, PCI_INTERRUPT_PIN);
	pdev->irq = pci_read_config_byte(pdev, PCI_INTERRUPT_LINE);
	if (pdev->hdr_type == PCI_HEADER_TYPE_BRIDGE) {
		pci_read_bases(pdev, 2, PCI_ROM_ADDRESS1);
		return;
	}
	pdev->subsystem_vendor = pci_read_config_word(pdev, PCI_SUBSYSTEM_VENDOR_ID);
	pdev->subsystem_device = pci_read_config_word(pdev, PCI_SUBSYSTEM_ID);
	pci_read_bases(pdev, PCI_STD_RESOURCES, PCI_ROM_ADDRESS);
}

static void pci_release_dev(struct device *dev)
{
	kfree(to_pci_dev(dev));
}

static bool pci_function_present(unsigned int bus, unsigned int devfn)
{
	u16 vendor = (u16)pci_bus_read_config(bus, devfn, PCI_VENDOR_ID, 2);

	return vendor != 0xffff && vendor != 0;
}

struct pci_dev *pci_get_slot(struct pci_bus *bus, unsigned int devfn)
{
	struct pci_dev *pdev;

	list_for_each_entry(pdev, &bus->devices, bus_list)
		if (pdev->devfn == devfn)
			return pdev;
	return NULL;
}

/* Keeps bus->devices in devfn order, so that names follow PCI order. */
static void pci_bus_insert(struct pci_bus *bus, struct pci_dev *pdev)
{
	struct pci_dev *pos;

	list_for_each_entry(pos, &bus->devices, bus_list) {
		if (pos->devfn > pdev->devfn) {
			list_add_tail(&pdev->bus_list, &pos->bus_list);
			return;
		}
	}
	list_add_tail(&pdev->bus_list, &bus->devices);
}

static struct pci_dev *pci_scan_device(struct pci_bus *bus, unsigned int devfn)
{
	struct pci_dev *pdev = kzalloc(sizeof(*pdev));

	if (!pdev)
		return NULL;
	pdev->bus = bus;
	pdev->devfn = devfn;
	pci_setup_device(pdev);
	device_initialize(&pdev->dev);
	pdev->dev.bus = &pci_bus_type;
	pdev->dev.parent = bus->bridge;
	pdev->dev.release = pci_release_dev;
	pdev->dma_mask = pdev->dev.coherent_dma_mask = 0xffffffffull; /* 32 bits, as 2.6's default */
	snprintf(pdev->dev.bus_id, BUS_ID_SIZE, "0000:%02x:%02x.%u", bus->number,
		 PCI_SLOT(devfn), PCI_FUNC(devfn));
	pci_bus_insert(bus, pdev);
	return pdev;
}

static int pci_scan_bus(struct pci_bus *bus);

/* Firmware numbered the bus behind the bridge (SeaBIOS does); we follow it. */
static void pci_scan_bridge(struct pci_dev *pdev)
{
	unsigned int nr = pci_read_config_byte(pdev, PCI_SECONDARY_BUS);
	struct pci_bus *child;

	if (pdev->subordinate)
		return;
	if (nr <= pdev->bus->number) {
		pr_warn("pci %s: bridge without a bus number, not scanned\n", pci_name(pdev));
		return;
	}
	child = pci_alloc_bus(pdev->bus, pdev, nr);
	if (!child)
		return;
	pdev->subordinate = child;
	pci_scan_bus(child);
}

/* One new function; NULL if absent or known already. */
static struct pci_dev *pci_scan_function(struct pci_bus *bus, unsigned int devfn)
{
	struct pci_dev *pdev;

	if (!pci_function_present(bus->number, devfn) || pci_get_slot(bus, devfn))
		return NULL;
	pdev = pci_scan_device(bus, devfn);
	if (pdev)
		pcibios_fixup_irq(pdev);
	return pdev;
}

/* Functions 1-7 exist only if function 0 says it is multi-function (PCI 3.0 §6.2.1). */
static int pci_scan_slot(struct pci_bus *bus, unsigned int slot)
{
	unsigned int devfn = PCI_DEVFN(slot, 0);
	u8 hdr;
	int found = 0;

	if (!pci_function_present(bus->number, devfn))
		return 0;
	hdr = (u8)pci_bus_read_config(bus->number, devfn, PCI_HEADER_TYPE, 1);
	for (unsigned int fn = 0; fn < ((hdr & PCI_HEADER_MULTI_FUNC) ? 8 : 1); fn++)
		found += pci_scan_function(bus, devfn + fn) != NULL;
	return found;
}

/* Scans bus and, through bridges, the buses below; the number of new functions. */
static int pci_scan_bus(struct pci_bus *bus)
{
	struct pci_dev *pdev;
	int found = 0;

	for (unsigned int slot = 0; slot < 32; slot++)
		found += pci_scan_slot(bus, slot);
	list_for_each_entry(pdev, &bus->devices, bus_list) {
		if (pdev->hdr_type != PCI_HEADER_TYPE_BRIDGE)
			continue;
		if (pdev->subordinate)
			found += pci_scan_bus(pdev->subordinate);
		else
			pci_scan_bridge(pdev);
	}
	return found;
}

/* Registers, in PCI order and depth first, every function not yet registered. */
static void pci_bus_add_devices(struct pci_bus *bus)
{
	struct pci_dev *pdev, *next;
	int err;

	list_for_each_entry_safe(pdev, next, &bus->devices, bus_list) {
		if (!pdev->is_added) {
			pci_assign_unassigned(pdev);
			err = device_add(&pdev->dev);
			if (err) {
				pr_err("pci %s: device_add failed: %d\n", pci_name(pdev), err);
				pci_destroy_dev(pdev);
				continue;
			}
			pdev->is_added = true;
		}
		if (pdev->subordinate)
			pci_bus_add_devices(pdev->subordinate);
	}
}

static void for_each_dev(struct pci_bus *bus, void (*fn)(struct pci_dev *pdev, void *arg),
			 void *arg)
{
	struct pci_dev *pdev, *next;

	list_for_each_entry_safe(pdev, next, &bus->devices, bus_list) {
		fn(pdev, arg);
		if (pdev->subordinate)
			for_each_dev(pdev->subordinate, fn, arg);
	}
}

void pci_for_each_dev(void (*fn)(struct pci_dev *pdev, void *arg), void *arg)
{
	if (root)
		for_each_dev(root, fn, arg);
}

int pci_rescan_bus(void)
{
	int found;

	if (!root)
		return -ENODEV;
	found = pci_scan_bus(root);
	pci_bus_add_devices(root);
	return found;
}

int pci_scan_root_bus(struct device *host_bridge)
{
	root = pci_alloc_bus(NULL, NULL, 0);
	if (!root)
		return -ENOMEM;
	root->bridge = host_bridge;
	pci_scan_bus(root);
	pci_for_each_dev(pci_note_resources, NULL); /* what firmware placed, before we place more */
	pci_bus_add_devices(root);
	return 0;
}
