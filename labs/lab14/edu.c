/*
 * edu.c: a driver for QEMU's edu teaching device (-device edu, QEMU's
 * docs/specs/edu.rst): /dev/edu, write a number and read its factorial;
 * two ioctls copy to and from the device's 4 KiB buffer by DMA.
 *
 * Lab 14 starter (docs/labs/lab14-edu.md): copy this file to
 * drivers/misc/edu.c. The registers, /dev/edu's read, write and ioctl,
 * and the PCI driver's table are done; probe, remove, the interrupt
 * handler, its work item, and starting a factorial or a DMA and waiting
 * for it are yours (the TODOs).
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/completion.h>
#include <kobold/dma-mapping.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/ioctl.h>
#include <kobold/miscdevice.h>
#include <kobold/module.h>
#include <kobold/mutex.h>
#include <kobold/pci.h>
#include <kobold/printk.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>
#include <kobold/uaccess.h>
#include <kobold/workqueue.h>

/* BAR0's registers (edu.rst), each 32 bits wide */
#define EDU_ID 0x00	  /* 0xRRrr00ed: version RR.rr, then "ed" */
#define EDU_ID_MAGIC 0xed /* the low byte */
#define EDU_FACT 0x08	  /* write n: computes n!; read: the result once done */
#define EDU_STATUS 0x20	  /* bit 0: computing; bit 7: raise an interrupt when done */
#define EDU_STATUS_COMPUTING 0x01
#define EDU_STATUS_IRQFACT 0x80
#define EDU_IRQ_STATUS 0x24 /* why it interrupted */
#define EDU_IRQ_ACK 0x64    /* write the bits back to clear them */
#define EDU_IRQ_FACT 0x001
#define EDU_IRQ_DMA 0x100
#define EDU_DMA_SRC 0x80
#define EDU_DMA_DST 0x88
#define EDU_DMA_COUNT 0x90
#define EDU_DMA_CMD 0x98
#define EDU_DMA_RUN 0x1
#define EDU_DMA_TO_RAM 0x2 /* clear: from RAM into the device's buffer */
#define EDU_DMA_IRQ 0x4	   /* raise EDU_IRQ_DMA when done */
#define EDU_BUF 0x40000	   /* the device's buffer, as its DMA addresses it */
#define EDU_BUF_SIZE 4096
/*
 * What a transfer may reach: QEMU 7.2's edu stops the whole machine on a
 * transfer that ends at its buffer's last byte (its range check is off by
 * one; later QEMUs fixed it), so the last byte is never used.
 */
#define EDU_DMA_MAX (EDU_BUF_SIZE - 1)
#define EDU_DMA_BITS 28 /* edu's DMA engine drives 28 address bits */
#define EDU_MINOR 241	/* a misc minor of its own */

/* The ioctls: buf's len bytes to or from the device's buffer at offset. */
struct edu_xfer {
	u32 offset, len;
	void __user *buf;
};
#define EDU_IOC_TO_DEVICE _IOW('E', 1, struct edu_xfer)
#define EDU_IOC_FROM_DEVICE _IOW('E', 2, struct edu_xfer)

struct edu {
	struct pci_dev *pdev;
	void __iomem *regs;
	struct mutex lock;   /* one factorial or DMA at a time; result */
	spinlock_t irq_lock; /* pending: the handler's, taken by the work */
	u32 pending;	     /* interrupt causes acknowledged, not yet handled */
	struct work_struct work;
	struct completion fact_done, dma_done; /* completed by the work */
	u32 fact, result;
	void *buf; /* the coherent buffer, and its bus address */
	dma_addr_t buf_bus;
};

static struct edu edu;

/*
 * TODO: the interrupt handler (interrupt context: it must not sleep). Read
 * the interrupt status register; 0: not ours, IRQ_NONE. Else write the bits
 * back to the acknowledge register, add them to e->pending under
 * e->irq_lock, schedule e->work and return IRQ_HANDLED.
 */
static __unused enum irqreturn edu_irq(int irq, void *dev) { return IRQ_NONE; }

/*
 * TODO: the bottom half, in events/0: take e->pending (and clear it) under
 * e->irq_lock with interrupts off; for EDU_IRQ_FACT read the factorial
 * register into e->fact and complete e->fact_done; for EDU_IRQ_DMA complete
 * e->dma_done.
 */
static void edu_work(struct work_struct *work) {}

/*
 * n! by the device; with e->lock held. The wait is not interruptible: the
 * device always answers, within microseconds (a DMA: 100 ms).
 */
/*
 * n! by the device; with e->lock held. TODO: get e->fact_done ready
 * (init_completion), set the status register's raise-interrupt bit, write n
 * to the factorial register, wait for the completion and keep e->fact in
 * e->result. (Reading the factorial register at once reads n back: the
 * device is still computing.)
 */
static void edu_factorial(struct edu *e, u32 n) { e->result = 0; }

