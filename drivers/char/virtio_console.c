/*
 * virtio_console.c: the virtio console (virtio 1.1 §5.3; QEMU: -device
 * virtio-serial-pci -device virtconsole,chardev=ID) as hvc0, hvc1, ...
 * (char 229:N, Linux's numbers), each a console as the serial port is: a
 * tty of its own (what arrives goes to n_tty, a shell runs on it), and the
 * kernel's messages go out of every port. Port 0 only: VIRTIO_CONSOLE_F_MULTIPORT is not offered
 * back, so the device has two queues and no control messages (§5.3.6).
 */
#include <asm/io.h>
#include <kobold/clock.h>
#include <kobold/console.h>
#include <kobold/err.h>
#include <kobold/errno.h>
#include <kobold/fs.h>
#include <kobold/module.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/tty.h>
#include <kobold/virtio.h>
#include <kobold/virtio_config.h>

#define VIRTIO_ID_CONSOLE 3
#define HVC_MAX 8 /* Linux's HVC_ALLOC_TTY_ADAPTERS */
#define NR_INBUFS 8
#define INBUF_SIZE 128 /* small pieces: the serial port's bytes get in between */
#define OUTBUF_SIZE 256
#define TX_TIMEOUT_NS 100000000ULL /* a host that stops reading costs 100 ms once */

struct port {
	struct virtio_device *vdev;
	struct virtqueue *in_vq, *out_vq; /* receiveq0 and transmitq0 (§5.3.2) */
	struct device *dev;		  /* hvcN in the tty class */
	struct tty_struct *tty;		  /* its line: n_tty, and the shell on it */
	struct list_head list;		  /* in ports */
	int index;
	u8 *inbufs[NR_INBUFS];
	/* Buffers the device filled, oldest first; `offset` bytes of the first are taken. */
	struct {
		u8 *buf;
		u32 len;
	} filled[NR_INBUFS];
	unsigned int nr_filled, offset;
	u8 *outbuf;
	bool out_held; /* the device has not given outbuf back yet */
};

static LIST_HEAD(ports); /* changed and walked with interrupts off */
static u32 index_used;

static struct port *find_port(int index)
{
	struct port *port;

	list_for_each_entry(port, &ports, list)
		if (port->index == index)
			return port;
	return NULL;
}

/* ---- receive: the device fills our buffers; their bytes go to the port's tty ---- */

static int add_inbuf(struct port *port, u8 *buf)
{
	struct scatterlist sg;

	sg_set_buf(&sg, buf, INBUF_SIZE);
	return virtqueue_add_buf(port->in_vq, &sg, 0, 1, buf);
}

/* Moves filled bytes into the tty while it has room; emptied buffers go back. */
static void port_push_input(struct port *port)
{
	bool added = false;

	while (port->tty && port->nr_filled) {
		u8 *buf = port->filled[0].buf;

		port->offset += tty_insert_flip_string(port->tty, buf + port->offset,
						       port->filled[0].len - port->offset);
		if (port->offset < port->filled[0].len)
			break; /* the rest waits with us until unthrottle; the device holds more */
		port->nr_filled--;
		memmove(&port->filled[0], &port->filled[1], port->nr_filled * sizeof(port->filled[0]));
		port->offset = 0;
		added |= add_inbuf(port, buf) == 0;
	}
	if (added)
		virtqueue_kick(port->in_vq);
}

/* The reader made room again (interrupts are off). */
static void hvc_unthrottle(struct tty_struct *tty)
{
	struct port *port = tty->driver_data;

	if (!list_empty(&port->list))
		port_push_input(port);
}

/* receiveq's callback, from the interrupt handler. */
static void in_intr(struct virtqueue *vq)
{
	struct port *port = vq->vdev->priv;
	u32 len;
	u8 *buf;

	while (port->nr_filled < NR_INBUFS && (buf = virtqueue_get_buf(vq, &len))) {
		port->filled[port->nr_filled].buf = buf;
		port->filled[port->nr_filled].len = min(len, (u32)INBUF_SIZE);
		port->nr_filled++;
	}
	port_push_input(port);
}

/* ---- transmit: one buffer, copied out and waited for, as Linux's __send_to_port ---- */

static bool reclaim_outbuf(struct port *port)
{
	u32 len;

	while (virtqueue_get_buf(port->out_vq, &len))
		port->out_held = false;
	return !port->out_held;
}

