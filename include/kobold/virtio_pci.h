/*
 * virtio_pci.h: virtio over PCI (virtio 1.1 §4.1): the vendor capabilities
 * that locate the modern structures in memory BARs (§4.1.4), and the legacy
 * I/O-port header of transitional devices (§4.1.4.8).
 */
#ifndef KOBOLD_VIRTIO_PCI_H
#define KOBOLD_VIRTIO_PCI_H

#include <kobold/pci.h>
#include <kobold/types.h>
#include <kobold/virtio.h>
#include <kobold/virtio_config.h>

#define PCI_VENDOR_ID_REDHAT_QUMRANET 0x1af4
#define VIRTIO_PCI_TRANSITIONAL_FIRST 0x1000 /* 0x1000-0x103f: transitional (§4.1.2.1) */
#define VIRTIO_PCI_TRANSITIONAL_LAST 0x103f
#define VIRTIO_PCI_MODERN_BASE 0x1040 /* 0x1040 + device id: modern only */
#define VIRTIO_PCI_MODERN_LAST 0x107f

/* struct virtio_pci_cap (§4.1.4): offsets in the vendor capability. */
#define VIRTIO_PCI_CAP_CFG_TYPE 3
#define VIRTIO_PCI_CAP_BAR 4
#define VIRTIO_PCI_CAP_OFFSET 8
#define VIRTIO_PCI_CAP_LENGTH 12
#define VIRTIO_PCI_NOTIFY_CAP_MULT 16 /* notify_off_multiplier (§4.1.4.4) */

#define VIRTIO_PCI_CAP_COMMON_CFG 1
#define VIRTIO_PCI_CAP_NOTIFY_CFG 2
#define VIRTIO_PCI_CAP_ISR_CFG 3
#define VIRTIO_PCI_CAP_DEVICE_CFG 4

/* struct virtio_pci_common_cfg (§4.1.4.3): offsets. */
#define VIRTIO_PCI_COMMON_DFSELECT 0x00 /* device_feature_select */
#define VIRTIO_PCI_COMMON_DF 0x04
#define VIRTIO_PCI_COMMON_GFSELECT 0x08 /* driver_feature_select */
#define VIRTIO_PCI_COMMON_GF 0x0c
#define VIRTIO_PCI_COMMON_MSIX 0x10
#define VIRTIO_PCI_COMMON_NUMQ 0x12
#define VIRTIO_PCI_COMMON_STATUS 0x14
#define VIRTIO_PCI_COMMON_CFGGENERATION 0x15
#define VIRTIO_PCI_COMMON_Q_SELECT 0x16
#define VIRTIO_PCI_COMMON_Q_SIZE 0x18
#define VIRTIO_PCI_COMMON_Q_MSIX 0x1a
#define VIRTIO_PCI_COMMON_Q_ENABLE 0x1c
#define VIRTIO_PCI_COMMON_Q_NOFF 0x1e
#define VIRTIO_PCI_COMMON_Q_DESCLO 0x20
#define VIRTIO_PCI_COMMON_Q_DESCHI 0x24
#define VIRTIO_PCI_COMMON_Q_AVAILLO 0x28
#define VIRTIO_PCI_COMMON_Q_AVAILHI 0x2c
#define VIRTIO_PCI_COMMON_Q_USEDLO 0x30
#define VIRTIO_PCI_COMMON_Q_USEDHI 0x34
#define VIRTIO_PCI_COMMON_SIZE 0x38

