/*
 * setup-res.c: addresses for BARs (Linux 2.6's drivers/pci/setup-res.c).
 * SeaBIOS places every BAR present at boot; a function QEMU adds later
 * (device_add) comes up with its BARs at 0, and we place those ourselves:
 * memory below the lowest BAR firmware used (it allocates downwards from
 * the I/O APIC at 0xfec00000), ports above the highest port it used.
 */
#include <kobold/printk.h>

#include "pci.h"

#define PCI_MEM_TOP 0xfec00000u	  /* the I/O APIC; BARs go below it */
#define PCI_MEM_FLOOR 0xe0000000u /* well above RAM in any -m we boot with */
#define PCI_IO_START 0xc000u	  /* SeaBIOS's first port for BARs */
#define PCI_IO_END 0xffffu

static u64 mem_next = PCI_MEM_TOP; /* next memory BAR ends below this */
static u32 io_next = PCI_IO_START; /* next I/O BAR starts at or above this */

static bool unassigned(const struct resource *res)
{
	return res->flags && res->start == 0;
}

/* Records a BAR firmware placed, so that new ones do not overlap it. */
static void note_resource(const struct resource *res)
{
	if (!res->flags || unassigned(res))
		return;
	if ((res->flags & IORESOURCE_IO) && res->end + 1 > io_next && res->end < PCI_IO_END)
		io_next = (u32)res->end + 1;
	if ((res->flags & IORESOURCE_MEM) && res->end < PCI_MEM_TOP && res->start < mem_next &&
	    res->start >= PCI_MEM_FLOOR)
		mem_next = res->start;
}

void pci_note_resources(struct pci_dev *pdev, void *unused)
{
	for (int i = 0; i < PCI_NUM_RESOURCES; i++)
		note_resource(&pdev->resource[i]);
}

static int alloc_io(struct resource *res)
{
	u64 size = resource_size(res);
	u64 start = ALIGN_UP((u64)io_next, size);

	if (start + size - 1 > PCI_IO_END)
		return -1;
	res->start = start;
	res->end = start + size - 1;
	io_next = (u32)res->end + 1;
	return 0;
}

static int alloc_mem(struct resource *res)
{
	u64 size = resource_size(res);
	u64 start;

	if (size > mem_next - PCI_MEM_FLOOR)
		return -1;
	start = ALIGN_DOWN(mem_next - size, size);
	if (start < PCI_MEM_FLOOR)
		return -1;
	res->start = start;
	res->end = start + size - 1;
	mem_next = start;
	return 0;
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

/* Places the BARs still at 0; only on bus 0, whose window is the whole PCI hole. */
void pci_assign_unassigned(struct pci_dev *pdev)
{
	for (int i = 0; i < PCI_NUM_RESOURCES; i++) {
		struct resource *res = &pdev->resource[i];
		int err;

		if (!unassigned(res))
			continue;
		if (i == PCI_ROM_RESOURCE) { /* nobody here runs option ROMs */
			*res = (struct resource){ 0 };
			continue;
		}
		err = -1;
		if (pdev->bus->number == 0)
			err = (res->flags & IORESOURCE_IO) ? alloc_io(res) : alloc_mem(res);
		if (err) {
			pr_warn("pci %s: BAR %d: no space for %llu bytes\n", pci_name(pdev), i,
				(unsigned long long)resource_size(res));
			res->start = res->end = 0;
			res->flags = 0;
			continue;
		}
		write_bar(pdev, i, res);
		pr_info("pci %s: BAR %d: assigned [%#llx-%#llx]\n", pci_name(pdev), i,
			(unsigned long long)res->start, (unsigned long long)res->end);
	}
}
