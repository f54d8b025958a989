/* irq.c: the 8259A PIC pair, remapped to vectors 32-47, and handler dispatch. */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/slab.h>

#define PIC1_CMD 0x20
#define PIC1_DATA 0x21
#define PIC2_CMD 0xa0
#define PIC2_DATA 0xa1
#define PIC_EOI 0x20
#define PIC_READ_ISR 0x0b

struct irq_action {
	irq_handler_t handler;
	void *dev;
	const char *name;
	struct irq_action *next;
};

static struct irq_action *actions[NR_IRQS];
static unsigned long counts[NR_IRQS];

void pic_init(void)
{
	/* ICW1-4 (8259A datasheet): edge mode as the PC wires it, cascade on IRQ 2. */
	outb(PIC1_CMD, 0x11);
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, IRQ_BASE);
	outb(PIC2_DATA, IRQ_BASE + 8);
	outb(PIC1_DATA, 0x04);
	outb(PIC2_DATA, 0x02);
	outb(PIC1_DATA, 0x01);
	outb(PIC2_DATA, 0x01);
	outb(PIC1_DATA, 0xfb);	/* everything masked but the cascade */
	outb(PIC2_DATA, 0xff);
}

static void pic_set_mask(int irq, bool masked)
{
	u16 port = irq < 8 ? PIC1_DATA : PIC2_DATA;
	u8 bit = (u8)(1u << (irq & 7));
	u8 v = inb(port);

	outb(port, masked ? (u8)(v | bit) : (u8)(v & ~bit));
}

int request_irq(int irq, irq_handler_t handler, const char *name, void *dev)
{
	struct irq_action *a, **pp;
	unsigned long flags;

	if (irq < 0 || irq >= NR_IRQS || irq == 2 || !handler)
		return -EINVAL;
	a = kzalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct irq_action){ handler, dev, name, NULL };
	flags = local_irq_save();
	for (pp = &actions[irq]; *pp; pp = &(*pp)->next)
		;
	*pp = a;
	pic_set_mask(irq, false);
	local_irq_restore(flags);
	return 0;
}

void free_irq(int irq, void *dev)
{
	struct irq_action **pp, *a;
	unsigned long flags;

	if (irq < 0 || irq >= NR_IRQS)
		return;
	flags = local_irq_save();
	for (pp = &actions[irq]; *pp; pp = &(*pp)->next) {
		if ((*pp)->dev == dev) {
			a = *pp;
			*pp = a->next;
			kfree(a);
			break;
		}
	}
	if (!actions[irq])
		pic_set_mask(irq, true);
	local_irq_restore(flags);
}

/* IRQ 7 and 15 may be spurious: the PIC's in-service bit then is clear. */
static bool spurious(int irq)
{
	u16 cmd = irq == 7 ? PIC1_CMD : PIC2_CMD;

	if (irq != 7 && irq != 15)
		return false;
	outb(cmd, PIC_READ_ISR);
	if (inb(cmd) & 0x80)
		return false;
	if (irq == 15)
		outb(PIC1_CMD, PIC_EOI);	/* the master did see the cascade */
	return true;
}

void irq_dispatch(int irq)
{
	struct irq_action *a;

	if (spurious(irq))
		return;
	counts[irq]++;
	for (a = actions[irq]; a; a = a->next)
		a->handler(irq, a->dev);
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
}

unsigned long irq_count(int irq)
{
	return irq >= 0 && irq < NR_IRQS ? counts[irq] : 0;
}
