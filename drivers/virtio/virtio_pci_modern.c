/*
 * virtio_pci_modern.c: the virtio 1.x PCI transport (virtio 1.1 §4.1.4).
 * Vendor-specific capabilities say in which memory BAR, at which offset,
 * the common configuration, notification area, ISR byte and device
 * configuration live. Each structure is mapped with ioremap, uncached, and
 * unmapped when the device goes (vp_modern_unmap).
 */
#include <kobold/virtio_pci.h>

#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/virtio_ring.h>

static inline u8 ioread8(volatile u8 *base, unsigned int off) { return base[off]; }
static inline u16 ioread16(volatile u8 *base, unsigned int off) { return *(volatile u16 *)(base + off); }
static inline u32 ioread32(volatile u8 *base, unsigned int off) { return *(volatile u32 *)(base + off); }
static inline void iowrite8(volatile u8 *base, unsigned int off, u8 v) { base[off] = v; }
static inline void iowrite16(volatile u8 *base, unsigned int off, u16 v) { *(volatile u16 *)(base + off) = v; }
static inline void iowrite32(volatile u8 *base, unsigned int off, u32 v) { *(volatile u32 *)(base + off) = v; }

/* 64-bit fields of the common configuration are written as two halves, low first. */
static void iowrite64_twopart(volatile u8 *base, unsigned int lo, u64 v)
{
	iowrite32(base, lo, (u32)v);
	iowrite32(base, lo + 4, (u32)(v >> 32));
}

/* Each field with an access of its own width (§4.1.3.1); 64 bits as two 32-bit reads. */
static void vp_get(struct virtio_device *vdev, unsigned int offset, void *buf, unsigned int len)
{
	struct virtio_pci_device *vp = to_vp_device(vdev);
	u8 gen;

	if (offset + len > vp->device_len)
		return;
	do { /* a change in the middle would tear the value (§2.4.1) */
		gen = ioread8(vp->common, VIRTIO_PCI_COMMON_CFGGENERATION);
		if (len == 1)
			*(u8 *)buf = ioread8(vp->device, offset);
		else if (len == 2)
			*(u16 *)buf = ioread16(vp->device, offset);
		else if (len == 4)
			*(u32 *)buf = ioread32(vp->device, offset);
		else if (len == 8)
			*(u64 *)buf = ioread32(vp->device, offset) |
				      (u64)ioread32(vp->device, offset + 4) << 32;
	} while (gen != ioread8(vp->common, VIRTIO_PCI_COMMON_CFGGENERATION));
}

static void vp_set(struct virtio_device *vdev, unsigned int offset, const void *buf,
		   unsigned int len)
{
	struct virtio_pci_device *vp = to_vp_device(vdev);

	if (offset + len > vp->device_len)
		return;
	if (len == 1)
		iowrite8(vp->device, offset, *(const u8 *)buf);
	else if (len == 2)
		iowrite16(vp->device, offset, *(const u16 *)buf);
	else if (len == 4)
		iowrite32(vp->device, offset, *(const u32 *)buf);
}

static u32 vp_generation(struct virtio_device *vdev)
{
	return ioread8(to_vp_device(vdev)->common, VIRTIO_PCI_COMMON_CFGGENERATION);
}

static u8 vp_get_status(struct virtio_device *vdev)
{
	return ioread8(to_vp_device(vdev)->common, VIRTIO_PCI_COMMON_STATUS);
}

static void vp_set_status(struct virtio_device *vdev, u8 status)
{
	iowrite8(to_vp_device(vdev)->common, VIRTIO_PCI_COMMON_STATUS, status);
}

/* The device may take a while to reset: it is done when status reads 0 (§4.1.4.3.2). */
static void vp_reset(struct virtio_device *vdev)
{
	unsigned long spins = 0;

	vp_set_status(vdev, 0);
	while (vp_get_status(vdev)) {
		if (++spins == 100000000ul) {
			pr_err("virtio %s: reset does not complete\n", vdev->dev.bus_id);
			return;
		}
		cpu_relax();
	}
}

