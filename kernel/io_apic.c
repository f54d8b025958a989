/*
 * io_apic.c: the I/O APIC (Intel 82093AA datasheet), which QEMU's -M pc
 * has at 0xfec00000 and names in the ACPI MADT (ACPI 6.4 §5.2.12). It
 * takes the ISA lines from the 8259 pair: ISA IRQ n arrives on pin n, or
 * on the pin an interrupt source override names (IRQ 0, the PIT, on pin 2),
 * with the override's polarity and trigger; each pin sends vector 32 + n
 * to the local APIC, which wants an EOI. Its system device is
 * /sys/devices/system/ioapic/ioapic0. `noapic` on the command line keeps
 * the 8259, as in Linux.
 */
#include <asm/apic.h>
#include <asm/hw_irq.h>
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/acpi.h>
#include <kobold/param.h>
#include <kobold/printk.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/sysdev.h>

#define IO_APIC_VERSION 0x01 /* bits 23:16: the last pin's number */
#define IO_APIC_REDTBL(pin) (0x10 + 2 * (pin))
#define IO_APIC_POLARITY_LOW (1u << 13)
#define IO_APIC_TRIGGER_LEVEL (1u << 15)
#define IO_APIC_MASKED (1u << 16)
#define MAX_PINS 24

/* MADT entries (ACPI 6.4 §5.2.12.3, §5.2.12.5). */
#define ACPI_MADT_IO_APIC 1
#define ACPI_MADT_INT_SRC_OVR 2
#define ACPI_MADT_POLARITY(f) ((f) & 3)	      /* 1 high, 3 low, 0 as the bus */
#define ACPI_MADT_TRIGGER(f) (((f) >> 2) & 3) /* 1 edge, 3 level, 0 as the bus */

static bool skip_ioapic_setup;
core_param(noapic, skip_ioapic_setup, bool, "keep the 8259 for the ISA lines, no I/O APIC");

static volatile u32 *ioapic_base;
static u32 ioapic_phys;
static unsigned int nr_pins;
static u8 irq_pin[NR_IRQS_LEGACY];    /* the pin of each ISA IRQ */
static u16 irq_flags[NR_IRQS_LEGACY]; /* the override's MPS INTI flags, 0 if none */
static u32 saved_redtbl[MAX_PINS], saved_dest[MAX_PINS];

static u32 io_apic_read(unsigned int reg)
{
	ioapic_base[0] = reg; /* IOREGSEL; the window IOWIN is at 0x10 */
	return ioapic_base[4];
}

static void io_apic_write(unsigned int reg, u32 v)
{
	ioapic_base[0] = reg;
	ioapic_base[4] = v;
}

static void set_pin_mask(unsigned int irq, bool masked)
{
	unsigned int reg = IO_APIC_REDTBL(irq_pin[irq]);
	u32 lo = io_apic_read(reg);

	io_apic_write(reg, masked ? lo | IO_APIC_MASKED : lo & ~IO_APIC_MASKED);
}

static void enable_ioapic_irq(unsigned int irq)
{
	set_pin_mask(irq, false);
}

static void disable_ioapic_irq(unsigned int irq)
{
	set_pin_mask(irq, true);
}

static bool ack_ioapic_irq(unsigned int irq)
{
	return true;
}

/* The local APIC's EOI; for a level pin it is also the I/O APIC's (broadcast EOI). */
static void end_ioapic_irq(unsigned int irq)
{
	apic_eoi();
}

static int set_ioapic_type(unsigned int irq, unsigned int type);

/* Physical destination mode: bits 63:56 of the entry name one APIC (82093AA §3.2.4). */
static void set_ioapic_affinity(unsigned int irq, unsigned int cpu)
{
	io_apic_write(IO_APIC_REDTBL(irq_pin[irq]) + 1, cpu_to_apicid(cpu) << 24);
}

static struct hw_interrupt_type ioapic_edge_type = {
	.typename = "IO-APIC-edge",
	.enable = enable_ioapic_irq,
	.disable = disable_ioapic_irq,
	.ack = ack_ioapic_irq,
	.end = end_ioapic_irq,
	.set_type = set_ioapic_type,
	.set_affinity = set_ioapic_affinity,
};

static struct hw_interrupt_type ioapic_level_type = {
	.typename = "IO-APIC-level",
	.enable = enable_ioapic_irq,
	.disable = disable_ioapic_irq,
	.ack = ack_ioapic_irq,
	.end = end_ioapic_irq,
	.set_type = set_ioapic_type,
	.set_affinity = set_ioapic_affinity,
};

/* Masked, to the CPU of its affinity (the boot CPU's APIC at first), fixed delivery, vector 32 + irq. */
static void setup_pin(unsigned int irq, bool level, bool active_low)
{
	unsigned int reg = IO_APIC_REDTBL(irq_pin[irq]);
	u32 lo = irq_to_vector((int)irq) | IO_APIC_MASKED;
	unsigned int cpu = (unsigned int)__builtin_ctzl(irq_affinity(irq));

	if (level)
		lo |= IO_APIC_TRIGGER_LEVEL;
	if (active_low)
		lo |= IO_APIC_POLARITY_LOW;
	io_apic_write(reg + 1, (cpu_online(cpu) ? cpu_to_apicid(cpu) : apic_id()) << 24);
	io_apic_write(reg, lo);
	set_irq_chip(irq, level ? &ioapic_level_type : &ioapic_edge_type);
}

