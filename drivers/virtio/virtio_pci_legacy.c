/*
 * virtio_pci_legacy.c: the legacy virtio PCI interface (virtio 1.1
 * §4.1.4.8; QEMU: -device virtio-blk-pci,disable-modern=on), a header of
 * registers in the function's I/O BAR 0. Queues have the size the device
 * says and one address: the ring's page number, its used ring 4096-aligned.
 */
#include <kobold/virtio_pci.h>

#include <asm/io.h>
#include <asm/page.h>
#include <kobold/errno.h>
#include <kobold/slab.h>
#include <kobold/virtio_ring.h>

static u16 port(struct virtio_device *vdev, unsigned int reg)
{
	return (u16)(to_vp_device(vdev)->ioaddr + reg);
}

/*
 * Device configuration follows the header (no MSI-X fields: the legacy
 * interface takes INTx only here, so the header keeps its 20 bytes).
 */
static void vp_get(struct virtio_device *vdev, unsigned int offset, void *buf, unsigned int len)
{
	u8 *p = buf;

	for (unsigned int i = 0; i < len; i++)
		p[i] = inb(port(vdev, VIRTIO_PCI_CONFIG_OFF + offset + i));
}

static void vp_set(struct virtio_device *vdev, unsigned int offset, const void *buf,
		   unsigned int len)
{
	const u8 *p = buf;

	for (unsigned int i = 0; i < len; i++)
		outb(port(vdev, VIRTIO_PCI_CONFIG_OFF + offset + i), p[i]);
}

static u32 vp_generation(struct virtio_device *vdev)
{
	return 0; /* legacy devices have no generation counter */
}

static u8 vp_get_status(struct virtio_device *vdev)
{
	return inb(port(vdev, VIRTIO_PCI_STATUS));
}

static void vp_set_status(struct virtio_device *vdev, u8 status)
{
	outb(port(vdev, VIRTIO_PCI_STATUS), status);
}

/* Writing 0 resets at once; the read makes sure the write has landed. */
static void vp_reset(struct virtio_device *vdev)
{
	vp_set_status(vdev, 0);
	(void)vp_get_status(vdev);
}

static u64 vp_get_features(struct virtio_device *vdev)
{
	return inl(port(vdev, VIRTIO_PCI_HOST_FEATURES)); /* 32 bits only */
}

static int vp_finalize_features(struct virtio_device *vdev)
{
	outl(port(vdev, VIRTIO_PCI_GUEST_FEATURES), (u32)vdev->features);
	return 0;
}

static bool vp_notify(struct virtqueue *vq)
{
	outw(port(vq->vdev, VIRTIO_PCI_QUEUE_NOTIFY), (u16)vq->index);
	return true;
}

static struct virtqueue *vp_setup_vq(struct virtio_pci_device *vp, unsigned int index,
				     vq_callback_t *callback, const char *name, u16 msix_vec)
{
	struct virtio_device *vdev = &vp->vdev;
	struct virtio_pci_vq_info *info;
	struct virtqueue *vq;
	unsigned int num;

	outw(port(vdev, VIRTIO_PCI_QUEUE_SEL), (u16)index);
	num = inw(port(vdev, VIRTIO_PCI_QUEUE_NUM));
	if (!num || inl(port(vdev, VIRTIO_PCI_QUEUE_PFN)))
		return NULL; /* no such queue, or already in use */
	info = kzalloc(sizeof(*info));
	if (!info)
		return NULL;
	if (!vp_alloc_ring(num, VIRTIO_PCI_VRING_ALIGN, info))
		goto out_info;
	vq = vring_new_virtqueue(index, num, VIRTIO_PCI_VRING_ALIGN, vdev, info->pages,
				 vp_notify, callback, name);
	if (!vq)
		goto out_ring;
	vq->priv = info;
	outl(port(vdev, VIRTIO_PCI_QUEUE_PFN),
	     (u32)(virt_to_phys(info->pages) >> VIRTIO_PCI_QUEUE_ADDR_SHIFT));
	return vq;

out_ring:
	vp_free_ring(info);
out_info:
	kfree(info);
	return NULL;
}

static void vp_del_vq(struct virtqueue *vq)
{
	struct virtio_pci_vq_info *info = vq->priv;

	outw(port(vq->vdev, VIRTIO_PCI_QUEUE_SEL), (u16)vq->index);
	outl(port(vq->vdev, VIRTIO_PCI_QUEUE_PFN), 0); /* the device forgets the ring */
	vring_del_virtqueue(vq);
	vp_free_ring(info);
	kfree(info);
}

static u8 vp_read_isr(struct virtio_pci_device *vp)
{
	return inb((u16)(vp->ioaddr + VIRTIO_PCI_ISR));
}

static const char *vp_bus_name(struct virtio_device *vdev)
{
	return "legacy";
}

static const struct virtio_config_ops virtio_pci_legacy_config_ops = {
	.get = vp_get,
	.set = vp_set,
	.generation = vp_generation,
	.get_status = vp_get_status,
	.set_status = vp_set_status,
	.reset = vp_reset,
	.get_features = vp_get_features,
	.finalize_features = vp_finalize_features,
	.find_vqs = vp_find_vqs,
	.del_vqs = vp_del_vqs,
	.set_vq_affinity = vp_set_vq_affinity,
	.bus_name = vp_bus_name,
};

int virtio_pci_legacy_probe(struct virtio_pci_device *vp)
{
	struct pci_dev *pdev = vp->pci_dev;
	const struct resource *res = &pdev->resource[0];

	if (!(res->flags & IORESOURCE_IO) || !res->start)
		return -ENODEV;
	vp->ioaddr = (u16)res->start;
	vp->vdev.config = &virtio_pci_legacy_config_ops;
	vp->vdev.id.vendor = pdev->subsystem_vendor;
	vp->vdev.id.device = pdev->subsystem_device; /* §4.1.2.1: transitional ids */
	vp->setup_vq = vp_setup_vq;
	vp->del_vq = vp_del_vq;
	vp->read_isr = vp_read_isr;
	return 0;
}