static u64 vp_get_features(struct virtio_device *vdev)
{
	volatile u8 *c = to_vp_device(vdev)->common;
	u64 f;

	iowrite32(c, VIRTIO_PCI_COMMON_DFSELECT, 0);
	f = ioread32(c, VIRTIO_PCI_COMMON_DF);
	iowrite32(c, VIRTIO_PCI_COMMON_DFSELECT, 1);
	return f | (u64)ioread32(c, VIRTIO_PCI_COMMON_DF) << 32;
}

static int vp_finalize_features(struct virtio_device *vdev)
{
	volatile u8 *c = to_vp_device(vdev)->common;

	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1)) {
		pr_err("virtio %s: modern device without VERSION_1\n", vdev->dev.bus_id);
		return -EINVAL;
	}
	iowrite32(c, VIRTIO_PCI_COMMON_GFSELECT, 0);
	iowrite32(c, VIRTIO_PCI_COMMON_GF, (u32)vdev->features);
	iowrite32(c, VIRTIO_PCI_COMMON_GFSELECT, 1);
	iowrite32(c, VIRTIO_PCI_COMMON_GF, (u32)(vdev->features >> 32));
	return 0;
}

static bool vp_notify(struct virtqueue *vq)
{
	struct virtio_pci_vq_info *info = vq->priv;

	*info->notify_addr = (u16)vq->index; /* §4.1.5.2: the queue's index */
	return true;
}

/* The largest power of two not above the device's size whose rings we can allocate. */
static void *alloc_ring_shrinking(unsigned int *num, struct virtio_pci_vq_info *info)
{
	unsigned int n = 1;

	while (n * 2 <= *num)
		n *= 2;
	for (; n >= 2; n /= 2) {
		if (vp_alloc_ring(n, PAGE_SIZE, info)) {
			*num = n;
			return info->pages;
		}
	}
	return NULL;
}

static bool notify_addr_ok(struct virtio_pci_device *vp, u32 off)
{
	return (u64)off * vp->notify_off_multiplier + 2 <= vp->notify_len;
}

/* §4.1.5.1.2: a vector is set by writing it; reading back NO_VECTOR means refused. */
static bool vp_config_vector(struct virtio_pci_device *vp, u16 vector)
{
	iowrite16(vp->common, VIRTIO_PCI_COMMON_MSIX, vector);
	return ioread16(vp->common, VIRTIO_PCI_COMMON_MSIX) == vector;
}

/* §4.1.5.1.3: select, size, addresses and vector; queue_enable comes last, for all. */
static struct virtqueue *vp_setup_vq(struct virtio_pci_device *vp, unsigned int index,
				     vq_callback_t *callback, const char *name, u16 msix_vec)
{
	volatile u8 *c = vp->common;
	struct virtio_pci_vq_info *info;
	struct virtqueue *vq;
	unsigned int num;
	u16 off;

	if (index >= ioread16(c, VIRTIO_PCI_COMMON_NUMQ))
		return NULL;
	iowrite16(c, VIRTIO_PCI_COMMON_Q_SELECT, (u16)index);
	num = ioread16(c, VIRTIO_PCI_COMMON_Q_SIZE);
	off = ioread16(c, VIRTIO_PCI_COMMON_Q_NOFF);
	if (!num || ioread16(c, VIRTIO_PCI_COMMON_Q_ENABLE) || !notify_addr_ok(vp, off))
		return NULL;
	info = kzalloc(sizeof(*info));
	if (!info)
		return NULL;
	if (!alloc_ring_shrinking(&num, info))
		goto out_info;
	vq = vring_new_virtqueue(index, num, PAGE_SIZE, &vp->vdev, info->pages, vp_notify,
				 callback, name);
	if (!vq)
		goto out_ring;
	vq->priv = info;
	info->notify_addr = (volatile u16 *)(vp->notify_base + off * vp->notify_off_multiplier);
	iowrite16(c, VIRTIO_PCI_COMMON_Q_SIZE, (u16)num);
	iowrite64_twopart(c, VIRTIO_PCI_COMMON_Q_DESCLO, virtqueue_get_desc_addr(vq));
	iowrite64_twopart(c, VIRTIO_PCI_COMMON_Q_AVAILLO, virtqueue_get_avail_addr(vq));
	iowrite64_twopart(c, VIRTIO_PCI_COMMON_Q_USEDLO, virtqueue_get_used_addr(vq));
	if (msix_vec != VIRTIO_MSI_NO_VECTOR) {
		iowrite16(c, VIRTIO_PCI_COMMON_Q_MSIX, msix_vec);
		if (ioread16(c, VIRTIO_PCI_COMMON_Q_MSIX) != msix_vec)
			goto out_vq;
	}
	return vq; /* enabled by vp_modern_find_vqs, once every queue is set up */

out_vq:
	vring_del_virtqueue(vq);
out_ring:
	vp_free_ring(info);
out_info:
	kfree(info);
	return NULL;
}

