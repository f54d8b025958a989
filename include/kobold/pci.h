/*
 * pci.h: the PCI bus (PCI Local Bus Spec 3.0): configuration space, the
 * functions found on it, and the drivers that bind to them, as Linux 2.6's
 * <linux/pci.h> names them.
 */
#ifndef KOBOLD_PCI_H
#define KOBOLD_PCI_H

#include <kobold/device.h>
#include <kobold/ioport.h>
#include <kobold/list.h>
#include <kobold/types.h>

/* Configuration space header, type 0 and 1 (PCI 3.0 §6.1, PCI-PCI bridge 1.2 §3.2). */
#define PCI_VENDOR_ID 0x00
#define PCI_DEVICE_ID 0x02
#define PCI_COMMAND 0x04
#define PCI_COMMAND_IO 0x0001
#define PCI_COMMAND_MEMORY 0x0002
#define PCI_COMMAND_MASTER 0x0004
#define PCI_COMMAND_INTX_DISABLE 0x0400
#define PCI_STATUS 0x06
#define PCI_STATUS_CAP_LIST 0x0010
#define PCI_REVISION_ID 0x08
#define PCI_CLASS_PROG 0x09
#define PCI_CLASS_DEVICE 0x0a
#define PCI_HEADER_TYPE 0x0e
#define PCI_HEADER_TYPE_NORMAL 0
#define PCI_HEADER_TYPE_BRIDGE 1
#define PCI_HEADER_MULTI_FUNC 0x80
#define PCI_BASE_ADDRESS_0 0x10
#define PCI_BASE_ADDRESS_SPACE_IO 0x01
#define PCI_BASE_ADDRESS_MEM_TYPE_64 0x04
#define PCI_BASE_ADDRESS_MEM_PREFETCH 0x08
#define PCI_BASE_ADDRESS_IO_MASK (~0x03u)
#define PCI_BASE_ADDRESS_MEM_MASK (~0x0fu)
#define PCI_PRIMARY_BUS 0x18 /* bridges */
#define PCI_SECONDARY_BUS 0x19
#define PCI_SUBORDINATE_BUS 0x1a
#define PCI_SUBSYSTEM_VENDOR_ID 0x2c
#define PCI_SUBSYSTEM_ID 0x2e
#define PCI_ROM_ADDRESS 0x30
#define PCI_ROM_ADDRESS_MASK (~0x7ffu)
#define PCI_ROM_ADDRESS1 0x38 /* bridges */
#define PCI_CAPABILITY_LIST 0x34
#define PCI_INTERRUPT_LINE 0x3c
#define PCI_INTERRUPT_PIN 0x3d

#define PCI_CAP_LIST_ID 0
#define PCI_CAP_LIST_NEXT 1
#define PCI_CAP_ID_MSI 0x05  /* MSI (PCI 3.0 §6.8.1) */
#define PCI_CAP_ID_VNDR 0x09 /* vendor specific: virtio 1.x uses these */
#define PCI_CAP_ID_MSIX 0x11 /* MSI-X (PCI 3.0 §6.8.2) */

#define PCI_CLASS_BRIDGE_PCI 0x0604

#define PCI_DEVFN(slot, func) ((((slot) & 0x1f) << 3) | ((func) & 0x07))
#define PCI_SLOT(devfn) (((devfn) >> 3) & 0x1f)
#define PCI_FUNC(devfn) ((devfn) & 0x07)

#define PCI_STD_RESOURCES 6
#define PCI_ROM_RESOURCE 6
#define PCI_NUM_RESOURCES 7

#define PCI_ANY_ID (~0u)

struct pci_device_id {
	u32 vendor, device; /* PCI_ANY_ID matches any */
	u32 subvendor, subdevice;
	u32 class, class_mask; /* (class & class_mask) must match */
	unsigned long driver_data;
};

#define PCI_DEVICE(vend, dev) \
	.vendor = (vend), .device = (dev), .subvendor = PCI_ANY_ID, .subdevice = PCI_ANY_ID

struct pci_bus;

/* One function of one device: what Linux calls a pci_dev. */
struct pci_dev {
	struct list_head bus_list; /* in bus->devices */
	struct pci_bus *bus;
	struct pci_bus *subordinate; /* the bus behind, for a bridge */
	unsigned int devfn;
	u16 vendor, device;
	u16 subsystem_vendor, subsystem_device;
	u32 class; /* base class, subclass, prog-if: 0x010000 */
	u8 revision;
	u8 hdr_type;
	u8 pin;		  /* 1 = INTA# ... 0 = none */
	unsigned int irq; /* the interrupt line (IRQ on the 8259) */
	bool is_added;	  /* registered with the device model */
	bool is_enabled;
	bool msi_enabled;      /* pdev->irq is the MSI's; irq_intx the pin's */
	unsigned int irq_intx; /* pdev->irq before pci_enable_msi, back at disable */
	bool msix_enabled;
	unsigned int msix_nvec; /* IRQs given out by pci_enable_msix */
	int *msix_irqs;
	struct resource resource[PCI_NUM_RESOURCES];
	struct resource *region[PCI_STD_RESOURCES]; /* a driver's, from pci_request_region */
	u64 dma_mask;				    /* what its streaming DMA can reach */
	struct device dev;
	struct pci_driver *driver;
};

struct pci_bus {
	struct list_head node;	  /* in the list of all buses */
	struct list_head devices; /* pci_devs, in devfn order */
	struct pci_bus *parent;
	struct pci_dev *self;  /* the bridge that leads here; NULL for bus 0 */
	struct device *bridge; /* parent of the devices in sysfs */
	unsigned int number;
};

static inline struct pci_dev *to_pci_dev(struct device *dev)
{
	return container_of(dev, struct pci_dev, dev);
}

