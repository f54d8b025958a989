/*
 * setup-res.c: addresses for BARs (Linux 2.6's drivers/pci/setup-res.c).
 * SeaBIOS places every BAR present at boot; a function QEMU adds later
 * (device_add) comes up with its BARs at 0, and we place those ourselves:
 * memory below the lowest BAR firmware used (it allocates downwards from
 * the I/O APIC at 0xfec00000), ports above the highest port it used. Each
 * BAR's range is requested in ioport_resource or iomem_resource and given
 * back when the function is removed, so the next function reuses it.
 */
#include <kobold/errno.h>
#include <kobold/ioport.h>
#include <kobold/printk.h>

#include "pci.h"

#define PCI_MEM_TOP 0xfec00000u	  /* the I/O APIC; BARs go below it */
#define PCI_MEM_FLOOR 0xe0000000u /* well above RAM in any -m we boot with */
#define PCI_IO_START 0xc000u	  /* SeaBIOS's first port for BARs */
#define PCI_IO_END 0xffffu

/* The windows for new BARs: below the lowest memory BAR firmware placed, above its highest port. */
static u64 mem_ceiling = PCI_MEM_TOP;
static u32 io_floor = PCI_IO_START;

static bool unassigned(const struct resource *res)
{
	return res->flags && res->start == 0;
}

static struct resource *root_of(const struct resource *res)
{
	return (res->flags & IORESOURCE_IO) ? &ioport_resource : &iomem_resource;
}

/* Takes the range a BAR decodes in the tree; -EBUSY if another already has it. */
static int claim(struct pci_dev *pdev, struct resource *res)
{
	res->name = pci_name(pdev);
	return request_resource(root_of(res), res);
}

/* A BAR firmware placed: claimed, and the windows for new ones kept clear of it. */
static void note_resource(struct pci_dev *pdev, struct resource *res)
{
	if (!res->flags || unassigned(res) || res->parent)
		return;
	if (claim(pdev, res))
		pr_warn("pci %s: [%#llx-%#llx]: address space taken already\n", pci_name(pdev),
			(unsigned long long)res->start, (unsigned long long)res->end);
	if ((res->flags & IORESOURCE_IO) && res->end + 1 > io_floor && res->end < PCI_IO_END)
		io_floor = (u32)res->end + 1;
	if ((res->flags & IORESOURCE_MEM) && res->end < PCI_MEM_TOP && res->start < mem_ceiling &&
	    res->start >= PCI_MEM_FLOOR)
		mem_ceiling = res->start;
}

void pci_note_resources(struct pci_dev *pdev, void *unused)
{
	for (int i = 0; i < PCI_NUM_RESOURCES; i++)
		note_resource(pdev, &pdev->resource[i]);
}

/* Ports from the bottom of their window up, memory from the top of its window down. */
static int alloc_bar(struct pci_dev *pdev, struct resource *res)
{
	u64 size = resource_size(res);

	res->name = pci_name(pdev);
	if (res->flags & IORESOURCE_IO)
		return allocate_resource(&ioport_resource, res, size, io_floor, PCI_IO_END, size,
					 false);
	return allocate_resource(&iomem_resource, res, size, PCI_MEM_FLOOR, mem_ceiling - 1, size,
				 true);
}

void pci_free_resources(struct pci_dev *pdev)
{
	for (int i = 0; i < PCI_NUM_RESOURCES; i++)
		if (pdev->resource[i].parent)
			release_resource(&pdev->resource[i]);
}

static void write_bar(struct pci_dev *pdev, int i, const struct resource *res)
{
	unsigned int reg = i == PCI_ROM_RESOURCE ? PCI_ROM_ADDRESS : PCI_BASE_ADDRESS_0 + 4 * i;
	u32 low = pci_read_config_dword(pdev, reg);

	if (i == PCI_ROM_RESOURCE)
		low = (low & ~PCI_ROM_ADDRESS_MASK) | (u32)res->start;
	else if (res->flags & IORESOURCE_IO)
		low = (low & ~PCI_BASE_ADDRESS_IO_MASK) | (u32)res->start;
	else
		low = (low & ~PCI_BASE_ADDRESS_MEM_MASK) | (u32)res->start;
	pci_write_config_dword(pdev, reg, low);
	if (res->flags & IORESOURCE_MEM_64)
		pci_write_config_dword(pdev, reg + 4, (u32)(res->start >> 32));
}

/*
 * Claims the BARs that have an address (a function removed and found
 * again keeps its own) and places those still at 0; only on bus 0, whose
 * window is the whole PCI hole. A BAR whose range is taken is placed anew.
 */
void pci_assign_unassigned(struct pci_dev *pdev)
{
	for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
		struct resource *res = &pdev->resource[i];
		int err = -EBUSY;

		if (!res->flags || res->parent || (!unassigned(res) && !claim(pdev, res)))
			continue;
		if (i == PCI_ROM_RESOURCE) { /* nobody here runs option ROMs */
			*res = (struct resource){ 0 };
			continue;
		}
		if (pdev->bus->number == 0)
			err = alloc_bar(pdev, res);
		if (err) {
			pr_warn("pci %s: BAR %d: no space for %llu bytes\n", pci_name(pdev), i,
				(unsigned long long)resource_size(res));
			*res = (struct resource){ 0 };
			continue;
		}
		write_bar(pdev, i, res);
		pr_info("pci %s: BAR %d: assigned [%#llx-%#llx]\n", pci_name(pdev), i,
			(unsigned long long)res->start, (unsigned long long)res->end);
	}
}