/* The legacy header in BAR0's I/O ports (§4.1.4.8). */
#define VIRTIO_PCI_HOST_FEATURES 0x00 /* 32 bits */
#define VIRTIO_PCI_GUEST_FEATURES 0x04
#define VIRTIO_PCI_QUEUE_PFN 0x08 /* ring address >> 12 */
#define VIRTIO_PCI_QUEUE_NUM 0x0c /* fixed by the device */
#define VIRTIO_PCI_QUEUE_SEL 0x0e
#define VIRTIO_PCI_QUEUE_NOTIFY 0x10
#define VIRTIO_PCI_STATUS 0x12
#define VIRTIO_PCI_ISR 0x13
#define VIRTIO_PCI_CONFIG_OFF 0x14 /* device config, with MSI-X disabled */
#define VIRTIO_PCI_QUEUE_ADDR_SHIFT 12
#define VIRTIO_PCI_VRING_ALIGN 4096

/* No MSI-X vector for the config change or a queue (§4.1.5.1.2). */
#define VIRTIO_MSI_NO_VECTOR 0xffff
#define VIRTIO_PCI_MSIX_NAME_LEN 32

/* The ISR status byte (§4.1.4.5): reading it acknowledges the interrupt. */
#define VIRTIO_PCI_ISR_QUEUE 0x1
#define VIRTIO_PCI_ISR_CONFIG 0x2

/* One virtio function on PCI, with the transport it speaks (drivers/virtio/virtio_pci_*.c). */
struct virtio_pci_device {
	struct virtio_device vdev;
	struct pci_dev *pci_dev;
	bool modern;
	u16 ioaddr;	     /* legacy: the I/O BAR */
	volatile u8 *common; /* modern: the structures in memory BARs */
	volatile u8 *isr;
	volatile u8 *device;
	volatile u8 *notify_base;
	u32 device_len, notify_len, notify_off_multiplier;
	/* MSI-X: entry 0 the config change, entry 1 + i queue i (virtio_pci_common.c). */
	bool msix_enabled;
	unsigned int msix_vectors;
	struct msix_entry *msix_entries;
	char (*msix_names)[VIRTIO_PCI_MSIX_NAME_LEN];
	struct virtqueue **msix_vqs; /* queue i, once set up: its vector's handler reads it */
	/* The transport's queue setup and teardown; msix_vec is VIRTIO_MSI_NO_VECTOR with INTx. */
	struct virtqueue *(*setup_vq)(struct virtio_pci_device *vp_dev, unsigned int index,
				      vq_callback_t *callback, const char *name, u16 msix_vec);
	/* Modern only: routes the config change to an MSI-X entry; false if the device refused. */
	bool (*config_vector)(struct virtio_pci_device *vp_dev, u16 vector);
	void (*del_vq)(struct virtqueue *vq);
	u8 (*read_isr)(struct virtio_pci_device *vp_dev);
};

static inline struct virtio_pci_device *to_vp_device(struct virtio_device *vdev)
{
	return container_of(vdev, struct virtio_pci_device, vdev);
}

/* What each transport keeps per queue (vq->priv). */
struct virtio_pci_vq_info {
	void *pages;
	unsigned int npages;
	volatile u16 *notify_addr; /* modern */
	int msix_irq;		   /* its MSI-X IRQ, or -1 */
	u16 msix_entry;		   /* and its slot in the MSI-X table */
};

/* 0 if the function speaks that transport (it then fills vp_dev), else -ENODEV. */
int virtio_pci_modern_probe(struct virtio_pci_device *vp_dev);
/* Unmaps the modern structures (each may be NULL); for the device's release. */
void vp_modern_unmap(struct virtio_pci_device *vp_dev);
int virtio_pci_legacy_probe(struct virtio_pci_device *vp_dev);
/* Shared by both: rings in whole pages, and queue teardown. */
int vp_find_vqs(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
		vq_callback_t *callbacks[], const char *const names[]);
void vp_del_vqs(struct virtio_device *vdev);
int vp_set_vq_affinity(struct virtqueue *vq, unsigned int cpu);
void *vp_alloc_ring(unsigned int num, unsigned long align, struct virtio_pci_vq_info *info);
void vp_free_ring(struct virtio_pci_vq_info *info);

/* Registers the virtio-pci driver on the pci bus (from virtio_init). */
int virtio_pci_init(void);

#endif
