/*
 * sci.c: the ACPI System Control Interrupt. Firmware hands the machine
 * over in legacy mode; writing the FADT's ACPI_ENABLE value to its SMI_CMD
 * port switches it to ACPI mode (SCI_EN, bit 0 of PM1 control, then reads
 * 1). From then on a general-purpose event whose enable bit is set raises
 * the SCI until its status bit is cleared (written with 1). ACPI 6.4:
 * FADT §5.2.9, GPE blocks §4.8.4.1, SCI_EN §4.8.3.2.1.
 */
#include <asm/io.h>
#include <asm/irq.h>
#include <kobold/acpi.h>
#include <kobold/errno.h>
#include <kobold/kobject.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/time.h>

#define SCI_EN 0x0001
#define MAX_GPE 16 /* handlers for the first 16 GPEs of block 0 */

static struct {
	u16 sci_irq;
	u32 smi_cmd;
	u8 acpi_enable;
	u32 pm1a_cnt;
	u32 gpe0;    /* status bytes; the enable bytes follow them */
	u8 gpe0_len; /* status and enable: half each */
} fadt;

static struct {
	acpi_gpe_handler fn;
	void *context;
} gpe_handlers[MAX_GPE];

static bool sci_ready;

static void read_fadt(const u8 *f)
{
	memcpy(&fadt.sci_irq, f + 46, 2);
	memcpy(&fadt.smi_cmd, f + 48, 4);
	fadt.acpi_enable = f[52];
	memcpy(&fadt.pm1a_cnt, f + 64, 4);
	memcpy(&fadt.gpe0, f + 80, 4);
	fadt.gpe0_len = f[92];
}

static u16 gpe_enable_port(unsigned int gpe)
{
	return (u16)(fadt.gpe0 + fadt.gpe0_len / 2 + gpe / 8);
}

static u16 gpe_status_port(unsigned int gpe)
{
	return (u16)(fadt.gpe0 + gpe / 8);
}

static void trace_gpe(unsigned int gpe)
{
	char what[16];

	if (devmodel_trace_enabled()) {
		scnprintf(what, sizeof(what), "GPE %u", gpe);
		devmodel_trace("acpi_sci_interrupt", what, NULL);
	}
}

static enum irqreturn acpi_sci_interrupt(int irq, void *dev)
{
	enum irqreturn ret = IRQ_NONE;

	for (unsigned int gpe = 0; gpe < MAX_GPE && gpe < fadt.gpe0_len / 2 * 8u; gpe++) {
		u8 bit = (u8)(1u << (gpe % 8));

		if (!(inb(gpe_status_port(gpe)) & bit) || !(inb(gpe_enable_port(gpe)) & bit))
			continue;
		outb(gpe_status_port(gpe), bit); /* write 1 to clear */
		trace_gpe(gpe);
		if (gpe_handlers[gpe].fn)
			gpe_handlers[gpe].fn(gpe, gpe_handlers[gpe].context);
		ret = IRQ_HANDLED;
	}
	return ret;
}

static int enter_acpi_mode(void)
{
	if (inw((u16)fadt.pm1a_cnt) & SCI_EN)
		return 0;
	if (!fadt.smi_cmd || !fadt.acpi_enable)
		return -ENODEV;
	outb((u16)fadt.smi_cmd, fadt.acpi_enable);
	for (int i = 0; i < 100; i++) { /* firmware has up to a few ms */
		if (inw((u16)fadt.pm1a_cnt) & SCI_EN)
			return 0;
		mdelay(1);
	}
	return -ETIMEDOUT;
}

int acpi_sci_init(void)
{
	const struct acpi_header *f = acpi_find_table("FACP");
	int err;

	if (!f || f->length < 93)
		return -ENODEV;
	read_fadt((const u8 *)f);
	if (!fadt.pm1a_cnt || !fadt.gpe0 || fadt.gpe0_len < 2)
		return -ENODEV;
	err = enter_acpi_mode();
	if (err) {
		pr_err("ACPI: could not enter ACPI mode: %s\n", kstrerror(err));
		return err;
	}
	err = request_irq(fadt.sci_irq, acpi_sci_interrupt, "acpi", &fadt);
	if (err) {
		pr_err("ACPI: SCI (IRQ %u): %s\n", fadt.sci_irq, kstrerror(err));
		return err;
	}
	sci_ready = true;
	pr_info("ACPI: SCI on IRQ %u, GPE0 block at 0x%x\n", fadt.sci_irq, fadt.gpe0);
	return 0;
}

int acpi_install_gpe_handler(unsigned int gpe, acpi_gpe_handler fn, void *context)
{
	unsigned long flags;

	if (!sci_ready)
		return -ENODEV;
	if (gpe >= MAX_GPE || gpe >= fadt.gpe0_len / 2 * 8u)
		return -EINVAL;
	if (gpe_handlers[gpe].fn)
		return -EBUSY;
	flags = local_irq_save();
	gpe_handlers[gpe].fn = fn;
	gpe_handlers[gpe].context = context;
	outb(gpe_status_port(gpe), (u8)(1u << (gpe % 8))); /* a stale event is old news */
	outb(gpe_enable_port(gpe), (u8)(inb(gpe_enable_port(gpe)) | (1u << (gpe % 8))));
	local_irq_restore(flags);
	return 0;
}
