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

/* The config change on its own vector: no ISR byte to read. */
static enum irqreturn vp_config_interrupt(int irq, void *opaque)
{
	struct virtio_pci_device *vp_dev = opaque;

	virtio_config_changed(&vp_dev->vdev);
	return IRQ_HANDLED;
}

static void vp_free_msix(struct virtio_pci_device *vp_dev)
{
	if (vp_dev->msix_enabled) {
		free_irq(vp_dev->msix_entries[0].vector, vp_dev);
		pci_disable_msix(vp_dev->pci_dev);
	}
	vp_dev->msix_enabled = false;
	kfree(vp_dev->msix_entries);
	kfree(vp_dev->msix_names);
	kfree(vp_dev->msix_vqs);
	vp_dev->msix_entries = NULL;
	vp_dev->msix_names = NULL;
	vp_dev->msix_vqs = NULL;
}

void vp_del_vqs(struct virtio_device *vdev)
{
	struct virtio_pci_device *vp_dev = to_vp_device(vdev);

	while (!list_empty(&vdev->vqs)) {
		struct virtqueue *vq = list_first_entry(&vdev->vqs, struct virtqueue, list);
		struct virtio_pci_vq_info *info = vq->priv;

		if (info->msix_irq >= 0)
			free_irq(info->msix_irq, &vp_dev->msix_vqs[vq->index]);
		vp_dev->del_vq(vq);
	}
	vp_free_msix(vp_dev);
}

/* A queue's own vector: nothing to ask, its used ring says it all. */
static enum irqreturn vp_vring_interrupt(int irq, void *opaque)
{
	struct virtqueue *vq = *(struct virtqueue **)opaque;

	return vq ? vring_interrupt(irq, vq) : IRQ_NONE;
}

/* Entry 0 for the config change, then one per queue with a callback, each an IRQ of its own. */
static int vp_request_msix_vectors(struct virtio_pci_device *vp_dev, unsigned int nvec,
				   unsigned int nvqs)
{
	const char *dev = vp_dev->vdev.dev.bus_id;
	int err = -ENOMEM;

	vp_dev->msix_entries = kzalloc(nvec * sizeof(*vp_dev->msix_entries));
	vp_dev->msix_names = kzalloc(nvec * sizeof(*vp_dev->msix_names));
	vp_dev->msix_vqs = kzalloc(nvqs * sizeof(*vp_dev->msix_vqs));
	if (!vp_dev->msix_entries || !vp_dev->msix_names || !vp_dev->msix_vqs)
		goto out;
	for (unsigned int i = 0; i < nvec; i++)
		vp_dev->msix_entries[i].entry = (u16)i;
	err = pci_enable_msix(vp_dev->pci_dev, vp_dev->msix_entries, (int)nvec);
	if (err)
		goto out;
	vp_dev->msix_enabled = true;
	vp_dev->msix_vectors = nvec;
	scnprintf(vp_dev->msix_names[0], VIRTIO_PCI_MSIX_NAME_LEN, "%s-config", dev);
	err = request_irq(vp_dev->msix_entries[0].vector, vp_config_interrupt,
			  vp_dev->msix_names[0], vp_dev);
	if (err) {
		pci_disable_msix(vp_dev->pci_dev);
		vp_dev->msix_enabled = false;
		goto out;
	}
	if (!vp_dev->config_vector(vp_dev, 0))
		err = -EBUSY;
out:
	if (err)
		vp_free_msix(vp_dev);
	return err;
}

/*
 * With MSI-X the queue's vector is requested first, so that a failure
 * leaves nothing to undo in the device (a 1.x transport enables its queues
 * only once all are set up). A queue with no callback gets no vector (as
 * Linux): the device never interrupts for it.
 */
