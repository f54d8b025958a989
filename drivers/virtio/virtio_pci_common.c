/*
 * virtio_pci_common.c: the virtio-pci driver (QEMU: -device virtio-blk-pci
 * and the other virtio-*-pci devices). It binds to Red Hat's vendor id,
 * picks the modern transport when the function has the virtio 1.x
 * capabilities and the legacy one otherwise (virtio 1.1 §4.1.2), and puts a
 * virtio device below the PCI function.
 */
#include <kobold/virtio_pci.h>

#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/mm.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/virtio_ring.h>

/* The line may be shared: reading ISR tells whether it was us, and acknowledges (§4.1.4.5). */
static enum irqreturn vp_interrupt(int irq, void *opaque)
{
	struct virtio_pci_device *vp_dev = opaque;
	struct virtqueue *vq;
	u8 isr = vp_dev->read_isr(vp_dev);

	if (!isr)
		return IRQ_NONE;
	if (isr & VIRTIO_PCI_ISR_CONFIG)
		virtio_config_changed(&vp_dev->vdev);
	list_for_each_entry(vq, &vp_dev->vdev.vqs, list)
		vring_interrupt(irq, vq);
	return IRQ_HANDLED;
}

void *vp_alloc_ring(unsigned int num, unsigned long align, struct virtio_pci_vq_info *info)
{
	unsigned long size = vring_size(num, align);

	info->npages = (unsigned int)((size + PAGE_SIZE - 1) / PAGE_SIZE);
	info->pages = alloc_pages(info->npages);
	if (info->pages)
		memset(info->pages, 0, (size_t)info->npages * PAGE_SIZE);
	return info->pages;
}

void vp_free_ring(struct virtio_pci_vq_info *info)
{
	if (info->pages)
		free_pages(info->pages, info->npages);
	info->pages = NULL;
}

void vp_del_vqs(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp_dev = to_vp_device(vdev);

	while (!list_empty(&vdev->vqs))
		vp_dev->del_vq(list_first_entry(&vdev->vqs, struct virtqueue, list));
}

int vp_find_vqs(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
		vq_callback_t *callbacks[], const char *const names[])
{
	struct virtio_pci_device *vp_dev = to_vp_device(vdev);

	for (unsigned int i = 0; i < nvqs; i++) {
		vqs[i] = vp_dev->setup_vq(vp_dev, i, callbacks[i], names[i]);
		if (!vqs[i]) {
			vp_del_vqs(vdev);
			return -ENOENT;
		}
	}
	return 0;
}

static void virtio_pci_release_dev(struct device *dev)
{
	kfree(to_vp_device(dev_to_virtio(dev)));
}

static int vp_choose_transport(struct virtio_pci_device *vp_dev)
{
	struct pci_dev *pdev = vp_dev->pci_dev;

	if (virtio_pci_modern_probe(vp_dev) == 0)
		return 0;
	if (pdev->device <= VIRTIO_PCI_TRANSITIONAL_LAST)
		return virtio_pci_legacy_probe(vp_dev);
	return -ENODEV;
}

static int virtio_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct virtio_pci_device *vp_dev;
	int err;

	if (pdev->device < VIRTIO_PCI_TRANSITIONAL_FIRST || pdev->device > VIRTIO_PCI_MODERN_LAST)
		return -ENODEV;	/* other Red Hat devices (e.g. the pvpanic) */
	vp_dev = kzalloc(sizeof(*vp_dev));
	if (!vp_dev)
		return -ENOMEM;
	vp_dev->pci_dev = pdev;
	vp_dev->vdev.dev.parent = &pdev->dev;
	vp_dev->vdev.dev.release = virtio_pci_release_dev;
	err = pci_enable_device(pdev);
	if (!err)
		err = vp_choose_transport(vp_dev);
	if (err)
		goto out_free;
	err = -ENODEV;
	if (!pdev->irq) {
		pr_err("virtio-pci %s: no interrupt line\n", pci_name(pdev));
		goto out_free;
	}
	pci_set_master(pdev);	/* the device reads and writes our rings */
	err = request_irq((int)pdev->irq, vp_interrupt, pci_name(pdev), vp_dev);
	if (err)
		goto out_disable;
	pci_set_drvdata(pdev, vp_dev);
	err = register_virtio_device(&vp_dev->vdev);
	if (err)
		goto out_irq;
	return 0;

out_irq:
	free_irq((int)pdev->irq, vp_dev);
	put_device(&vp_dev->vdev.dev);	/* frees vp_dev */
	pci_clear_master(pdev);
	pci_disable_device(pdev);
	return err;
out_disable:
	pci_clear_master(pdev);
	pci_disable_device(pdev);
out_free:
	kfree(vp_dev);
	return err;
}

static void virtio_pci_remove(struct pci_dev *pdev)
{
	struct virtio_pci_device *vp_dev = pci_get_drvdata(pdev);

	get_device(&vp_dev->vdev.dev);	/* until the interrupt handler is gone */
	unregister_virtio_device(&vp_dev->vdev);
	vp_dev->vdev.config->reset(&vp_dev->vdev);
	free_irq((int)pdev->irq, vp_dev);
	pci_clear_master(pdev);
	pci_disable_device(pdev);
	pci_set_drvdata(pdev, NULL);
	put_device(&vp_dev->vdev.dev);
}

static const struct pci_device_id virtio_pci_id_table[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, PCI_ANY_ID) },
	{ 0 },
};

static struct pci_driver virtio_pci_driver = {
	.name = "virtio-pci",
	.id_table = virtio_pci_id_table,
	.probe = virtio_pci_probe,
	.remove = virtio_pci_remove,
};

int virtio_pci_init(void)
{
	return pci_register_driver(&virtio_pci_driver);
}
