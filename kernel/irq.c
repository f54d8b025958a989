/*
 * irq.c: interrupt lines and handler dispatch. IRQ 0-15 are the ISA lines,
 * on vectors 32-47, from the I/O APIC when the machine has one and the
 * 8259 pair otherwise; IRQ 16-47 are MSI and MSI-X messages to the local APIC on
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
	unsigned long affinity;	      /* /proc/irq/N/smp_affinity; 0 read as CPU 0's */
	unsigned int irq_count;	      /* note_interrupt's window, and the unhandled in it */
	unsigned int irqs_unhandled;
};

static struct irq_desc irq_desc[NR_IRQS];
static unsigned long irq_err_count;
static unsigned long nmi_count[NR_CPUS];       /* NMI: 2.6's nmi_count(cpu) */
static unsigned long apic_timer_irqs[NR_CPUS]; /* LOC: 2.6's irq_stat[cpu].apic_timer_irqs */

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

/* Linux 2.6's typenames for MSI and MSI-X lines; a message needs only the APIC's EOI. */
static struct hw_interrupt_type msix_irq_type = {
	.typename = "PCI-MSI-X",
	.ack = msi_ack,
	.end = msi_end,
};

static struct hw_interrupt_type msi_irq_type = {
	.typename = "PCI-MSI",
	.ack = msi_ack,
	.end = msi_end,
};

static int alloc_msg_irq(struct hw_interrupt_type *chip)
{
	unsigned long flags = local_irq_save();
	int irq = -ENOSPC;

	for (int i = NR_IRQS_LEGACY; i < NR_IRQS && apic_present(); i++) {
		if (!irq_desc[i].chip) {
			irq_desc[i] = (struct irq_desc){ .chip = chip, .affinity = 1ul << 0 };
			irq = i;
			break;
		}
	}
	local_irq_restore(flags);
	return irq;
}

int create_irq(void) { return alloc_msg_irq(&msix_irq_type); }

int create_msi_irq(void) { return alloc_msg_irq(&msi_irq_type); }

void destroy_irq(int irq)
{
	if (irq < NR_IRQS_LEGACY || irq >= NR_IRQS)
		return;
	if (WARN(irq_desc[irq].action, "destroy_irq: IRQ %d still has a handler: %s (free_irq first)",
		 irq, irq_desc[irq].action->name)) {
		unsigned long flags = local_irq_save();

		while (irq_desc[irq].action) { /* never to be called again: the driver may be gone */
			struct irq_action *a = irq_desc[irq].action;

			irq_desc[irq].action = a->next;
			kfree(a);
		}
		local_irq_restore(flags);
	}
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
	if (a == irq_desc[irq].action)
		irq_desc[irq].irq_count = irq_desc[irq].irqs_unhandled = 0;
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

bool irq_has_chip(unsigned int irq) { return irq < NR_IRQS && irq_desc[irq].chip; }

unsigned long irq_affinity(unsigned int irq)
{
	if (irq >= NR_IRQS)
		return 0;
	return irq_desc[irq].affinity ?: 1; /* every line starts on the boot CPU */
}

static int first_online(unsigned long mask, unsigned int except)
{
	unsigned int cpu;

	for_each_online_cpu(cpu) if (cpu != except && (mask & (1ul << cpu))) return (int)cpu;
	return -1;
}

void irq_affinity_set_by_driver(unsigned int irq, unsigned int cpu)
{
	if (irq < NR_IRQS && cpu < NR_CPUS)
		irq_desc[irq].affinity = 1ul << cpu;
}

/* As 2.6.18's irq_affinity_write_proc: a mask with no online CPU is refused. */
int irq_set_affinity(unsigned int irq, unsigned long mask)
{
	struct irq_desc *desc = irq < NR_IRQS ? &irq_desc[irq] : NULL;
	unsigned long flags;
	int cpu, err = 0;

	if (!desc || !desc->chip)
		return -EINVAL;
	if (!desc->chip->set_affinity)
		return -EIO;
	flags = local_irq_save();
	cpu = first_online(mask, NR_CPUS);
	if (cpu < 0) {
		err = -EINVAL;
	} else {
		desc->affinity = mask;
		desc->chip->set_affinity(irq, (unsigned int)cpu);
	}
	local_irq_restore(flags);
	return err;
}

void fixup_irqs(unsigned int dead_cpu)
{
	unsigned long flags = local_irq_save();

	for (unsigned int irq = 0; irq < NR_IRQS; irq++) {
		struct irq_desc *desc = &irq_desc[irq];
		int cpu = first_online(irq_affinity(irq), dead_cpu);

		if (!desc->chip || !desc->chip->set_affinity || !desc->affinity)
			continue;
		if (cpu < 0) {
			pr_info("Breaking affinity for irq %u\n", irq);
			desc->affinity = 0; /* back to the boot CPU, which never goes */
			cpu = 0;
		}
		desc->chip->set_affinity(irq, (unsigned int)cpu);
	}
	local_irq_restore(flags);
}

void irq_count_spurious(void)
{
	irq_err_count++;
}

void irq_count_nmi(void) { nmi_count[smp_processor_id()]++; }

void irq_count_local_timer(void) { apic_timer_irqs[smp_processor_id()]++; }

/* A row of per-CPU counts that is no line's, as 2.6 i386 ends the table with. */
static size_t show_cpu_row(char *buf, size_t size, const char *name, const unsigned long *count)
{
	size_t n = scnprintf(buf, size, "%s: ", name);
	unsigned int cpu;

	for_each_online_cpu(cpu)
		n += scnprintf(buf + n, size - n, "%10lu ", count[cpu]);
	return n + scnprintf(buf + n, size - n, "\n");
}

/*
 * 2.6's note_interrupt (kernel/irq/spurious.c): a line whose handlers said
 * IRQ_NONE to 99,900 of its last 100,000 interrupts is stuck (a device that
 * nobody acknowledges, on a level line): it is reported and masked, so that
 * the kernel runs on. A request_irq after the last free_irq unmasks it.
 */
static void note_interrupt(int irq, bool handled)
{
	struct irq_desc *desc = &irq_desc[irq];

	if (!handled)
		desc->irqs_unhandled++;
	if (++desc->irq_count < 100000)
		return;
	desc->irq_count = 0;
	if (desc->irqs_unhandled > 99900) {
		printk(KERN_ERR "irq %d: nobody cared\n", irq);
		dump_stack();
		printk(KERN_ERR "handlers:\n");
		for (struct irq_action *a = desc->action; a; a = a->next)
			printk(KERN_ERR "[<%08lx>] (%s)\n", (unsigned long)a->handler, a->name);
		printk(KERN_EMERG "Disabling IRQ #%d\n", irq);
		if (desc->chip->disable)
			desc->chip->disable((unsigned int)irq);
	}
	desc->irqs_unhandled = 0;
}

static void handle(int irq)
{
	bool handled = false;

	irq_desc[irq].count[smp_processor_id()]++;
	for (struct irq_action *a = irq_desc[irq].action; a; a = a->next)
		handled |= a->handler(irq, a->dev) == IRQ_HANDLED;
	note_interrupt(irq, handled);
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
	n += show_cpu_row(buf + n, size - n, "NMI", nmi_count);
	if (apic_present())
		n += show_cpu_row(buf + n, size - n, "LOC", apic_timer_irqs);
	n += scnprintf(buf + n, size - n, "ERR: %10lu\n", irq_err_count);
	local_irq_restore(flags);
	return n;
}