/* Waits (a while) for the device to take the buffer; QEMU usually has before the kick returns. */
static int send_outbuf(struct port *port, u32 len)
{
	struct scatterlist sg;
	u64 end = ktime_get_ns() + TX_TIMEOUT_NS;
	int err;

	sg_set_buf(&sg, port->outbuf, len);
	err = virtqueue_add_buf(port->out_vq, &sg, 1, 0, port->outbuf);
	if (err)
		return err;
	port->out_held = true;
	virtqueue_kick(port->out_vq);
	while (!reclaim_outbuf(port))
		if (ktime_get_ns() > end)
			return -EAGAIN; /* later writes are dropped until it comes back */
	return 0;
}

/* Interrupts off. "\n" goes out as "\r\n" (a tty's ONLCR). Bytes sent, or an error. */
static ssize_t port_write(struct port *port, const char *s, size_t n)
{
	size_t done = 0;
	int err;

	if (!reclaim_outbuf(port))
		return -EAGAIN;
	while (done < n) {
		u32 len = 0;

		while (done < n && len < OUTBUF_SIZE - 1) {
			if (s[done] == '\n')
				port->outbuf[len++] = '\r';
			port->outbuf[len++] = (u8)s[done++];
		}
		err = send_outbuf(port, len);
		if (err)
			return err;
	}
	return (ssize_t)n;
}

/* The console: what the shell and the kernel print goes to every port. */
static void hvc_console_write(const char *s, size_t n)
{
	unsigned long flags = local_irq_save();
	struct port *port;

	list_for_each_entry(port, &ports, list)
		port_write(port, s, n);
	local_irq_restore(flags);
}

static struct console hvc_console = { .name = "hvc", .write = hvc_console_write };

/* The tty's output (its shell's): this port only. Interrupts are off (tty_write). */
static void hvc_tty_write(struct tty_struct *tty, const char *s, size_t n)
{
	port_write(tty->driver_data, s, n);
}

static const struct tty_operations hvc_tty_ops = {
	.write = hvc_tty_write,
	.unthrottle = hvc_unthrottle,
};

/* ---- /dev/hvcN ---- */

static int hvc_open(struct inode *inode, struct file *file)
{
	unsigned long flags = local_irq_save();
	bool found = find_port((int)MINOR(inode->i_rdev)) != NULL;

	local_irq_restore(flags);
	if (!found)
		return -ENXIO; /* Linux: no such terminal */
	file->private_data = (void *)(uintptr_t)MINOR(inode->i_rdev);
	return 0;
}

/* The port may have gone since the open (unbind): then ENODEV, as a hung-up tty's EIO would. */
static ssize_t hvc_write(struct file *file, const char *buf, size_t n, loff_t *pos)
{
	unsigned long flags = local_irq_save();
	struct port *port = find_port((int)(uintptr_t)file->private_data);
	ssize_t ret = port ? port_write(port, buf, n) : -ENODEV;

	local_irq_restore(flags);
	return ret;
}

/* The tty's read (shared with the shell on it), as ttyS0's node. */
static const struct file_operations hvc_fops = {
	.owner = THIS_MODULE,
	.open = hvc_open,
	.read = tty_file_read,
	.write = hvc_write,
};

/* ---- the driver ---- */

static int alloc_index(void)
{
	for (int i = 0; i < HVC_MAX; i++)
		if (!(index_used & (1u << i))) {
			index_used |= 1u << i;
			return i;
		}
	return -ENOSPC;
}

static void free_port(struct port *port)
{
	for (int i = 0; i < NR_INBUFS; i++)
		kfree(port->inbufs[i]);
	kfree(port->outbuf);
	index_used &= ~(1u << port->index);
	kfree(port);
}

static struct port *alloc_port(struct virtio_device *vdev)
{
	int index = alloc_index();
	struct port *port = index < 0 ? NULL : kzalloc(sizeof(*port));
	bool ok;

	if (index < 0)
		return ERR_PTR(-ENOSPC);
	if (!port) {
		index_used &= ~(1u << index);
		return ERR_PTR(-ENOMEM);
	}
	port->vdev = vdev;
	port->index = index;
	INIT_LIST_HEAD(&port->list);
	port->outbuf = kmalloc(OUTBUF_SIZE);
	ok = port->outbuf != NULL;
	for (int i = 0; i < NR_INBUFS; i++)
		ok &= (port->inbufs[i] = kmalloc(INBUF_SIZE)) != NULL;
	if (!ok) {
		free_port(port);
		return ERR_PTR(-ENOMEM);
	}
	return port;
}

