"""test_portio.py: every port and every fixed MMIO address the kernel touches
has one owner, the driver of its device in the model (issue 16: no driver
touches hardware without a device). A file that calls inb/outb/... must be in
OWNERS, and each fixed port its calls name (a literal, or a #define of the
file, offsets below 0x20 aside) must lie in that file's ranges. Ports found
at run time (PCI BARs, the BIOS's COM list, the FADT's registers) are listed
as such. No QEMU."""
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent

# file: (its device in the model, its fixed port ranges)
OWNERS = {
    "kernel/i8259.c": ("/sys/devices/system/i8259/i82590", [(0x20, 0x21), (0xa0, 0xa1), (0x4d0, 0x4d1)]),
    "kernel/time.c": ("/sys/devices/system/timer/timer0 (PIT, port B's gate)", [(0x40, 0x43), (0x61, 0x61)]),
    "drivers/input/serio/i8042.c": ("/sys/devices/platform/i8042", [(0x60, 0x60), (0x64, 0x64)]),
    "drivers/rtc/rtc-cmos.c": ("/sys/devices/platform/rtc_cmos", [(0x70, 0x71)]),
    "drivers/video/vgacon.c": ("/sys/devices/platform/vga", [(0x3c0, 0x3df)]),
    "drivers/tty/serial.c": ("/sys/devices/platform/serial8250 (COM1, the early console)", [(0x3f8, 0x3ff)]),
    "drivers/tty/serial_tty.c": ("/sys/devices/platform/serial8250 (the BIOS's COM ports)", []),
    "drivers/tty/8250.c": ("/sys/devices/platform/serial8250", []),
    "drivers/pci/access.c": ("the PCI host bridge, pci0000:00 (configuration mechanism #1)", [(0xcf8, 0xcff)]),
    "drivers/pci/acpiphp.c": ("ACPI/_SB/PCI0/PHPR in /sys/firmware/acpi/namespace (QEMU's hotplug registers)",
                              [(0xae00, 0xae13)]),
    "drivers/virtio/virtio_pci_legacy.c": ("the virtio PCI function (its I/O BAR)", []),
    "drivers/acpi/sci.c": ("the FADT's PM1 control and SMI command port (the ACPI core's), the GPE0 block "
                           "(ACPI/_SB/PCI0/GPE0 in the namespace)", []),
    "drivers/acpi/poweroff.c": ("the FADT's PM1 control (SLP_EN)", []),
    # Lab 8's solution (not in the tree as committed): the speaker's bits of port B and PIT
    # channel 2, which the timer's code uses only to calibrate at boot (Linux shares them too).
    "drivers/input/pcspkr.c": ("/sys/devices/platform/pcspkr (lab 8's driver)", [(0x42, 0x43), (0x61, 0x61)]),
    "kernel/panic.c": ("QEMU's isa-debug-exit, the test harness's exit port (not the PC's)", [(0xf4, 0xf7)]),
}

# Fixed MMIO: file -> what it maps. Other volatile pointers are rings in RAM or BARs.
MMIO_OWNERS = {
    "kernel/apic.c": "the local APIC (MSR base, 0xfee00000): /sys/devices/system/lapic/lapic0",
    "kernel/io_apic.c": "the I/O APIC (MADT address): /sys/devices/system/ioapic/ioapic0",
    "drivers/video/vgacon.c": "the VGA text buffer 0xb8000: /sys/devices/platform/vga",
    "drivers/pci/msi.c": "a PCI function's MSI-X table (its memory BAR)",
    "drivers/virtio/virtio_pci_modern.c": "a virtio PCI function's capabilities (its memory BARs)",
}

CALL = re.compile(r"\b(?:in[bwl])\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)|\bout[bwl]\s*\(([^,]*(?:\([^()]*\)[^,]*)*),")
DEFINE = re.compile(r"^#define\s+(\w+)\s+\(?\s*(0x[0-9a-fA-F]+|\d+)\b", re.M)
MMIO = re.compile(r"\(\s*volatile\s+u(?:8|16|32)\s*\*\s*\)")


def sources():
    for d in ["kernel", "drivers", "block", "fs", "lib", "boot"]:
        for p in sorted((ROOT / d).rglob("*")):
            if p.suffix in (".c", ".h", ".S"):
                yield p.relative_to(ROOT).as_posix(), p.read_text()


def port_constants(text):
    """The fixed ports each in/out call of the file names."""
    defines = {n: int(v, 0) for n, v in DEFINE.findall(text)}
    for m in CALL.finditer(text):
        arg = m.group(1) if m.group(1) is not None else m.group(2)
        for tok in re.findall(r"0x[0-9a-fA-F]+|\b\d+\b|\b[A-Z_][A-Z0-9_]*\b", arg):
            v = int(tok, 0) if tok[0].isdigit() else defines.get(tok)
            if v is not None and v >= 0x20:
                yield m.group(0), v


def test_every_port_has_its_device_driver():
    bad = []
    for path, text in sources():
        if not CALL.search(text):
            continue
        if path not in OWNERS:
            bad.append("%s: port I/O outside the owning drivers" % path)
            continue
        ranges = OWNERS[path][1]
        for call, port in port_constants(text):
            if not any(lo <= port <= hi for lo, hi in ranges):
                bad.append("%s: %s: port %#x is not this file's device's" % (path, call, port))
    assert not bad, "\n".join(bad)


def test_every_fixed_mmio_mapping_has_its_owner():
    bad = [p for p, t in sources() if MMIO.search(t) and p not in MMIO_OWNERS]
    assert not bad, bad


def test_the_guard_can_fail():
    text = "#define PIC1 0x20\nstatic void f(void) { outb(PIC1, 0x20); inb(0x4d0); }\n"
    assert sorted(v for _, v in port_constants(text)) == [0x20, 0x4d0]
    assert CALL.search("u8 v = inb(I8042_STATUS_REG);")
    assert not CALL.search("int within(int a) { return a; }")
