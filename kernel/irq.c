/*
 * irq.c: interrupt lines and handler dispatch. IRQ 0-15 come from the
 * 8259A PIC pair, remapped to vectors 32-47; IRQ 16-47 are MSI-X messages
 * to the local APIC on vectors 48-79. Each line keeps its controller's
 * name, its handlers and a count, for /proc/interrupts.
 */
#include <asm/apic.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/string.h>

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

/* Linux's irq_desc, cut down: the controller's name (typename in 2.6), handlers, count. */
struct irq_desc {
	const char *chip;
	struct irq_action *action;
	unsigned long count;
};

static struct irq_desc irq_desc[NR_IRQS];
static unsigned long irq_err_count;

static enum irqreturn no_action(int irq, void *dev)
{
	return IRQ_NONE;
}

/* IRQ 2 carries the slave 8259: shown, never requested. */
static struct irq_action cascade = { no_action, NULL, "cascade", NULL };

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
	outb(PIC1_DATA, 0xfb); /* everything masked but the cascade */
	outb(PIC2_DATA, 0xff);
	for (int i = 0; i < NR_IRQS_LEGACY; i++)
		irq_desc[i].chip = "XT-PIC";
	irq_desc[2].action = &cascade;
}

static void pic_set_mask(int irq, bool masked)
{
	u16 port = irq < 8 ? PIC1_DATA : PIC2_DATA;
	u8 bit = (u8)(1u << (irq & 7));
	u8 v = inb(port);

	outb(port, masked ? (u8)(v | bit) : (u8)(v & ~bit));
}

int create_irq(void)
{
	unsigned long flags = local_irq_save();
	int irq = -ENOSPC;

	for (int i = NR_IRQS_LEGACY; i < NR_IRQS && apic_present(); i++) {
		if (!irq_desc[i].chip) {
			irq_desc[i] = (struct irq_desc){ .chip = "PCI-MSI-X" };
			irq = i;
			break;
		}
	}
	local_irq_restore(flags);
	return irq;
}

void destroy_irq(int irq)
{
	if (irq < NR_IRQS_LEGACY || irq >= NR_IRQS)
		return;
	WARN(irq_desc[irq].action, "destroy_irq: IRQ %d still has a handler", irq);
	irq_desc[irq].chip = NULL;
}

int request_irq(int irq, irq_handler_t handler, const char *name, void *dev)
{
	struct irq_action *a, **pp;
	unsigned long flags;

	if (irq < 0 || irq >= NR_IRQS || irq == 2 || !handler || !irq_desc[irq].chip)
		return -EINVAL;
	a = kzalloc(sizeof(*a));
	if (!a)
		return -ENOMEM;
	*a = (struct irq_action){ handler, dev, name, NULL };
	flags = local_irq_save();
	for (pp = &irq_desc[irq].action; *pp; pp = &(*pp)->next)
		;
	*pp = a;
	if (irq < NR_IRQS_LEGACY)
		pic_set_mask(irq, false);
	local_irq_restore(flags);
	return 0;
}

void free_irq(int irq, void *dev)
{
	struct irq_action **pp, *a;
	unsigned long flags;

	if (irq < 0 || irq >= NR_IRQS || irq == 2)
		return;
	flags = local_irq_save();
	for (pp = &irq_desc[irq].action; *pp; pp = &(*pp)->next) {
		if ((*pp)->dev == dev) {
			a = *pp;
			*pp = a->next;
			kfree(a);
			break;
		}
	}
	if (!irq_desc[irq].action && irq < NR_IRQS_LEGACY)
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
		outb(PIC1_CMD, PIC_EOI); /* the master did see the cascade */
	irq_count_spurious();
	return true;
}

void irq_count_spurious(void)
{
	irq_err_count++;
}

static void handle(int irq)
{
	irq_desc[irq].count++;
	for (struct irq_action *a = irq_desc[irq].action; a; a = a->next)
		a->handler(irq, a->dev);
}

void irq_dispatch(int irq)
{
	if (irq >= NR_IRQS_LEGACY) { /* a message: the APIC wants its EOI */
		handle(irq);
		apic_eoi();
		return;
	}
	if (spurious(irq))
		return;
	handle(irq);
	if (irq >= 8)
		outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
}

unsigned long irq_count(int irq)
{
	return irq >= 0 && irq < NR_IRQS ? irq_desc[irq].count : 0;
}

/* One line per IRQ with a handler: number, count per CPU, controller, handlers' names. */
static size_t show_irq(char *buf, size_t size, int irq)
{
	const struct irq_desc *desc = &irq_desc[irq];
	size_t n = scnprintf(buf, size, "%3d: %10lu  %14s  %s", irq, desc->count, desc->chip,
			     desc->action->name);

	for (const struct irq_action *a = desc->action->next; a; a = a->next)
		n += scnprintf(buf + n, size - n, ", %s", a->name);
	return n + scnprintf(buf + n, size - n, "\n");
}

size_t show_interrupts(char *buf, size_t size)
{
	unsigned long flags = local_irq_save();
	size_t n = scnprintf(buf, size, "           CPU0       \n");

	for (int irq = 0; irq < NR_IRQS; irq++)
		if (irq_desc[irq].action)
			n += show_irq(buf + n, size - n, irq);
	n += scnprintf(buf + n, size - n, "ERR: %10lu\n", irq_err_count);
	local_irq_restore(flags);
	return n;
}
