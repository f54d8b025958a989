/*
 * irq.c: interrupt lines and handler dispatch. IRQ 0-15 are the ISA lines,
 * on vectors 32-47, from the I/O APIC when the machine has one and the
 * 8259 pair otherwise; IRQ 16-47 are MSI-X messages to the local APIC on
 * vectors 48-79. Each line keeps its controller (2.6's hw_interrupt_type),
 * its handlers and a count, for /proc/interrupts.
 */
#include <asm/apic.h>
#include <asm/hw_irq.h>
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/errno.h>
#include <kobold/printk.h>
#include <kobold/slab.h>
#include <kobold/smp.h>
#include <kobold/string.h>

struct irq_action {
	irq_handler_t handler;
	void *dev;
	const char *name;
	struct irq_action *next;
};

/* Linux's irq_desc, cut down: the controller ("handler" in 2.6), handlers, count. */
struct irq_desc {
	struct hw_interrupt_type *chip;
	struct irq_action *action;
	unsigned long count[NR_CPUS]; /* per CPU, as 2.6's kstat_cpu(cpu).irqs[irq] */
};

static struct irq_desc irq_desc[NR_IRQS];
static unsigned long irq_err_count;

static enum irqreturn no_action(int irq, void *dev)
{
	return IRQ_NONE;
}

/* IRQ 2 carries the slave 8259: shown, never requested. */
static struct irq_action cascade = { no_action, NULL, "cascade", NULL };

void set_irq_chip(unsigned int irq, struct hw_interrupt_type *chip)
{
	if (irq < NR_IRQS)
		irq_desc[irq].chip = chip;
}

int set_irq_type(unsigned int irq, unsigned int type)
{
	struct hw_interrupt_type *chip = irq < NR_IRQS ? irq_desc[irq].chip : NULL;

	if (!chip || !chip->set_type)
		return -EINVAL;
	return chip->set_type(irq, type);
}

/* The ISA lines on the 8259, then on the I/O APIC if there is one; the cascade as 2.6 shows it. */
void init_IRQ(void)
{
	init_ISA_irqs();
	irq_desc[2].action = &cascade;
	if (apic_init())
		setup_IO_APIC();
	irq_desc[2].chip = &i8259A_irq_type;
}

static bool msi_ack(unsigned int irq)
{
	return true;
}

static void msi_end(unsigned int irq)
{
	apic_eoi();
}

/* Linux 2.6's typename for MSI-X lines; the message needs only the APIC's EOI. */
static struct hw_interrupt_type msix_irq_type = {
	.typename = "PCI-MSI-X",
	.ack = msi_ack,
	.end = msi_end,
};

int create_irq(void)
{
	unsigned long flags = local_irq_save();
	int irq = -ENOSPC;

	for (int i = NR_IRQS_LEGACY; i < NR_IRQS && apic_present(); i++) {
		if (!irq_desc[i].chip) {
			irq_desc[i] = (struct irq_desc){ .chip = &msix_irq_type };
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
	if (a == irq_desc[irq].action && irq_desc[irq].chip->enable)
		irq_desc[irq].chip->enable((unsigned int)irq);
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
	if (!irq_desc[irq].action && irq_desc[irq].chip && irq_desc[irq].chip->disable)
		irq_desc[irq].chip->disable((unsigned int)irq);
	local_irq_restore(flags);
}

void irq_count_spurious(void)
{
	irq_err_count++;
}

static void handle(int irq)
{
	irq_desc[irq].count[smp_processor_id()]++;
	for (struct irq_action *a = irq_desc[irq].action; a; a = a->next)
		a->handler(irq, a->dev);
}

void irq_dispatch(int irq)
{
	struct hw_interrupt_type *chip = irq_desc[irq].chip;

	if (!chip) { /* a message after destroy_irq: the APIC still wants its EOI */
		irq_count_spurious();
		apic_eoi();
		return;
	}
	if (!chip->ack((unsigned int)irq))
		return;
	handle(irq);
	chip->end((unsigned int)irq);
}

unsigned long irq_count(int irq)
{
	unsigned long sum = 0;

	if (irq < 0 || irq >= NR_IRQS)
		return 0;
	for (int cpu = 0; cpu < NR_CPUS; cpu++)
		sum += irq_desc[irq].count[cpu];
	return sum;
}

/* One line per IRQ with a handler: number, count per CPU, controller, handlers' names. */
static size_t show_irq(char *buf, size_t size, int irq)
{
	const struct irq_desc *desc = &irq_desc[irq];
	size_t n = scnprintf(buf, size, "%3d: ", irq);
	unsigned int cpu;

	for_each_online_cpu(cpu)
		n += scnprintf(buf + n, size - n, "%10lu ", desc->count[cpu]);
	n += scnprintf(buf + n, size - n, " %14s  %s", desc->chip->typename, desc->action->name);

	for (const struct irq_action *a = desc->action->next; a; a = a->next)
		n += scnprintf(buf + n, size - n, ", %s", a->name);
	return n + scnprintf(buf + n, size - n, "\n");
}

size_t show_interrupts(char *buf, size_t size)
{
	unsigned long flags = local_irq_save();
	size_t n = scnprintf(buf, size, "           ");
	unsigned int cpu;

	for_each_online_cpu(cpu)
		n += scnprintf(buf + n, size - n, "CPU%-8u", cpu);
	n += scnprintf(buf + n, size - n, "\n");

	for (int irq = 0; irq < NR_IRQS; irq++)
		if (irq_desc[irq].action)
			n += show_irq(buf + n, size - n, irq);
	n += scnprintf(buf + n, size - n, "ERR: %10lu\n", irq_err_count);
	local_irq_restore(flags);
	return n;
}