/* One DMA between the coherent buffer and the device's at offset; with e->lock held. */
/*
 * TODO: one DMA of len bytes between the coherent buffer (e->buf_bus) and
 * the device's buffer at EDU_BUF + offset, to_ram saying which way: source,
 * destination, count, then the command (run, interrupt, direction); wait
 * for e->dma_done as edu_factorial does. With e->lock held.
 */
static void edu_dma(struct edu *e, u32 offset, u32 len, bool to_ram) {}

static ssize_t edu_write(struct file *file, const char __user *ubuf, size_t n, loff_t *pos)
{
	char text[16];
	unsigned long v;

	if (n >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, n))
		return -EFAULT;
	text[n] = '\0';
	if (kstrtoul(text, 10, &v) || v > 0xffffffffu)
		return -EINVAL;
	if (mutex_lock_interruptible(&edu.lock))
		return -ERESTARTSYS;
	edu_factorial(&edu, (u32)v);
	mutex_unlock(&edu.lock);
	return (ssize_t)n;
}

static ssize_t edu_read(struct file *file, char __user *ubuf, size_t n, loff_t *pos)
{
	char text[16];
	size_t len;

	if (mutex_lock_interruptible(&edu.lock))
		return -ERESTARTSYS;
	len = scnprintf(text, sizeof(text), "%u\n", edu.result);
	mutex_unlock(&edu.lock);
	if (*pos >= (loff_t)len)
		return 0;
	if (n > len - (size_t)*pos)
		n = len - (size_t)*pos;
	if (copy_to_user(ubuf, text + *pos, n))
		return -EFAULT;
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static long edu_transfer(struct edu *e, const struct edu_xfer *x, bool to_ram)
{
	long err = 0;

	if (!x->len || x->len > EDU_DMA_MAX || x->offset > EDU_DMA_MAX - x->len)
		return -EINVAL;
	if (mutex_lock_interruptible(&e->lock))
		return -ERESTARTSYS;
	if (!to_ram && copy_from_user(e->buf, x->buf, x->len)) {
		err = -EFAULT;
		goto out;
	}
	edu_dma(e, x->offset, x->len, to_ram);
	if (to_ram && copy_to_user(x->buf, e->buf, x->len))
		err = -EFAULT;
out:
	mutex_unlock(&e->lock);
	return err;
}

static long edu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct edu_xfer x;

	if (cmd != EDU_IOC_TO_DEVICE && cmd != EDU_IOC_FROM_DEVICE)
		return -ENOTTY;
	if (copy_from_user(&x, (void __user *)arg, sizeof(x)))
		return -EFAULT;
	return edu_transfer(&edu, &x, cmd == EDU_IOC_FROM_DEVICE);
}

static const struct file_operations edu_fops = {
	.owner = THIS_MODULE,
	.read = edu_read,
	.write = edu_write,
	.unlocked_ioctl = edu_ioctl,
	.fop_flags = FOP_USER_BUFFERS, /* read and write take user pointers */
};

static __unused struct miscdevice edu_misc = {
	/* registered by probe */
	.minor = EDU_MINOR,
	.name = "edu",
	.fops = &edu_fops,
};

/*
 * TODO: enable the device; claim its regions (pci_request_regions, named
 * "edu") and map BAR0 (ioremap); check the identification register's low
 * byte (EDU_ID_MAGIC) and log "edu 0000:00:04.0: version 1.0" (pr_info with
 * pci_name(pdev): the device's own address, which depends on its slot; the
 * major version in the top byte, the minor in the next); bus mastering;
 * the DMA masks (EDU_DMA_BITS) and a coherent buffer of EDU_BUF_SIZE
 * (dma_alloc_coherent); MSI (pci_enable_msi), then request_irq on
 * pdev->irq with edu_irq and the name "edu"; set e->pdev, register edu_misc
 * with pdev's device as its parent, and pci_set_drvdata. Each step undone
 * in reverse if a later one fails (goto out_*).
 */
static int edu_probe(struct pci_dev *pdev, const struct pci_device_id *id) { return -ENODEV; }

/*
 * TODO: undo all probe did, in reverse: the misc device first (no new
 * users), free_irq before pci_disable_msi, then the work item
 * (cancel_work_sync: a run on another CPU ends first), bus mastering, the coherent buffer,
 * the mapping, the regions, the device; e->pdev = NULL.
 */
static void edu_remove(struct pci_dev *pdev) {}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{},
};
MODULE_DEVICE_TABLE(pci, edu_ids);

static struct pci_driver edu_driver = {
	.name = "edu",
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};

static int edu_init(void)
{
	mutex_init(&edu.lock);
	spin_lock_init(&edu.irq_lock);
	INIT_WORK(&edu.work, edu_work);
	return pci_register_driver(&edu_driver);
}

static void edu_exit(void) { pci_unregister_driver(&edu_driver); }

module_init(edu_init);
module_exit(edu_exit);