/* Level for PCI's INTx#: active low unless the firmware's override says otherwise. */
static int set_ioapic_type(unsigned int irq, unsigned int type)
{
	bool masked = io_apic_read(IO_APIC_REDTBL(irq_pin[irq])) & IO_APIC_MASKED;
	u16 f = irq_flags[irq];
	bool level = type == IRQ_TYPE_LEVEL;

	setup_pin(irq, level, ACPI_MADT_POLARITY(f) ? ACPI_MADT_POLARITY(f) == 3 : level);
	set_pin_mask(irq, masked);
	return 0;
}

static void acpi_parse_int_src_ovr(const u8 *e)
{
	u8 bus = e[2], irq = e[3];
	u32 gsi;
	u16 flags;

	memcpy(&gsi, e + 4, 4);
	memcpy(&flags, e + 8, 2);
	if (bus != 0 || irq >= NR_IRQS_LEGACY || gsi >= MAX_PINS)
		return; /* ISA only, on the first I/O APIC's pins */
	irq_pin[irq] = (u8)gsi;
	irq_flags[irq] = flags;
}

/* The first I/O APIC whose pins start at GSI 0, and the ISA overrides. */
static bool acpi_parse_madt(void)
{
	const struct acpi_header *madt = acpi_find_table("APIC");
	const u8 *p, *end;
	u32 addr = 0, gsi_base = 1;

	if (!madt)
		return false;
	p = (const u8 *)madt + sizeof(*madt) + 8; /* local APIC address, flags */
	end = (const u8 *)madt + madt->length;
	for (; p + 2 <= end && p[1] >= 2 && p + p[1] <= end; p += p[1]) {
		if (p[0] == ACPI_MADT_IO_APIC && p[1] >= 12 && !addr) {
			memcpy(&addr, p + 4, 4);
			memcpy(&gsi_base, p + 8, 4);
		} else if (p[0] == ACPI_MADT_INT_SRC_OVR && p[1] >= 10) {
			acpi_parse_int_src_ovr(p);
		}
	}
	if (!addr || gsi_base != 0)
		return false;
	ioapic_phys = addr;
	ioapic_base = ioremap(addr, PAGE_SIZE);
	return ioapic_base != NULL;
}

static void setup_ISA_irqs(void)
{
	for (unsigned int irq = 0; irq < NR_IRQS_LEGACY; irq++) {
		u16 f = irq_flags[irq];

		if (irq == 2 || irq_pin[irq] >= nr_pins)
			continue; /* the cascade has no pin of its own */
		setup_pin(irq, ACPI_MADT_TRIGGER(f) == 3, ACPI_MADT_POLARITY(f) == 3);
	}
}

bool setup_IO_APIC(void)
{
	for (unsigned int irq = 0; irq < NR_IRQS_LEGACY; irq++)
		irq_pin[irq] = (u8)irq;
	if (skip_ioapic_setup) {
		pr_info("IOAPIC: noapic: the 8259 keeps the ISA lines\n");
		return false;
	}
	if (!acpi_parse_madt()) {
		pr_info("IOAPIC: none in the ACPI MADT: the 8259 keeps the ISA lines\n");
		return false;
	}
	nr_pins = ((io_apic_read(IO_APIC_VERSION) >> 16) & 0xff) + 1;
	if (nr_pins > MAX_PINS)
		nr_pins = MAX_PINS;
	for (unsigned int pin = 0; pin < nr_pins; pin++)
		io_apic_write(IO_APIC_REDTBL(pin), IO_APIC_MASKED);
	disable_8259A();
	setup_ISA_irqs();
	pr_info("IOAPIC[0]: apic_id %u, address %#lx, GSI 0-%u; ISA IRQ 0 on pin %u\n",
		io_apic_read(0) >> 24, (unsigned long)ioapic_phys, nr_pins - 1, irq_pin[0]);
	return true;
}

static int ioapic_suspend(struct sys_device *dev, pm_message_t state)
{
	for (unsigned int pin = 0; pin < nr_pins; pin++) {
		saved_redtbl[pin] = io_apic_read(IO_APIC_REDTBL(pin));
		saved_dest[pin] = io_apic_read(IO_APIC_REDTBL(pin) + 1);
	}
	return 0;
}

static int ioapic_resume(struct sys_device *dev)
{
	for (unsigned int pin = 0; pin < nr_pins; pin++) {
		io_apic_write(IO_APIC_REDTBL(pin) + 1, saved_dest[pin]);
		io_apic_write(IO_APIC_REDTBL(pin), saved_redtbl[pin]);
	}
	return 0;
}

static struct sysdev_class ioapic_sysdev_class = {
	.name = "ioapic",
	.suspend = ioapic_suspend,
	.resume = ioapic_resume,
};

static struct sys_device device_ioapic = {
	.id = 0,
	.cls = &ioapic_sysdev_class,
};

/* The class always; its device only when the I/O APIC is in use (not with noapic). */
int ioapic_init_sysfs(void)
{
	int err = sysdev_class_register(&ioapic_sysdev_class);

	return err || !nr_pins ? err : sysdev_register(&device_ioapic);
}
