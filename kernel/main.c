/*
 * main.c: kmain, the boot story. boot.S calls it on the boot stack with the
 * multiboot magic and info; each step below depends on the ones before it.
 */
#include <asm/desc.h>
#include <asm/apic.h>
#include <asm/hw_irq.h>
#include <asm/io.h>
#include <asm/page.h>
#include <asm/irq.h>
#include <asm/processor.h>
#include <kobold/clock.h>
#include <kobold/console.h>
#include <kobold/device.h>
#include <kobold/acpi.h>
#include <kobold/fs.h>
#include <kobold/init.h>
#include <kobold/initramfs.h>
#include <kobold/kmod.h>
#include <kobold/input.h>
#include <kobold/miscdevice.h>
#include <kobold/ktest.h>
#include <kobold/mm.h>
#include <kobold/module.h>
#include <kobold/multiboot.h>
#include <kobold/panic.h>
#include <kobold/param.h>
#include <kobold/pci.h>
#include <kobold/printk.h>
#include <kobold/proc_fs.h>
#include <kobold/shell.h>
#include <kobold/smp.h>
#include <kobold/string.h>
#include <kobold/rtc.h>
#include <kobold/sched.h>
#include <kobold/syscalls.h>
#include <kobold/suspend.h>
#include <kobold/sysdev.h>
#include <kobold/tty.h>
#include <kobold/preempt_inject.h>
#include <kobold/softlockup.h>
#include <kobold/time.h>
#include <kobold/udevd.h>
#include <kobold/version.h>
#include <kobold/virtio.h>
#include <kobold/workqueue.h>

static const char *test_suites;
core_param(test, test_suites, charp, "run the self-tests (all, or SUITE[,SUITE]) and power off");

/* The in-kernel tests print KTAP straight to the consoles, without log prefixes. */
void ktest_print(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vscnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_write(buf, (size_t)n);
}

/*
 * Built-in drivers of the PC's own devices; one that fails is said, and boot
 * goes on. Each class is tried whatever became of the one before, as 2.6's
 * initcalls each ran (a class left NULL: its devices register without one).
 */
static void legacy_drivers_init(void)
{
	if (tty_class_init())
		pr_err("tty: class not registered\n");
	if (rtc_class_init())
		pr_err("rtc: class not registered\n");
	if (input_init())
		pr_err("input: class not registered\n");
	if (misc_init())
		pr_err("misc: class not registered\n");
	if (serial8250_init())
		pr_err("serial8250: driver not registered\n");
	if (i8042_init() || atkbd_init())
		pr_err("i8042: the keyboard driver is not registered\n");
	if (rtc_cmos_init())
		pr_err("rtc_cmos: driver not registered\n");
	if (vga_init())
		pr_err("vga: driver not registered\n");
}

/* The system devices, in the order Linux 2.6's initcalls registered their classes. */
static void system_devices_init(void)
{
	static struct cpu cpus[NR_CPUS] = { [0].no_control = true }; /* as 2.6 i386: cpu0 stays */
	int err = 0;

	for (unsigned int cpu = 0; cpu < num_present_cpus() && !err; cpu++)
		err = register_cpu(&cpus[cpu], (int)cpu);
	if (err || time_init_device() || i8259_init_sysfs() || init_lapic_sysfs() ||
	    ioapic_init_sysfs())
		pr_err("system devices: not all registered\n");
}

static __noreturn void run_self_tests(void)
{
	int failed = ktest_run(test_suites);

	qemu_exit(failed ? EXIT_FAILURE_CODE : EXIT_SUCCESS_CODE);
}

/* The boot consoles the banner names: what the BIOS and the screen showed (QEMU -serial none, -vga none). */
static const char *console_names(void)
{
	if (serial_has_com1())
		return vgacon_present() ? "serial ttyS0 and VGA" : "serial ttyS0";
	return vgacon_present() ? "VGA (no serial port)" : "none found";
}