static struct virtqueue *vp_setup_one(struct virtio_pci_device *vp_dev, unsigned int i,
				      vq_callback_t *callback, const char *name, u16 vec)
{
	struct virtio_pci_vq_info *info;
	struct virtqueue *vq;
	int irq = -1;

	if (vec != VIRTIO_MSI_NO_VECTOR) {
		irq = vp_dev->msix_entries[vec].vector;
		scnprintf(vp_dev->msix_names[vec], VIRTIO_PCI_MSIX_NAME_LEN, "%s-%s",
			  vp_dev->vdev.dev.bus_id, name);
		if (request_irq(irq, vp_vring_interrupt, vp_dev->msix_names[vec],
				&vp_dev->msix_vqs[i]))
			return NULL;
	}
	vq = vp_dev->setup_vq(vp_dev, i, callback, name, vec);
	if (!vq) {
		if (irq >= 0)
			free_irq(irq, &vp_dev->msix_vqs[i]);
		return NULL;
	}
	info = vq->priv;
	info->msix_irq = irq;
	info->msix_entry = vec;
	if (vp_dev->msix_enabled)
		vp_dev->msix_vqs[i] = vq;
	return vq;
}

/* Linux's vp_set_vq_affinity: the queue's interrupt goes to that CPU (MSI-X only). */
int vp_set_vq_affinity(struct virtqueue *vq, unsigned int cpu)
{
	struct virtio_pci_device *vp_dev = to_vp_device(vq->vdev);
	struct virtio_pci_vq_info *info = vq->priv;

	if (!vp_dev->msix_enabled || info->msix_irq < 0)
		return -EINVAL;
	return pci_msix_set_cpu(vp_dev->pci_dev, info->msix_entry, info->msix_irq, cpu);
}

static int vp_try_find_vqs(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
			   vq_callback_t *callbacks[], const char *const names[], bool msix)
{
	struct virtio_pci_device *vp_dev = to_vp_device(vdev);
	unsigned int nvec = 1;
	int err;

	for (unsigned int i = 0; i < nvqs; i++)
		nvec += callbacks[i] != NULL;
	err = msix ? vp_request_msix_vectors(vp_dev, nvec, nvqs) : 0;
	if (err)
		return err;
	nvec = 1;
	for (unsigned int i = 0; i < nvqs; i++) {
		u16 vec = msix && callbacks[i] ? (u16)nvec++ : VIRTIO_MSI_NO_VECTOR;

		vqs[i] = vp_setup_one(vp_dev, i, callbacks[i], names[i], vec);
		if (!vqs[i]) {
			vp_del_vqs(vdev);
			return -ENOENT;
		}
	}
	return 0;
}

/*
 * MSI-X when the function and the machine have it (modern interface only),
 * else the shared INTx line that vp_interrupt serves by reading ISR. A
 * function without the capability (-EINVAL) or a CPU without a local APIC
 * (-ENODEV) takes INTx silently; any other failure is said.
 */
int vp_find_vqs(struct virtio_device *vdev, unsigned int nvqs, struct virtqueue *vqs[],
		vq_callback_t *callbacks[], const char *const names[])
{
	struct virtio_pci_device *vp_dev = to_vp_device(vdev);
	int err;

	if (vp_dev->config_vector) {
		err = vp_try_find_vqs(vdev, nvqs, vqs, callbacks, names, true);
		if (!err)
			return 0;
		if (err != -EINVAL && err != -ENODEV)
			pr_warn("virtio-pci %s: could not set up MSI-X (%s), using INTx\n",
				pci_name(vp_dev->pci_dev), kstrerror(err));
	}
	return vp_try_find_vqs(vdev, nvqs, vqs, callbacks, names, false);
}

static void virtio_pci_release_dev(struct device *dev)
{
	struct virtio_pci_device *vp_dev = to_vp_device(dev_to_virtio(dev));

	vp_modern_unmap(vp_dev);
	kfree(vp_dev);
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
		return -ENODEV; /* other Red Hat devices (e.g. the pvpanic) */
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
	pci_set_master(pdev); /* the device reads and writes our rings */
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
	put_device(&vp_dev->vdev.dev); /* frees vp_dev */
	pci_clear_master(pdev);
	pci_disable_device(pdev);
	return err;
out_disable:
	pci_clear_master(pdev);
	pci_disable_device(pdev);
out_free:
	vp_modern_unmap(vp_dev);
	kfree(vp_dev);
	return err;
}

static void virtio_pci_remove(struct pci_dev *pdev)
{
	struct virtio_pci_device *vp_dev = pci_get_drvdata(pdev);

	get_device(&vp_dev->vdev.dev); /* until the interrupt handler is gone */
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
