/*
 * pc_devices.c: the PC's legacy devices, which no bus enumerates, put on the
 * platform bus: the serial ports the BIOS data area lists, the i8042, the
 * CMOS clock and the VGA text screen at their fixed addresses. In Linux the
 * same devices come from arch/x86 (rtc_cmos, pcspkr) and from the legacy
 * drivers' own init (serial8250, i8042).
 */
#include <asm/page.h>
#include <kobold/init.h>
#include <kobold/platform_device.h>
#include <kobold/printk.h>
#include <kobold/serial_8250.h>
#include <kobold/string.h>

#define BDA_COM_PORTS 0x400 /* four words: COM1-COM4's I/O base, 0 if none */
#define BDA_CRTC_BASE 0x463 /* a word: 0x3d4 for a colour adapter */
#define CRTC_COLOUR 0x3d4

static u16 bda_com[SERIAL8250_MAX_PORTS];
static u16 bda_crtc;

/* The BIOS data area, in page 0 (at PAGE_OFFSET): what we need of it, copied once. */
void pc_bda_copy(void)
{
	memcpy(bda_com, phys_to_virt(BDA_COM_PORTS), sizeof(bda_com));
	memcpy(&bda_crtc, phys_to_virt(BDA_CRTC_BASE), sizeof(bda_crtc));
}

/* COM1 and COM3 use IRQ 4, COM2 and COM4 IRQ 3, by PC convention. */
static void add_serial8250(void)
{
	struct plat_serial8250_port ports[SERIAL8250_MAX_PORTS + 1] = { { 0 } };
	struct platform_device *pdev;
	unsigned int n = 0;

	for (int i = 0; i < SERIAL8250_MAX_PORTS; i++)
		if (bda_com[i])
			ports[n++] = (struct plat_serial8250_port){ bda_com[i], i % 2 ? 3 : 4 };
	if (!n)
		return;
	pdev = platform_device_alloc("serial8250", -1);
	if (!pdev || platform_device_add_data(pdev, ports, (n + 1) * sizeof(ports[0])) ||
	    platform_device_add(pdev)) {
		pr_err("platform: serial8250: not registered\n");
		platform_device_put(pdev);
	}
}

static void add_i8042(void)
{
	static const struct resource res[] = {
		{ .start = 0x60, .end = 0x60, .flags = IORESOURCE_IO },
		{ .start = 0x64, .end = 0x64, .flags = IORESOURCE_IO },
		{ .start = 1, .end = 1, .flags = IORESOURCE_IRQ },
	};

	if (!i8042_controller_present())
		return;
	platform_device_register_simple("i8042", -1, res, ARRAY_SIZE(res));
}

static void add_rtc_cmos(void)
{
	static const struct resource res[] = {
		{ .start = 0x70, .end = 0x71, .flags = IORESOURCE_IO },
		{ .start = 8, .end = 8, .flags = IORESOURCE_IRQ },
	};

	platform_device_register_simple("rtc_cmos", -1, res, ARRAY_SIZE(res));
}

static void add_vga(void)
{
	static const struct resource res[] = {
		{ .start = 0xb8000, .end = 0xbffff, .flags = IORESOURCE_MEM },
		{ .start = 0x3c0, .end = 0x3df, .flags = IORESOURCE_IO },
	};

	if (bda_crtc != CRTC_COLOUR)
		return; /* no colour text screen (QEMU -vga none) */
	platform_device_register_simple("vga", -1, res, ARRAY_SIZE(res));
}

/*
 * The speaker behind port 0x61, sounded by PIT channel 2: every PC has one.
 * As Linux's add_pcspkr, no resources; its driver is lab 8's
 * (docs/labs/lab8-platform-driver.md).
 */
static void add_pcspkr(void)
{
	platform_device_register_simple("pcspkr", -1, NULL, 0);
}

void pc_devices_init(void)
{
	add_serial8250();
	add_i8042();
	add_rtc_cmos();
	add_vga();
	add_pcspkr();
}