void kmain(u32 magic, u32 mbi_phys)
{
	const struct multiboot_info *mbi = phys_to_virt(mbi_phys);
	const char *cmdline = "";

	paging_init(); /* the ioremap area's page tables: device memory can be mapped */
	serial_init(); /* output first: everything after can speak */
	vgacon_init();
	if (magic != MULTIBOOT_BOOTLOADER_MAGIC)
		panic("not started by a multiboot loader (magic %#x)", magic);
	if (mbi->flags & MULTIBOOT_INFO_CMDLINE)
		cmdline = phys_to_virt(mbi->cmdline);
	parse_boot_cmdline(cmdline); /* loglevel= applies from here on */
	pr_info("Kobold %s: a teaching kernel for the Linux device model\n", KOBOLD_VERSION);
	serial_probe_bios_ports(); /* the BIOS's list of COM ports, in page 0 */
	pr_info("Console: %s; poweroff switches off (in QEMU's terminal, Ctrl-A X quits)\n",
		console_names());
	if (mbi->flags & MULTIBOOT_INFO_BOOT_LOADER_NAME)
		pr_info("Boot loader: %s\n", (const char *)phys_to_virt(mbi->boot_loader_name));
	pr_info("Command line: %s\n", saved_command_line());
	pc_bda_copy();	       /* what we need of page 0, before it goes */
	gdt_init();	       /* flat segments we own */
	tss_init();	       /* ring 3's way back into the kernel; SSE for processes */
	idt_init();	       /* exceptions now oops instead of rebooting */
	init_IRQ();	       /* IRQs 0-15 to vectors 32-47, masked: I/O APIC or 8259 */
	initrd_save(mbi);      /* where the initramfs archives are, for later */
	page_alloc_init(mbi);  /* the multiboot map: last use of mbi */
	zap_low_mappings();    /* nothing below PAGE_OFFSET: NULL faults */
	identify_boot_cpu();   /* CPUID: what this CPU is (/proc/cpuinfo) */
	time_init();	       /* PIT tick and calibrated TSC */
	preempt_inject_init(); /* preempt_inject=: switches forced at chosen points */
	sched_init();	       /* this code becomes PID 1; the idle thread, kthreadd */
	smp_init();	       /* the other CPUs from the MADT: up, and halted */
	local_irq_enable();
	init_workqueues(); /* events/N: runs deferred work, beside boot from here on */
	softlockup_init(); /* watchdog/N: a CPU that never schedules is reported */
	migration_init();  /* migration/N: moves a running thread off its CPU (set_cpus_allowed) */
	if (driver_init()) /* sysfs, the device model's roots, the platform bus */
		panic("the device model could not start");
	if (vfs_init()) /* "/" in RAM, sysfs at /sys, devtmpfs at /dev */
		panic("the VFS could not start");
	system_devices_init(); /* /sys/devices/system: cpuN, timer0, i82590, lapic0, ioapic0 */
	proc_root_init();      /* /proc: cpuinfo, meminfo, mounts, uptime, ... */
	populate_rootfs();     /* the tree's etc/ into /etc: udev rules, say */
	usermodehelper_init(); /* khelper: the programs the kernel starts (2.6's do_basic_setup) */
	if (!test_suites)      /* the self-tests count every allocation their events make */
		udevd_init();  /* udev: rules for every event, run as deferred work */
	chr_dev_init();	       /* mem: null, zero, full, kmsg (char major 1) */
	if (tty_init())	       /* /dev/tty0 and /dev/console; tty0's line, the VGA console's */
		pr_err("tty: tty0 and console could not be made\n");
	serial_tty_init(); /* ttyS0..3 (char 4:64..) for the BIOS's ports */
	if (pm_init())	   /* /sys/power: state and pm_test */
		pr_err("PM: /sys/power could not be made\n");
	pc_devices_init();     /* the legacy devices: serial8250, i8042, rtc_cmos, vga */
	legacy_drivers_init(); /* their drivers bind: serial input, keyboard */
	if (genhd_init())      /* the block class */
		panic("the block layer could not start");
	if (pci_init()) /* the pci bus: enumerate and register functions */
		pr_err("pci: initialisation failed\n");
	if (virtio_init()) /* the virtio bus and its PCI transport driver */
		pr_err("virtio: initialisation failed\n");
	if (virtio_rng_init()) /* virtio-rng-pci: hw_random in the misc class */
		pr_err("virtio_rng: driver not registered\n");
	if (acpi_scan_init()) /* /sys/firmware/acpi/namespace, from the DSDT */
		pr_info("ACPI: no tables: no namespace in sysfs\n");
	if (acpi_sci_init() == 0) /* ACPI mode: the SCI and its events */
		acpiphp_init();	  /* QEMU's device_add/device_del as GPE 1 */
	if (vtconsole_init())	  /* the VGA console's device, in the newer API */
		pr_err("vtconsole: initialisation failed\n");
	if (test_suites)
		run_self_tests();
	load_builtin_modules(); /* drivers: sbd, virtio_blk, blkstat */
	kmod_init();		/* the aliases: from now on, new devices load their modules */
	lkdtm_run();		/* a deliberate crash, when asked for */
	udevd_flush_work();	/* udevd handles the boot's events, as udevadm settle at boot */
	uevent_helper_init();	/* /sbin/hotplug for each event from now on */
	pr_info("Boot to the prompt took %lu us\n", (unsigned long)(ktime_get_ns() / 1000));
	if (init_requested())
		run_init_process(); /* init=: PID 1 becomes that program */
	shell_run();
}
