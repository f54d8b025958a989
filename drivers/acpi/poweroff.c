/*
 * poweroff.c: just enough ACPI to switch the machine off (sleep state S5)
 * and to reset it. ACPI 6.4: RSDP §5.2.5, RSDT §5.2.7, FADT §5.2.9 (PM1a
 * control block), \_S5 in the DSDT §7.4.2; SLP_EN is bit 13 of PM1 control.
 */
#include <asm/io.h>
#include <asm/page.h>
#include <kobold/acpi.h>
#include <kobold/init.h>
#include <kobold/panic.h>
#include <kobold/printk.h>
#include <kobold/string.h>
#include <kobold/time.h>

#define SLP_EN (1u << 13)

struct rsdp {
	char signature[8];
	u8 checksum;
	char oem[6];
	u8 revision;
	u32 rsdt;
} __packed;

static bool checksum_ok(const void *p, u32 len)
{
	const u8 *b = p;
	u8 sum = 0;

	while (len--)
		sum += *b++;
	return sum == 0;
}

/*
 * A table at physical @phys. Firmware puts them in RAM, below 896 MiB on any
 * machine we boot, which PAGE_OFFSET's map covers, as 2.6 i386's early
 * __acpi_map_table returned __va for tables in its direct map.
 */
const void *acpi_map_table(u32 phys)
{
	if (!phys || phys >= LOWMEM_SIZE - sizeof(struct acpi_header)) {
		pr_warn("ACPI: table at %#x is not in low memory, skipped\n", phys);
		return NULL;
	}
	return phys_to_virt(phys);
}

/* The RSDP sits on a 16-byte boundary in the BIOS area 0xe0000-0xfffff. */
static const struct rsdp *find_rsdp(void)
{
	for (u32 a = 0xe0000; a < 0x100000; a += 16) {
		const struct rsdp *r = phys_to_virt(a);

		if (memcmp(r->signature, "RSD PTR ", 8) == 0 && checksum_ok(r, 20))
			return r;
	}
	return NULL;
}

const struct acpi_header *acpi_find_table(const char *sig)
{
	const struct rsdp *rsdp = find_rsdp();
	const struct acpi_header *rsdt;
	const u32 *entries;
	u32 n;

	if (!rsdp)
		return NULL;
	rsdt = acpi_map_table(rsdp->rsdt);
	if (!rsdt)
		return NULL;
	entries = (const u32 *)(rsdt + 1);
	n = (rsdt->length - sizeof(*rsdt)) / 4;
	for (u32 i = 0; i < n; i++) {
		const struct acpi_header *h = acpi_map_table(entries[i]);

		if (h && memcmp(h->signature, sig, 4) == 0)
			return h;
	}
	return NULL;
}

/* SLP_TYPa from the DSDT's "_S5_" package: Name(_S5, Package(){a, b, ...}). */
static int s5_sleep_type(const struct acpi_header *dsdt)
{
	const u8 *p = (const u8 *)dsdt, *end = p + dsdt->length;

	for (; p + 8 < end; p++) {
		if (memcmp(p, "_S5_", 4) != 0 || p[4] != 0x12) /* PackageOp */
			continue;
		p += 7;		/* PackageOp, PkgLength (one byte), NumElements */
		if (*p == 0x0a) /* BytePrefix */
			p++;
		return *p <= 1 ? *p : (*p == 0xff ? 1 : -1); /* ZeroOp, OneOp, Ones */
	}
	return -1;
}

__noreturn void machine_power_off(void)
{
	const struct acpi_header *fadt = acpi_find_table("FACP");
	int slp_typ = 0;
	u32 pm1a = 0;

	local_irq_disable();
	if (fadt) {
		u32 dsdt;

		memcpy(&pm1a, (const u8 *)fadt + 64, 4); /* PM1a_CNT_BLK */
		memcpy(&dsdt, (const u8 *)fadt + 40, 4); /* DSDT */
		slp_typ = acpi_map_table(dsdt) ? s5_sleep_type(acpi_map_table(dsdt)) : -1;
	}
	if (pm1a && slp_typ >= 0)
		outw((u16)pm1a, (u16)((slp_typ << 10) | SLP_EN));
	mdelay(200); /* the machine may take a moment to go */
	printk(KERN_EMERG "poweroff: ACPI S5 did not take effect; halting\n");
	for (;;)
		__asm__ volatile("cli; hlt");
}

__noreturn void machine_restart(void)
{
	local_irq_disable();
	i8042_pulse_reset();
	/* Failing that, a triple fault: load an empty IDT and trap. */
	static const struct {
		u16 limit;
		u32 base;
	} __packed empty = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(empty));
	for (;;)
		;
}