/*
 * Every queue set up, then every queue enabled (§4.1.5.1.3's last step),
 * as Linux's vp_modern_find_vqs does: a 1.x queue once enabled stays so
 * until a reset, so if the second queue failed with the first enabled, the
 * INTx fallback, and every later probe, would find the first taken.
 */
static int vp_modern_find_vqs(struct virtio_device *vdev, unsigned int nvqs,
			      struct virtqueue *vqs[], vq_callback_t *callbacks[],
			      const char *const names[])
{
	volatile u8 *c = to_vp_device(vdev)->common;
	int err = vp_find_vqs(vdev, nvqs, vqs, callbacks, names);
	struct virtqueue *vq;

	if (err)
		return err;
	list_for_each_entry(vq, &vdev->vqs, list) {
		iowrite16(c, VIRTIO_PCI_COMMON_Q_SELECT, (u16)vq->index);
		iowrite16(c, VIRTIO_PCI_COMMON_Q_ENABLE, 1);
	}
	return 0;
}

/* Queues cannot be disabled one by one in 1.x: the caller has reset the device. */
static void vp_del_vq(struct virtqueue *vq)
{
	struct virtio_pci_vq_info *info = vq->priv;

	vring_del_virtqueue(vq);
	vp_free_ring(info);
	kfree(info);
}

static u8 vp_read_isr(struct virtio_pci_device *vp)
{
	return ioread8(vp->isr, 0);
}

static const char *vp_bus_name(struct virtio_device *vdev)
{
	return "modern";
}

static const struct virtio_config_ops virtio_pci_config_ops = {
	.get = vp_get,
	.set = vp_set,
	.generation = vp_generation,
	.get_status = vp_get_status,
	.set_status = vp_set_status,
	.reset = vp_reset,
	.get_features = vp_get_features,
	.finalize_features = vp_finalize_features,
	.find_vqs = vp_modern_find_vqs,
	.del_vqs = vp_del_vqs,
	.set_vq_affinity = vp_set_vq_affinity,
	.bus_name = vp_bus_name,
};

/* The bus address of a capability's structure, if its BAR holds it and we can reach it; 0 if not. */
static u32 capability_addr(struct pci_dev *pdev, u8 pos, u32 minlen, u32 *len)
{
	u8 bar = pci_read_config_byte(pdev, pos + VIRTIO_PCI_CAP_BAR);
	u32 offset = pci_read_config_dword(pdev, pos + VIRTIO_PCI_CAP_OFFSET);
	u32 length = pci_read_config_dword(pdev, pos + VIRTIO_PCI_CAP_LENGTH);
	const struct resource *res;

	if (bar >= PCI_STD_RESOURCES || length < minlen)
		return 0;
	res = &pdev->resource[bar];
	if (!(res->flags & IORESOURCE_MEM) || !res->start ||
	    (u64)offset + length > resource_size(res) || res->start + offset + length > 0xffffffffull)
		return 0; /* I/O BARs and BARs above 4 GiB are not for us */
	if (len)
		*len = length;
	return (u32)(res->start + offset);
}

