/*
 * msi.c: MSI (PCI 3.0 §6.8.1) and MSI-X (§6.8.2). MSI's capability holds
 * one message's address and data in configuration space. MSI-X's capability names a table in one of
 * the function's memory BARs; each entry holds the address and data of one
 * message, which the function writes to raise that interrupt. We point
 * every entry at the boot CPU's local APIC with a vector of its own (Intel
 * SDM vol. 3, 10.11: address 0xfee<dest>000, data = the vector, fixed
 * delivery, edge); a driver may send one to another CPU (pci_msix_set_cpu).
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/pci.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/smp.h>

#define PCI_MSI_FLAGS 2 /* message control */
#define PCI_MSI_FLAGS_ENABLE 0x0001
#define PCI_MSI_FLAGS_QSIZE 0x0070 /* multiple message enable: 0 = one */
#define PCI_MSI_FLAGS_64BIT 0x0080
#define PCI_MSI_ADDRESS_LO 4
#define PCI_MSI_ADDRESS_HI 8 /* 64-bit capable functions only */
#define PCI_MSI_DATA_32 8
#define PCI_MSI_DATA_64 12

#define PCI_MSIX_FLAGS 2	    /* message control */
#define PCI_MSIX_FLAGS_QSIZE 0x07ff /* table size - 1 */
#define PCI_MSIX_FLAGS_MASKALL 0x4000
#define PCI_MSIX_FLAGS_ENABLE 0x8000
#define PCI_MSIX_TABLE 4 /* BIR in bits 2:0, offset in the rest */
#define PCI_MSIX_TABLE_BIR 0x7
#define PCI_MSIX_ENTRY_SIZE 16
#define PCI_MSIX_ENTRY_LOWER_ADDR 0
#define PCI_MSIX_ENTRY_UPPER_ADDR 4
#define PCI_MSIX_ENTRY_DATA 8
#define PCI_MSIX_ENTRY_VECTOR_CTRL 12
#define PCI_MSIX_ENTRY_CTRL_MASKBIT 1

/* The table, mapped (ioremap), if its BAR is memory we can reach; else NULL. */
static volatile u32 *msix_table(struct pci_dev *pdev, u8 pos, unsigned int size)
{
	u32 t = pci_read_config_dword(pdev, pos + PCI_MSIX_TABLE);
	const struct resource *res = &pdev->resource[t & PCI_MSIX_TABLE_BIR];
	u32 off = t & ~PCI_MSIX_TABLE_BIR;

	if ((t & PCI_MSIX_TABLE_BIR) >= PCI_STD_RESOURCES || !(res->flags & IORESOURCE_MEM) ||
	    !res->start || (u64)off + size * PCI_MSIX_ENTRY_SIZE > resource_size(res) ||
	    res->start + off > 0xffffffffull)
		return NULL;
	return ioremap((unsigned long)(res->start + off), size * PCI_MSIX_ENTRY_SIZE);
}

static void msix_write_entry(volatile u32 *table, unsigned int entry, int irq, unsigned int apicid)
{
	volatile u32 *e = table + entry * PCI_MSIX_ENTRY_SIZE / 4;

	e[PCI_MSIX_ENTRY_LOWER_ADDR / 4] = MSI_ADDR_BASE | apicid << 12;
	e[PCI_MSIX_ENTRY_UPPER_ADDR / 4] = 0;
	e[PCI_MSIX_ENTRY_DATA / 4] = irq_to_vector(irq);
	e[PCI_MSIX_ENTRY_VECTOR_CTRL / 4] = 0; /* unmasked */
}

static void msix_free_irqs(struct pci_dev *pdev)
{
	for (unsigned int i = 0; i < pdev->msix_nvec; i++)
		destroy_irq(pdev->msix_irqs[i]);
	kfree(pdev->msix_irqs);
	pdev->msix_irqs = NULL;
	pdev->msix_nvec = 0;
}

static int msix_alloc_irqs(struct pci_dev *pdev, struct msix_entry *entries, int nvec)
{
	pdev->msix_irqs = kzalloc((size_t)nvec * sizeof(int));
	if (!pdev->msix_irqs)
		return -ENOMEM;
	for (int i = 0; i < nvec; i++) {
		int irq = create_irq();

		if (irq < 0) {
			msix_free_irqs(pdev);
			return irq;
		}
		pdev->msix_irqs[pdev->msix_nvec++] = irq;
		entries[i].vector = irq;
	}
	return 0;
}

int pci_enable_msix(struct pci_dev *pdev, struct msix_entry *entries, int nvec)
{
	u8 pos = pci_find_capability(pdev, PCI_CAP_ID_MSIX);
	u16 ctrl;
	volatile u32 *table;
	int err;

	if (!pos || nvec < 1 || pdev->msix_enabled || pdev->msi_enabled)
		return -EINVAL;
	if (!apic_present())
		return -ENODEV;
	ctrl = pci_read_config_word(pdev, pos + PCI_MSIX_FLAGS);
	table = msix_table(pdev, pos, (ctrl & PCI_MSIX_FLAGS_QSIZE) + 1u);
	if (!table)
		return -EINVAL;
	err = -EINVAL;
	for (int i = 0; i < nvec; i++)
		if (entries[i].entry > (ctrl & PCI_MSIX_FLAGS_QSIZE))
			goto out_unmap;
	err = msix_alloc_irqs(pdev, entries, nvec);
	if (err)
		goto out_unmap;
	/* Enabled but all masked while the entries are written (§6.8.2.3). */
	pci_write_config_word(pdev, pos + PCI_MSIX_FLAGS,
			      ctrl | PCI_MSIX_FLAGS_ENABLE | PCI_MSIX_FLAGS_MASKALL);
	for (int i = 0; i < nvec; i++)
		msix_write_entry(table, entries[i].entry, entries[i].vector, cpu_to_apicid(0));
	pci_write_config_word(pdev, pos + PCI_MSIX_FLAGS,
			      (ctrl | PCI_MSIX_FLAGS_ENABLE) & ~PCI_MSIX_FLAGS_MASKALL);
	pdev->msix_enabled = true;
out_unmap:
	iounmap(table); /* the entries are written once, here */
	return err;
}

