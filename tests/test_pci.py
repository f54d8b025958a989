"""test_pci.py: PCI enumeration as QEMU's -M pc builds it: lspci, the
function's sysfs files in Linux's formats, its events, multi-function
devices and a PCI-PCI bridge. One QEMU boot per test."""
import re

from test_virtio import cat, disk, image, sh

FN = "/sys/devices/pci0000:00/0000:00:04.0"


def test_lspci_prints_like_lspci_n(boot_with, tmp_path):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0"))
    lines = sh(k, "lspci").strip().split("\n")
    assert all(re.match(r"^[0-9a-f]{2}:[0-9a-f]{2}\.\d [0-9a-f]{4}: [0-9a-f]{4}:[0-9a-f]{4}( \(rev [0-9a-f]{2}\))?$", l)
               for l in lines), lines
    assert lines[0] == "00:00.0 0600: 8086:1237 (rev 02)"	# the i440FX host bridge
    assert "00:01.0 0601: 8086:7000" in lines		# PIIX3, no revision printed
    assert "00:04.0 0100: 1af4:1001" in lines


def test_function_attributes_in_linux_formats(boot_with, tmp_path):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0"))
    assert cat(k, FN + "/vendor") == "0x1af4"
    assert cat(k, FN + "/device") == "0x1001"
    assert cat(k, FN + "/class") == "0x010000"
    assert cat(k, FN + "/subsystem_device") == "0x0002"
    assert int(cat(k, FN + "/irq")) in (5, 9, 10, 11)
    res = cat(k, FN + "/resource").split("\n")
    assert len(res) == 7
    assert all(re.match(r"^0x[0-9a-f]{16} 0x[0-9a-f]{16} 0x[0-9a-f]{16}$", l) for l in res)
    bar0 = [int(x, 16) for x in res[0].split()]
    assert bar0[1] - bar0[0] + 1 == 0x80 and bar0[2] == 0x40101	# legacy I/O header
    bar4 = [int(x, 16) for x in res[4].split()]
    assert bar4[1] - bar4[0] + 1 == 0x4000 and bar4[2] == 0x14220c	# 64-bit prefetchable
    assert sh(k, "readlink %s/subsystem" % FN).strip().endswith("bus/pci")
    assert "0000:00:04.0" in sh(k, "ls /sys/bus/pci/devices")
    assert "0000:00:04.0" in sh(k, "ls /sys/bus/pci/drivers/virtio-pci")
    assert "rescan" in sh(k, "ls /sys/bus/pci")


def test_function_events_carry_linux_keys(boot_with, tmp_path):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0"))
    keys = cat(k, FN + "/uevent").split("\n")
    for key in ["PCI_CLASS=10000", "PCI_ID=1AF4:1001", "PCI_SUBSYS_ID=1AF4:0002",
                "PCI_SLOT_NAME=0000:00:04.0",
                "MODALIAS=pci:v00001AF4d00001001sv00001AF4sd00000002bc01sc00i00"]:
        assert key in keys, keys
    events = sh(k, "udevadm monitor --journal -p")
    assert "DEVPATH=/devices/pci0000:00/0000:00:04.0\n" in events
    assert "SUBSYSTEM=pci\n" in events


def test_multifunction_device_and_bridge(boot_with, tmp_path):
    args = disk(image(tmp_path, "a.img", 1), "d0", ",addr=0x6.0,multifunction=on")
    args += disk(image(tmp_path, "b.img", 2), "d1", ",addr=0x6.1,disable-modern=on")
    args += ["-device", "pci-bridge,id=br1,chassis_nr=1,addr=0x7"]
    args += disk(image(tmp_path, "c.img", 3), "d2", ",bus=br1,addr=0x3")
    k = boot_with(qemu_args=args)
    lines = sh(k, "lspci").strip().split("\n")
    assert "00:06.0 0100: 1af4:1001" in lines and "00:06.1 0100: 1af4:1001" in lines
    assert "00:07.0 0604: 1b36:0001" in lines
    assert lines[-1] == "01:03.0 0100: 1af4:1001"	# bus 1 after all of bus 0
    assert sh(k, "readlink /sys/class/block/vdc/device").strip() == \
        "../../../devices/pci0000:00/0000:00:07.0/0000:01:03.0/virtio2"
    for name, size in [("vda", 2048), ("vdb", 4096), ("vdc", 6144)]:
        assert cat(k, "/sys/class/block/%s/size" % name) == str(size)
        assert sh(k, "blk write %s 1 via %s" % (name, name)) == ""
        assert "|via %s" % name in sh(k, "blk read %s 1" % name)