/* The capability's structure mapped (ioremap), or NULL. */
static volatile u8 *map_capability(struct pci_dev *pdev, u8 pos, u32 minlen, u32 *len)
{
	u32 length, addr = capability_addr(pdev, pos, minlen, &length);

	if (!addr)
		return NULL;
	if (len)
		*len = length;
	return ioremap(addr, length ? length : 1);
}

void vp_modern_unmap(struct virtio_pci_device *vp)
{
	iounmap(vp->common);
	iounmap(vp->isr);
	iounmap(vp->notify_base);
	iounmap(vp->device);
	vp->common = vp->isr = vp->notify_base = vp->device = NULL;
}

/* The first capability of each type that we can use (§4.1.4.1). */
static void find_capabilities(struct virtio_pci_device *vp, u8 pos[5])
{
	struct pci_dev *pdev = vp->pci_dev;

	for (u8 p = pci_find_capability(pdev, PCI_CAP_ID_VNDR); p;
	     p = pci_find_next_capability(pdev, p, PCI_CAP_ID_VNDR)) {
		u8 type = pci_read_config_byte(pdev, p + VIRTIO_PCI_CAP_CFG_TYPE);

		if (type >= VIRTIO_PCI_CAP_COMMON_CFG && type <= VIRTIO_PCI_CAP_DEVICE_CFG &&
		    !pos[type] && capability_addr(pdev, p, 0, NULL))
			pos[type] = p;
	}
}

int virtio_pci_modern_probe(struct virtio_pci_device *vp)
{
	struct pci_dev *pdev = vp->pci_dev;
	u8 pos[5] = { 0 };

	find_capabilities(vp, pos);
	if (!pos[VIRTIO_PCI_CAP_COMMON_CFG] || !pos[VIRTIO_PCI_CAP_NOTIFY_CFG] ||
	    !pos[VIRTIO_PCI_CAP_ISR_CFG])
		return -ENODEV;
	vp->common = map_capability(pdev, pos[VIRTIO_PCI_CAP_COMMON_CFG],
				    VIRTIO_PCI_COMMON_SIZE, NULL);
	vp->isr = map_capability(pdev, pos[VIRTIO_PCI_CAP_ISR_CFG], 1, NULL);
	vp->notify_base = map_capability(pdev, pos[VIRTIO_PCI_CAP_NOTIFY_CFG], 2, &vp->notify_len);
	if (pos[VIRTIO_PCI_CAP_DEVICE_CFG])
		vp->device = map_capability(pdev, pos[VIRTIO_PCI_CAP_DEVICE_CFG], 0, &vp->device_len);
	if (!vp->common || !vp->isr || !vp->notify_base) {
		vp_modern_unmap(vp);
		return -ENODEV;
	}
	vp->notify_off_multiplier =
		pci_read_config_dword(pdev, pos[VIRTIO_PCI_CAP_NOTIFY_CFG] + VIRTIO_PCI_NOTIFY_CAP_MULT);
	vp->modern = true;
	vp->vdev.config = &virtio_pci_config_ops;
	vp->vdev.id.vendor = pdev->subsystem_vendor;
	vp->vdev.id.device = pdev->device < VIRTIO_PCI_MODERN_BASE ? pdev->subsystem_device
								   : pdev->device - VIRTIO_PCI_MODERN_BASE;
	vp->setup_vq = vp_setup_vq;
	vp->config_vector = vp_config_vector;
	vp->del_vq = vp_del_vq;
	vp->read_isr = vp_read_isr;
	return 0;
}