/*
 * The entry is masked while its address changes (PCI 3.0 §6.8.2.9: software
 * must not change an unmasked entry), then written whole and unmasked.
 */
int pci_msix_set_cpu(struct pci_dev *pdev, u16 entry, int irq, unsigned int cpu)
{
	u8 pos = pci_find_capability(pdev, PCI_CAP_ID_MSIX);
	volatile u32 *table;
	u16 ctrl;

	if (!pdev->msix_enabled || !pos || !cpu_online(cpu))
		return -EINVAL;
	ctrl = pci_read_config_word(pdev, pos + PCI_MSIX_FLAGS);
	if (entry > (ctrl & PCI_MSIX_FLAGS_QSIZE))
		return -EINVAL;
	table = msix_table(pdev, pos, (ctrl & PCI_MSIX_FLAGS_QSIZE) + 1u);
	if (!table)
		return -EINVAL;
	table[entry * PCI_MSIX_ENTRY_SIZE / 4 + PCI_MSIX_ENTRY_VECTOR_CTRL / 4] =
		PCI_MSIX_ENTRY_CTRL_MASKBIT;
	msix_write_entry(table, entry, irq, cpu_to_apicid(cpu));
	iounmap(table);
	irq_affinity_set_by_driver((unsigned int)irq, cpu);
	return 0;
}

void pci_disable_msix(struct pci_dev *pdev)
{
	u8 pos = pci_find_capability(pdev, PCI_CAP_ID_MSIX);
	u16 ctrl;

	if (!pdev->msix_enabled || !pos)
		return;
	ctrl = pci_read_config_word(pdev, pos + PCI_MSIX_FLAGS);
	pci_write_config_word(pdev, pos + PCI_MSIX_FLAGS, ctrl & ~PCI_MSIX_FLAGS_ENABLE);
	msix_free_irqs(pdev);
	pdev->msix_enabled = false;
}

static void pci_intx(struct pci_dev *pdev, bool on)
{
	u16 cmd = pci_read_config_word(pdev, PCI_COMMAND);

	cmd = on ? cmd & ~PCI_COMMAND_INTX_DISABLE : cmd | PCI_COMMAND_INTX_DISABLE;
	pci_write_config_word(pdev, PCI_COMMAND, cmd);
}

/* The message: the boot CPU's local APIC, the IRQ's vector; the data's place follows the address's width. */
static void msi_write_msg(struct pci_dev *pdev, u8 pos, u16 ctrl, int irq)
{
	pci_write_config_dword(pdev, pos + PCI_MSI_ADDRESS_LO, MSI_ADDR_BASE | cpu_to_apicid(0) << 12);
	if (ctrl & PCI_MSI_FLAGS_64BIT) {
		pci_write_config_dword(pdev, pos + PCI_MSI_ADDRESS_HI, 0);
		pci_write_config_word(pdev, pos + PCI_MSI_DATA_64, (u16)irq_to_vector(irq));
	} else {
		pci_write_config_word(pdev, pos + PCI_MSI_DATA_32, (u16)irq_to_vector(irq));
	}
}

int pci_enable_msi(struct pci_dev *pdev)
{
	u8 pos = pci_find_capability(pdev, PCI_CAP_ID_MSI);
	u16 ctrl;
	int irq;

	if (!pos || pdev->msi_enabled || pdev->msix_enabled)
		return -EINVAL;
	if (!apic_present())
		return -ENODEV;
	irq = create_msi_irq();
	if (irq < 0)
		return irq;
	ctrl = pci_read_config_word(pdev, pos + PCI_MSI_FLAGS);
	msi_write_msg(pdev, pos, ctrl, irq);
	ctrl &= ~PCI_MSI_FLAGS_QSIZE; /* one message, whatever the function could send */
	pci_write_config_word(pdev, pos + PCI_MSI_FLAGS, ctrl | PCI_MSI_FLAGS_ENABLE);
	pci_intx(pdev, false);
	pdev->irq_intx = pdev->irq;
	pdev->irq = (unsigned int)irq;
	pdev->msi_enabled = true;
	return 0;
}

/* After free_irq (destroy_irq warns of a handler left on the line, and takes it off). */
void pci_disable_msi(struct pci_dev *pdev)
{
	u8 pos = pci_find_capability(pdev, PCI_CAP_ID_MSI);
	u16 ctrl;

	if (!pdev->msi_enabled || !pos)
		return;
	ctrl = pci_read_config_word(pdev, pos + PCI_MSI_FLAGS);
	pci_write_config_word(pdev, pos + PCI_MSI_FLAGS, ctrl & ~PCI_MSI_FLAGS_ENABLE);
	pci_intx(pdev, true);
	destroy_irq((int)pdev->irq);
	pdev->irq = pdev->irq_intx;
	pdev->msi_enabled = false;
}