static int find_queues(struct port *port)
{
	vq_callback_t *callbacks[] = { in_intr, NULL };
	const char *const names[] = { "input", "output" };
	struct virtqueue *vqs[2];
	int err = port->vdev->config->find_vqs(port->vdev, 2, vqs, callbacks, names);

	if (err)
		return err;
	port->in_vq = vqs[0];
	port->out_vq = vqs[1];
	for (int i = 0; i < NR_INBUFS; i++)
		add_inbuf(port, port->inbufs[i]);
	return 0;
}

/* DRIVER_OK, and in the list (and the console, with the first port) at once. */
static void port_go_live(struct port *port)
{
	unsigned long flags = local_irq_save();

	virtio_device_ready(port->vdev);
	if (list_empty(&ports))
		register_console(&hvc_console);
	list_add_tail(&port->list, &ports);
	virtqueue_kick(port->in_vq);
	local_irq_restore(flags);
}

static void port_leave(struct port *port)
{
	unsigned long flags = local_irq_save();

	list_del_init(&port->list);
	if (list_empty(&ports))
		unregister_console(&hvc_console);
	local_irq_restore(flags);
}

static int virtcons_probe(struct virtio_device *vdev)
{
	struct port *port = alloc_port(vdev);
	char name[8];
	int err;

	if (IS_ERR(port))
		return (int)PTR_ERR(port);
	vdev->priv = port;
	err = find_queues(port);
	if (err)
		goto out_free;
	snprintf(name, sizeof(name), "hvc%d", port->index);
	port->tty = tty_alloc(name, MKDEV(HVC_MAJOR, port->index), &hvc_tty_ops, port);
	if (!port->tty) {
		err = -ENOMEM;
		goto out_vqs;
	}
	port->dev = tty_register_device(MKDEV(HVC_MAJOR, port->index), &vdev->dev, name);
	if (IS_ERR(port->dev)) {
		err = (int)PTR_ERR(port->dev);
		goto out_tty;
	}
	port_go_live(port);
	pr_info("virtio_console %s: %s (%d:%d), %s transport\n", dev_name(&vdev->dev), name,
		HVC_MAJOR, port->index, vdev->config->bus_name(vdev));
	tty_register_console(port->tty); /* a shell starts on it */
	return 0;

out_tty:
	tty_hangup_and_put(port->tty);
out_vqs:
	vdev->config->reset(vdev);
	vdev->config->del_vqs(vdev);
out_free:
	vdev->priv = NULL;
	free_port(port);
	return err;
}

static void virtcons_remove(struct virtio_device *vdev)
{
	struct port *port = vdev->priv;
	struct tty_struct *tty;
	unsigned long flags;

	port_leave(port); /* no more console output or input through it */
	flags = local_irq_save();
	tty = port->tty;
	port->tty = NULL; /* an interrupt from now on finds no line */
	local_irq_restore(flags);
	tty_hangup_and_put(tty); /* its shell ends; readers see end of file */
	tty_unregister_device(port->dev);
	vdev->config->reset(vdev);
	while (virtqueue_detach_unused_buf(port->in_vq) || virtqueue_detach_unused_buf(port->out_vq))
		; /* the buffers are the port's: freed below */
	vdev->config->del_vqs(vdev);
	vdev->priv = NULL;
	free_port(port);
}

static const struct virtio_device_id id_table[] = {
	{ VIRTIO_ID_CONSOLE, VIRTIO_DEV_ANY_ID },
	{ 0 },
};
MODULE_DEVICE_TABLE(virtio, id_table);

static struct virtio_driver virtio_console = {
	.name = "virtio_console",
	.id_table = id_table,
	.probe = virtcons_probe,
	.remove = virtcons_remove,
};

static int virtio_console_init(void)
{
	int err = register_chrdev(HVC_MAJOR, "hvc", &hvc_fops);

	if (err < 0)
		return err;
	err = register_virtio_driver(&virtio_console);
	if (err)
		unregister_chrdev(HVC_MAJOR, "hvc");
	return err;
}

static void virtio_console_exit(void)
{
	unregister_virtio_driver(&virtio_console);
	unregister_chrdev(HVC_MAJOR, "hvc");
}

module_init(virtio_console_init);
module_exit(virtio_console_exit);
