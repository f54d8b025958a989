"""test_sysdev.py: the 8259 path that `noapic` keeps (as Linux's noapic): the
ISA lines and PCI INTx as XT-PIC lines in /proc/interrupts, each counting
(timer, serial, keyboard, a virtio-blk disk without MSI-X, the SCI of a
device_add), the system devices without ioapic0, suspended by pm_test
"core" after every other device, and the ACPI namespace in sysfs. The I/O APIC path is covered in the
boots of test_power, test_asyncblk, test_hotplug and test_platform.
One QEMU boot."""
import re

from test_console import wait_screen
from test_platform import keys
from test_power import sysdev_steps
from test_virtio import disk, image, sh


def counts(k):
    """{handler names: (irq, count, controller)} from /proc/interrupts."""
    rows = {}
    for m in re.finditer(r"\n *(\d+):((?: +\d+)+) +(\S+)  (.+)", sh(k, "cat /proc/interrupts")):
        rows[m.group(4)] = (int(m.group(1)), sum(map(int, m.group(2).split())), m.group(3))
    return rows


def test_noapic_keeps_the_8259(boot_with, tmp_path):
    args = disk(image(tmp_path, "a.img", 1), "d0", ",addr=0x4,vectors=0")
    args += ["-drive", "file=%s,if=none,id=hp0,format=raw" % image(tmp_path, "h.img", 1)]
    k = boot_with("noapic suspend.pm_test_delay=0", qemu_args=args, monitor=str(tmp_path / "mon.sock"))
    assert "IOAPIC: noapic: the 8259 keeps the ISA lines" in k.run("dmesg")
    before = counts(k)
    assert {n: v[0] for n, v in before.items()} == {
        "timer": 0, "i8042": 1, "cascade": 2, "serial": 4, "acpi": 9, "0000:00:04.0": 11}, before
    assert {v[2] for v in before.values()} == {"XT-PIC"}, before
    assert "IO-APIC" not in sh(k, "cat /proc/interrupts")

    keys(k, "echo k1\r")  # tty0's shell answers on the screen
    wait_screen(k, lambda l: "k1" in l)
    assert sh(k, "blk write vda 1 intx") == ""
    assert "|intx" in sh(k, "blk read vda 1")
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    k.expect(r"vdb: 2048 sectors")
    after = counts(k)
    for name in ["timer", "i8042", "serial", "acpi", "0000:00:04.0"]:
        assert after[name][1] > before[name][1], (name, before, after)

    # The system devices: no ioapic0 when the I/O APIC is not used.
    assert sh(k, "ls /sys/devices/system") == "cpu\ni8259\nioapic\nlapic\ntimer\n"
    assert sh(k, "ls /sys/devices/system/ioapic") == ""
    assert sh(k, "ls /sys/devices/system/i8259") == "i82590\n"
    assert sh(k, "readlink -f /sys/devices/system/cpu/cpu0") == "/sys/devices/system/cpu/cpu0\n"
    assert sh(k, "echo core > /sys/power/pm_test") == ""
    k.run("trace on")
    out = k.run("echo mem > /sys/power/state", timeout=30)
    k.run("trace off")
    order = ["lapic/lapic0", "i8259/i82590", "timer/timer0", "cpu/cpu0"]
    assert sysdev_steps(out, "suspend") == order, out
    assert sysdev_steps(out, "resume") == order[::-1], out
    ticks = counts(k)["timer"][1]
    assert "|intx" in sh(k, "blk read vda 1")	# INTx works after the 8259's resume
    assert counts(k)["timer"][1] > ticks

    # 2.6.0-2.6.18's /sys/firmware/acpi/namespace: the DSDT's device nodes, no events.
    ns = "/sys/firmware/acpi/namespace/ACPI"
    assert sh(k, "ls " + ns) == "PWRF\n_SB\n"	# QEMU's FADT: a fixed power button
    pci0 = sh(k, "ls %s/_SB/PCI0" % ns).split()
    assert {"GPE0", "PHPR", "S00", "S08", "S10"} <= set(pci0), pci0	# GPE0 and PHPR: the SCI's and acpiphp's ports
    assert {"KBD", "RTC", "COM1"} <= set(sh(k, "ls %s/_SB/PCI0/S08" % ns).split())	# the PIIX3's ISA devices
    assert sh(k, "ls %s/_SB/CPUS" % ns) == "C000\n"
    assert "firmware" not in sh(k, "udevadm monitor --journal")