/* "0000:00:04.0", as sysfs names the function. */
static inline const char *pci_name(const struct pci_dev *pdev)
{
	return pdev->dev.bus_id;
}

static inline void *pci_get_drvdata(struct pci_dev *pdev)
{
	return dev_get_drvdata(&pdev->dev);
}

static inline void pci_set_drvdata(struct pci_dev *pdev, void *data)
{
	dev_set_drvdata(&pdev->dev, data);
}

struct pci_driver {
	const char *name;
	const struct pci_device_id *id_table; /* ends with an all-zero entry */
	int (*probe)(struct pci_dev *pdev, const struct pci_device_id *id);
	void (*remove)(struct pci_dev *pdev);
	struct device_driver driver;
};

static inline struct pci_driver *to_pci_driver(struct device_driver *drv)
{
	return container_of(drv, struct pci_driver, driver);
}

extern struct bus_type pci_bus_type;

/* The PCI subsystem: registers the bus, enumerates bus 0 and what is behind bridges. */
int pci_init(void);

int pci_register_driver(struct pci_driver *drv);
void pci_unregister_driver(struct pci_driver *drv);
const struct pci_device_id *pci_match_id(const struct pci_device_id *ids,
					 const struct pci_dev *pdev);

/* Configuration space, mechanism #1 (drivers/pci/access.c). */
u8 pci_read_config_byte(const struct pci_dev *pdev, unsigned int where);
u16 pci_read_config_word(const struct pci_dev *pdev, unsigned int where);
u32 pci_read_config_dword(const struct pci_dev *pdev, unsigned int where);
void pci_write_config_byte(const struct pci_dev *pdev, unsigned int where, u8 val);
void pci_write_config_word(const struct pci_dev *pdev, unsigned int where, u16 val);
void pci_write_config_dword(const struct pci_dev *pdev, unsigned int where, u32 val);
u32 pci_bus_read_config(unsigned int bus, unsigned int devfn, unsigned int where, int size);
void pci_bus_write_config(unsigned int bus, unsigned int devfn, unsigned int where,
			  int size, u32 val);

/* Decoding the BARs, bus mastering (drivers/pci/pci.c). */
int pci_enable_device(struct pci_dev *pdev);
void pci_disable_device(struct pci_dev *pdev);
void pci_set_master(struct pci_dev *pdev);
void pci_clear_master(struct pci_dev *pdev);
/*
 * A driver's claim on BAR bar's range, as Linux 2.6's: a resource named
 * name below the BAR's, shown in /proc/iomem or /proc/ioports. -EBUSY if
 * another driver (or this one, not having released it) holds it.
 */
int pci_request_region(struct pci_dev *pdev, int bar, const char *name);
void pci_release_region(struct pci_dev *pdev, int bar);
/* Every BAR the function has; all or none. */
int pci_request_regions(struct pci_dev *pdev, const char *name);
void pci_release_regions(struct pci_dev *pdev);
/*
 * The addresses the function's DMA can reach (2.6's pci_set_dma_mask and
 * pci_set_consistent_dma_mask): -EIO below 24 bits (the ISA DMA's reach, as
 * 2.6 i386's dma_supported refused).
 */
int pci_set_dma_mask(struct pci_dev *pdev, u64 mask);
int pci_set_consistent_dma_mask(struct pci_dev *pdev, u64 mask);
/* Offset of the first capability with id cap at or after start (0 = from the list head). */
u8 pci_find_capability(struct pci_dev *pdev, u8 cap);
u8 pci_find_next_capability(struct pci_dev *pdev, u8 pos, u8 cap);

#define pci_resource_start(pdev, bar) ((pdev)->resource[(bar)].start)
#define pci_resource_len(pdev, bar) \
	((pdev)->resource[(bar)].end ? resource_size(&(pdev)->resource[(bar)]) : 0)
#define pci_resource_flags(pdev, bar) ((pdev)->resource[(bar)].flags)

/*
 * MSI (drivers/pci/msi.c), with the calls Linux 2.6.1 added (2.6.8's form): one message, to the
 * boot CPU's local APIC. While enabled, pdev->irq is the message's IRQ
 * (shown as PCI-MSI in /proc/interrupts) and INTx is off; pci_disable_msi,
 * after free_irq, gives the pin's IRQ back. 0, or -EINVAL (no MSI
 * capability, or MSI or MSI-X already on), -ENODEV (no local APIC), -ENOSPC.
 */
int pci_enable_msi(struct pci_dev *pdev);
void pci_disable_msi(struct pci_dev *pdev);

/* MSI-X (drivers/pci/msi.c), Linux 2.6's interface: entry is the table slot asked for. */
struct msix_entry {
	int vector; /* out: the IRQ for request_irq (Linux 2.6 called it vector too) */
	u16 entry;  /* in: which slot of the function's MSI-X table */
};
/* 0, or -EINVAL (no MSI-X), -ENODEV (no local APIC), -ENOSPC, -ENOMEM. */
int pci_enable_msix(struct pci_dev *pdev, struct msix_entry *entries, int nvec);
/* After free_irq of every vector: back to INTx. */
void pci_disable_msix(struct pci_dev *pdev);
/* Sends the message of table slot entry (IRQ irq) to that CPU's local APIC; 0 or -errno. */
int pci_msix_set_cpu(struct pci_dev *pdev, u16 entry, int irq, unsigned int cpu);

/* Enumeration and hotplug (drivers/pci/probe.c, remove.c). */
struct pci_bus *pci_root_bus(void);
void pci_for_each_dev(void (*fn)(struct pci_dev *pdev, void *arg), void *arg);
/* Finds functions not yet known, registers and binds them; the number found. */
int pci_rescan_bus(void);
void pci_stop_and_remove_bus_device(struct pci_dev *pdev);

#endif
