/*
 * irq.c: legacy INTx routing on the PC (Linux 2.6's arch/i386/pci/irq.c).
 * A function's INTx# pin reaches one of the PIIX's four PIRQ lines, which
 * the PIIX routes to an ISA IRQ (PIIX3 datasheet §2.2.13, PIRQRC[A:D] at
 * 0x60-0x63). SeaBIOS writes the result into each function's interrupt
 * line register at boot; for a function hotplugged later we look it up.
 */
#include <asm/hw_irq.h>
#include <kobold/printk.h>

#include "pci.h"

#define PIIX_DEVFN PCI_DEVFN(1, 0) /* the ISA bridge on QEMU's -M pc */
#define PIIX_PIRQRC 0x60
#define PIIX_PIRQRC_DISABLE 0x80

/* The pin as seen at bus 0: each bridge rotates INTx# by slot (PCI-PCI bridge 1.2, ch. 9). */
static unsigned int swizzle_to_root(struct pci_dev *pdev, unsigned int *slot)
{
	unsigned int pin = pdev->pin;

	while (pdev->bus->self) {
		pin = ((pin - 1 + PCI_SLOT(pdev->devfn)) % 4) + 1;
		pdev = pdev->bus->self;
	}
	*slot = PCI_SLOT(pdev->devfn);
	return pin;
}

static bool piix_present(void)
{
	u16 vendor = (u16)pci_bus_read_config(0, PIIX_DEVFN, PCI_VENDOR_ID, 2);
	u16 device = (u16)pci_bus_read_config(0, PIIX_DEVFN, PCI_DEVICE_ID, 2);

	return vendor == 0x8086 && (device == 0x7000 || device == 0x7110);
}

/* QEMU's i440fx board wires slot S pin P to PIRQ (S + P - 2) mod 4, as SeaBIOS assumes. */
static int piix_lookup_irq(struct pci_dev *pdev)
{
	unsigned int slot, pin = swizzle_to_root(pdev, &slot);
	u8 route;

	if (!piix_present())
		return -1;
	route = (u8)pci_bus_read_config(0, PIIX_DEVFN, PIIX_PIRQRC + (slot + pin - 2) % 4, 1);
	if (route & PIIX_PIRQRC_DISABLE)
		return -1;
	return route & 0x0f;
}

void pcibios_fixup_irq(struct pci_dev *pdev)
{
	int irq;

	if (!pdev->pin || (pdev->irq && pdev->irq < 16))
		return;
	irq = piix_lookup_irq(pdev);
	if (irq <= 0) {
		pr_warn("pci %s: INT%c# is not routed\n", pci_name(pdev), 'A' + pdev->pin - 1);
		pdev->irq = 0;
		return;
	}
	pdev->irq = (unsigned int)irq;
	pci_write_config_byte(pdev, PCI_INTERRUPT_LINE, (u8)irq);
}

/* PCI interrupts are level-triggered and shared (PCI 3.0 §2.2.6): the 8259's ELCR or the I/O APIC pin. */
void pcibios_enable_irq(struct pci_dev *pdev)
{
	if (!pdev->pin || !pdev->irq || pdev->irq >= 16)
		return;
	set_irq_type(pdev->irq, IRQ_TYPE_LEVEL);
}
