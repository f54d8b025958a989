/*
 * i8259.c: the 8259A PIC pair of every PC (Linux 2.6's
 * arch/i386/kernel/i8259.c), and its system device
 * /sys/devices/system/i8259/i82590. IRQ 0-15 arrive on vectors 32-47;
 * the slave sits on the master's IRQ 2. With an I/O APIC the pair is
 * masked and only its system device remains. The ELCR (edge/level control,
 * PIIX datasheet §4.1.9) makes PCI's shared lines level-triggered.
 */
#include <asm/hw_irq.h>
#include <asm/io.h>
#include <kobold/errno.h>
#include <kobold/sysdev.h>

#define PIC_MASTER_CMD 0x20
#define PIC_MASTER_IMR 0x21
#define PIC_SLAVE_CMD 0xa0
#define PIC_SLAVE_IMR 0xa1
#define PIC_ELCR1 0x4d0
#define PIC_ELCR2 0x4d1
#define PIC_EOI 0x20
#define PIC_READ_ISR 0x0b
#define PIC_CASCADE_IR 2

static u16 cached_irq_mask = 0xffff & ~(1u << PIC_CASCADE_IR);
static u16 saved_elcr;

static void write_masks(void)
{
	outb(PIC_MASTER_IMR, (u8)cached_irq_mask);
	outb(PIC_SLAVE_IMR, (u8)(cached_irq_mask >> 8));
}

/* ICW1-4 (8259A datasheet): edge mode as the PC wires it, cascade on IRQ 2; masks kept. */
static void init_8259A(void)
{
	outb(PIC_MASTER_CMD, 0x11);
	outb(PIC_SLAVE_CMD, 0x11);
	outb(PIC_MASTER_IMR, IRQ_BASE);
	outb(PIC_SLAVE_IMR, IRQ_BASE + 8);
	outb(PIC_MASTER_IMR, 1u << PIC_CASCADE_IR);
	outb(PIC_SLAVE_IMR, PIC_CASCADE_IR);
	outb(PIC_MASTER_IMR, 0x01);
	outb(PIC_SLAVE_IMR, 0x01);
	write_masks();
}

static void enable_8259A_irq(unsigned int irq)
{
	cached_irq_mask &= (u16) ~(1u << irq);
	write_masks();
}

static void disable_8259A_irq(unsigned int irq)
{
	cached_irq_mask |= (u16)(1u << irq);
	write_masks();
}

/* IRQ 7 and 15 may be spurious: the PIC's in-service bit then is clear. */
static bool ack_8259A(unsigned int irq)
{
	u16 cmd = irq == 7 ? PIC_MASTER_CMD : PIC_SLAVE_CMD;

	if (irq != 7 && irq != 15)
		return true;
	outb(cmd, PIC_READ_ISR);
	if (inb(cmd) & 0x80)
		return true;
	if (irq == 15)
		outb(PIC_MASTER_CMD, PIC_EOI); /* the master did see the cascade */
	irq_count_spurious();
	return false;
}

static void end_8259A_irq(unsigned int irq)
{
	if (irq >= 8)
		outb(PIC_SLAVE_CMD, PIC_EOI);
	outb(PIC_MASTER_CMD, PIC_EOI);
}

static u16 read_elcr(void)
{
	return (u16)(inb(PIC_ELCR1) | inb(PIC_ELCR2) << 8);
}

static void write_elcr(u16 v)
{
	outb(PIC_ELCR1, (u8)v);
	outb(PIC_ELCR2, (u8)(v >> 8));
}

static int set_type_8259A(unsigned int irq, unsigned int type)
{
	u16 elcr = read_elcr();

	write_elcr(type == IRQ_TYPE_LEVEL ? elcr | (u16)(1u << irq) : elcr & (u16) ~(1u << irq));
	return 0;
}

struct hw_interrupt_type i8259A_irq_type = {
	.typename = "XT-PIC",
	.enable = enable_8259A_irq,
	.disable = disable_8259A_irq,
	.ack = ack_8259A,
	.end = end_8259A_irq,
	.set_type = set_type_8259A,
};

void init_ISA_irqs(void)
{
	init_8259A();
	for (unsigned int irq = 0; irq < NR_IRQS_LEGACY; irq++)
		set_irq_chip(irq, &i8259A_irq_type);
}

/* The I/O APIC takes the lines: every one masked here, the cascade too. */
void disable_8259A(void)
{
	cached_irq_mask = 0xffff;
	write_masks();
}

static int i8259A_suspend(struct sys_device *dev, pm_message_t state)
{
	saved_elcr = read_elcr();
	return 0;
}

static int i8259A_resume(struct sys_device *dev)
{
	init_8259A();
	write_elcr(saved_elcr);
	return 0;
}

/* Quiet, so that the next kernel's init finds no line raised (as 2.6's). */
static int i8259A_shutdown(struct sys_device *dev)
{
	outb(PIC_MASTER_IMR, 0xff);
	outb(PIC_SLAVE_IMR, 0xff);
	return 0;
}

static struct sysdev_class i8259_sysdev_class = {
	.name = "i8259",
	.suspend = i8259A_suspend,
	.resume = i8259A_resume,
	.shutdown = i8259A_shutdown,
};

static struct sys_device device_i8259A = {
	.id = 0,
	.cls = &i8259_sysdev_class,
};

int i8259_init_sysfs(void)
{
	int err = sysdev_class_register(&i8259_sysdev_class);

	return err ? err : sysdev_register(&device_i8259A);
}
