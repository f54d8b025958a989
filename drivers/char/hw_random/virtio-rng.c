/*
 * virtio-rng.c: the virtio entropy device (virtio 1.1 §5.4; QEMU: -device
 * virtio-rng-pci) as a hardware RNG source, virtio_rng.N: one queue, into
 * which the driver puts a buffer the device fills with random bytes.
 */
#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/hw_random.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>
#include <kobold/time.h>
#include <kobold/virtio.h>
#include <kobold/virtio_config.h>

#define VIRTIO_ID_RNG 4
#define RNG_BUF_SIZE 64
#define RNG_TIMEOUT_MS 2000

struct virtrng_info {
	struct virtio_device *vdev;
	struct virtqueue *vq;
	struct hwrng hwrng;
	char name[16]; /* virtio_rng.N */
	u8 *buf;       /* the device writes here */
	volatile bool done;
	u32 len;
	int index;
};

static u32 index_used;

static void random_recv_done(struct virtqueue *vq)
{
	struct virtrng_info *vi = vq->vdev->priv;
	u32 len;

	if (virtqueue_get_buf(vq, &len)) {
		vi->len = len;
		vi->done = true;
	}
}

/* One request: a device-writable buffer, then wait (a while) for it to come back. */
static int virtio_read(struct hwrng *rng, void *data, size_t max, bool wait)
{
	struct virtrng_info *vi = rng->priv;
	struct scatterlist sg;
	unsigned long end = jiffies + RNG_TIMEOUT_MS * HZ / 1000;
	u32 want = (u32)min(max, (size_t)RNG_BUF_SIZE);
	int err;

	vi->done = false;
	sg_set_buf(&sg, vi->buf, want);
	err = virtqueue_add_buf(vi->vq, &sg, 0, 1, vi);
	if (err)
		return err;
	virtqueue_kick(vi->vq);
	for (;;) {
		local_irq_disable();
		if (vi->done || (long)(jiffies - end) >= 0)
			break;
		safe_halt();
	}
	local_irq_enable();
	if (!vi->done)
		return -ETIMEDOUT; /* the buffer stays the device's until a reset */
	memcpy(data, vi->buf, min(vi->len, want));
	return (int)min(vi->len, want);
}

static int virtrng_alloc_index(void)
{
	for (int i = 0; i < 32; i++)
		if (!(index_used & (1u << i))) {
			index_used |= 1u << i;
			return i;
		}
	return -ENOSPC;
}

static void virtrng_free(struct virtrng_info *vi)
{
	index_used &= ~(1u << vi->index);
	kfree(vi->buf);
	kfree(vi);
}

static int virtrng_probe(struct virtio_device *vdev)
{
	vq_callback_t *callbacks[] = { random_recv_done };
	const char *const names[] = { "input" };
	struct virtrng_info *vi = kzalloc(sizeof(*vi));
	int err = -ENOMEM;

	if (!vi || !(vi->buf = kmalloc(RNG_BUF_SIZE)))
		goto out_free;
	vi->index = virtrng_alloc_index();
	if (vi->index < 0) {
		err = vi->index;
		goto out_free;
	}
	snprintf(vi->name, sizeof(vi->name), "virtio_rng.%d", vi->index);
	vi->vdev = vdev;
	vdev->priv = vi;
	err = vdev->config->find_vqs(vdev, 1, &vi->vq, callbacks, names);
	if (err)
		goto out_index;
	vi->hwrng = (struct hwrng){ .name = vi->name, .read = virtio_read, .priv = vi };
	virtio_device_ready(vdev);
	err = hwrng_register(&vi->hwrng);
	if (err)
		goto out_vqs;
	return 0;

out_vqs:
	vdev->config->reset(vdev);
	vdev->config->del_vqs(vdev);
out_index:
	vdev->priv = NULL;
	virtrng_free(vi);
	return err;
out_free:
	if (vi)
		kfree(vi->buf);
	kfree(vi);
	return err;
}

static void virtrng_remove(struct virtio_device *vdev)
{
	struct virtrng_info *vi = vdev->priv;

	hwrng_unregister(&vi->hwrng);
	vdev->config->reset(vdev);
	vdev->config->del_vqs(vdev);
	vdev->priv = NULL;
	virtrng_free(vi);
}

static const struct virtio_device_id id_table[] = {
	{ VIRTIO_ID_RNG, VIRTIO_DEV_ANY_ID },
	{ 0 },
};

static struct virtio_driver virtio_rng_driver = {
	.name = "virtio_rng",
	.id_table = id_table,
	.probe = virtrng_probe,
	.remove = virtrng_remove,
};

int virtio_rng_init(void)
{
	return register_virtio_driver(&virtio_rng_driver);
}
