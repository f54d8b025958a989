/*
 * i8042.c: the PS/2 controller (Linux 2.6's drivers/input/serio/i8042.c),
 * a platform driver. It owns IRQ 1 and registers its keyboard port as
 * serio0 (QEMU's -M pc has one; the AUX port, serio1 in Linux, is left out),
 * handing each byte to the driver bound there (atkbd).
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/i8042.h>
#include <kobold/platform_device.h>
#include <kobold/printk.h>
#include <kobold/serio.h>
#include <kobold/slab.h>
#include <kobold/spinlock.h>
#include <kobold/string.h>

#define I8042_DATA_REG 0x60
#define I8042_STATUS_REG 0x64
#define I8042_COMMAND_REG 0x64 /* written: a command; read: the status */
#define I8042_STR_OBF 0x01     /* a byte waits in the output buffer */
#define I8042_STR_IBF 0x02     /* the controller has not taken our last byte */
#define I8042_CMD_PULSE_RESET 0xfe
#define I8042_STR_AUXDATA 0x20 /* ... and it came from the AUX port */
#define I8042_KBD_IRQ 1
#define I8042_FLUSH_MAX 1024 /* bytes: more than QEMU's PS/2 queue (256) holds */

struct i8042 {
	struct serio *kbd_port;
	int irq;
};

/* The filter (include/kobold/i8042.h), called under the lock: removing it waits for a call. */
static DEFINE_SPINLOCK(i8042_filter_lock);
static i8042_filter_t i8042_filter;

int i8042_install_filter(i8042_filter_t filter)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&i8042_filter_lock, flags);
	if (i8042_filter)
		err = -EBUSY;
	else
		i8042_filter = filter;
	spin_unlock_irqrestore(&i8042_filter_lock, flags);
	return err;
}

int i8042_remove_filter(i8042_filter_t filter)
{
	unsigned long flags;
	int err = 0;

	spin_lock_irqsave(&i8042_filter_lock, flags);
	if (i8042_filter != filter)
		err = -EINVAL;
	else
		i8042_filter = NULL;
	spin_unlock_irqrestore(&i8042_filter_lock, flags);
	return err;
}

static bool i8042_filtered(u8 data, u8 str, struct serio *port)
{
	bool drop;

	spin_lock(&i8042_filter_lock);
	drop = i8042_filter && i8042_filter(data, str, port);
	spin_unlock(&i8042_filter_lock);
	return drop;
}

static enum irqreturn i8042_interrupt(int irq, void *dev_id)
{
	struct i8042 *i8042 = dev_id;
	u8 str = inb(I8042_STATUS_REG), data;

	if (!(str & I8042_STR_OBF))
		return IRQ_NONE;
	data = inb(I8042_DATA_REG);
	if (str & I8042_STR_AUXDATA)
		return IRQ_HANDLED; /* no AUX port: a mouse byte is dropped */
	if (i8042_filtered(data, str, i8042->kbd_port))
		return IRQ_HANDLED;
	return serio_interrupt(i8042->kbd_port, data, 0);
}

/* Drops what the firmware left; false if the controller never empties (none there). */
static bool i8042_flush(void)
{
	for (int i = 0; i < I8042_FLUSH_MAX; i++) {
		u8 str = inb(I8042_STATUS_REG);

		if (str == 0xff)
			return false; /* nothing answers at the port */
		if (!(str & I8042_STR_OBF))
			return true;
		inb(I8042_DATA_REG);
	}
	return false;
}

/* Is there a controller at all? (The platform code asks before it adds the device.) */
bool i8042_controller_present(void)
{
	return inb(I8042_STATUS_REG) != 0xff;
}

/*
 * Restart the machine through the controller's output port: command 0xfe
 * pulses the CPU's reset line (Linux 2.6's machine_restart did it itself,
 * in arch/i386/kernel/reboot.c; here the port's one owner does).
 */
void i8042_pulse_reset(void)
{
	for (int i = 0; i < 10000 && (inb(I8042_STATUS_REG) & I8042_STR_IBF); i++)
		;
	outb(I8042_COMMAND_REG, I8042_CMD_PULSE_RESET);
}

static struct serio *i8042_create_kbd_port(struct platform_device *pdev, struct i8042 *i8042)
{
	struct serio *serio = kzalloc(sizeof(*serio));

	if (!serio)
		return NULL;
	serio->id.type = SERIO_8042_XL; /* the controller translates to set 1 */
	serio->port_data = i8042;
	serio->dev.parent = &pdev->dev;
	strscpy(serio->name, "i8042 KBD port", sizeof(serio->name));
	strscpy(serio->phys, "isa0060/serio0", sizeof(serio->phys));
	return serio;
}

static int i8042_probe(struct platform_device *pdev)
{
	struct i8042 *i8042 = kzalloc(sizeof(*i8042));
	int err = -ENOMEM;

	if (!i8042)
		goto out;
	err = -ENODEV;
	if (!i8042_flush()) {
		pr_err("i8042: No controller found.\n");
		goto out_free;
	}
	i8042->irq = platform_get_irq(pdev, 0);
	if (i8042->irq < 0)
		i8042->irq = I8042_KBD_IRQ;
	err = -ENOMEM;
	i8042->kbd_port = i8042_create_kbd_port(pdev, i8042);
	if (!i8042->kbd_port)
		goto out_free;
	err = request_irq(i8042->irq, i8042_interrupt, "i8042", i8042);
	if (err) {
		pr_err("atkbd: no interrupt: the keyboard is not read\n");
		goto out_port;
	}
	platform_set_drvdata(pdev, i8042);
	err = serio_register_port(i8042->kbd_port); /* from here, the bus frees it */
	if (err) {
		put_device(&i8042->kbd_port->dev);
		goto out_irq;
	}
	pr_info("serio: %s at %#x,%#x irq %d\n", i8042->kbd_port->name, I8042_DATA_REG,
		I8042_STATUS_REG, i8042->irq);
	return 0;

out_irq:
	free_irq(i8042->irq, i8042);
	goto out_free;
out_port:
	kfree(i8042->kbd_port);
out_free:
	kfree(i8042);
out:
	return err;
}

static int i8042_remove(struct platform_device *pdev)
{
	struct i8042 *i8042 = platform_get_drvdata(pdev);

	free_irq(i8042->irq, i8042);		/* no byte for a port that is going */
	serio_unregister_port(i8042->kbd_port); /* atkbd lets go first */
	platform_set_drvdata(pdev, NULL);
	kfree(i8042);
	return 0;
}

static struct platform_driver i8042_driver = {
	.probe = i8042_probe,
	.remove = i8042_remove,
	.driver = { .name = "i8042" },
};

int i8042_init(void)
{
	int err = serio_init();

	if (!err)
		err = platform_driver_register(&i8042_driver);
	return err;
}
