"""test_virtio.py: virtio-blk disks from QEMU, end to end: the three PCI
transports, names and sizes in /sys, read-only, serial, data seen from both
sides of the disk image, rmmod/modprobe, hotplug through QEMU's monitor, and
an I/O error injected by QEMU's blkdebug driver. One QEMU boot per test."""
import hashlib
import os
import re
import time

import pytest

LOG_LINE = re.compile(r"^\[\s*\d+\.\d+\] ")


def sh(k, command):
    """Runs a command; its output without kernel log lines printed meanwhile."""
    out = k.run(command)
    return "".join(l + "\n" for l in out.split("\n") if l and not LOG_LINE.match(l))


def cat(k, path):
    return sh(k, "cat " + path).strip()


def image(tmp_path, name, mib, data=None, offset=0):
    path = str(tmp_path / name)
    with open(path, "wb") as f:
        f.truncate(mib * 1024 * 1024)
        if data:
            f.seek(offset)
            f.write(data)
    return path


def disk(path, ident, device_opts="", drive_opts=""):
    """QEMU arguments for one virtio-blk-pci disk backed by a raw image."""
    return ["-drive", "file=%s,if=none,id=%s,format=raw%s" % (path, ident, drive_opts),
            "-device", "virtio-blk-pci,drive=%s%s" % (ident, device_opts)]


def sector(path, n):
    with open(path, "rb") as f:
        f.seek(n * 512)
        return f.read(512)


def sha(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def test_transitional_disk_appears_as_vda_below_its_pci_function(boot_with, tmp_path):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 8), "d0"))
    assert "00:04.0 0100: 1af4:1001" in sh(k, "lspci")
    assert cat(k, "/sys/class/block/vda/size") == "16384"
    assert cat(k, "/sys/class/block/vda/ro") == "0"
    assert sh(k, "readlink /sys/class/block/vda/device").strip() == \
        "../../../devices/pci0000:00/0000:00:04.0/virtio0"
    fn = "/sys/devices/pci0000:00/0000:00:04.0"
    assert sh(k, "readlink %s/virtio0/driver" % fn).strip().endswith("bus/virtio/drivers/virtio_blk")
    assert sh(k, "readlink %s/driver" % fn).strip().endswith("bus/pci/drivers/virtio-pci")
    assert "virtio0" in sh(k, "ls /sys/bus/virtio/drivers/virtio_blk")
    assert cat(k, fn + "/virtio0/device") == "0x0002"
    # QEMU's default is transitional; the modern interface is preferred: VERSION_1 and FEATURES_OK.
    assert cat(k, fn + "/virtio0/features")[32] == "1"
    assert cat(k, fn + "/virtio0/status") == "0x0000000f"
    assert "MODALIAS=virtio:d00000002v00001AF4" in cat(k, fn + "/virtio0/uevent")
    assert re.search(r"virtio_blk virtio0: \[vda\] 16384 .*modern transport", k.run("dmesg"))
    assert re.search(r"^add\s+/class/block/vda \(block\)$",
                     re.sub(r"KERNEL\[[\d.]+\] ", "", sh(k, "udevadm monitor --journal")), re.M)


@pytest.mark.parametrize("opts,transport,device,version_1", [
    ("", "modern", "1001", "1"),
    (",disable-legacy=on", "modern", "1042", "1"),
    (",disable-modern=on", "legacy", "1001", "0"),
])
def test_each_pci_transport_reads_and_writes(boot_with, tmp_path, opts, transport, device, version_1):
    img = image(tmp_path, "t.img", 4, b"written by the host", 7 * 512)
    k = boot_with(qemu_args=disk(img, "d0", opts))
    assert "00:04.0 0100: 1af4:%s" % device in sh(k, "lspci")
    assert "[vda] 8192 512-byte logical blocks, %s transport" % transport in k.run("dmesg")
    assert cat(k, "/sys/bus/virtio/devices/virtio0/features")[32] == version_1
    assert "|written by the h|" in sh(k, "blk read vda 7")
    assert sh(k, "blk write vda 3 written by kobold") == ""
    assert sh(k, "blk flush vda") == ""
    assert sector(img, 3).rstrip(b"\0") == b"written by kobold"
    assert "MiB/s" in sh(k, "blk bench vda read seq 64 2")


def test_two_disks_of_different_sizes(boot_with, tmp_path):
    args = disk(image(tmp_path, "a.img", 1), "d0") + disk(image(tmp_path, "b.img", 3), "d1")
    k = boot_with(qemu_args=args)
    assert cat(k, "/sys/class/block/vda/size") == "2048"
    assert cat(k, "/sys/class/block/vdb/size") == "6144"
    assert re.search(r"^vdb\s+\d+:16\s+0\s+3M\s+0 disk$", sh(k, "lsblk"), re.M)


def test_four_disks_are_named_in_pci_order(boot_with, tmp_path):
    # Command-line order differs from slot order: names follow the slots.
    slots = {8: 1, 5: 2, 7: 3, 6: 4}	# slot: MiB
    args = []
    for i, (slot, mib) in enumerate(slots.items()):
        args += disk(image(tmp_path, "d%d.img" % i, mib), "d%d" % i, ",addr=%#x" % slot)
    k = boot_with(qemu_args=args)
    for name, slot in zip("abcd", sorted(slots)):
        assert cat(k, "/sys/class/block/vd%s/size" % name) == str(slots[slot] * 2048)
        assert "0000:00:%02x.0" % slot in sh(k, "readlink /sys/class/block/vd%s/device" % name)


def test_readonly_disk_refuses_writes(boot_with, tmp_path):
    img = image(tmp_path, "ro.img", 2, b"keep me", 0)
    before = sha(img)
    k = boot_with(qemu_args=disk(img, "d0", "", ",readonly=on"))
    assert cat(k, "/sys/class/block/vda/ro") == "1"
    assert re.search(r"^vda\s+\S+\s+0\s+2M\s+1 disk$", sh(k, "lsblk"), re.M)
    assert "Read-only file system" in k.run("blk write vda 0 overwrite")
    assert "|keep me" in sh(k, "blk read vda 0")
    k.send("poweroff\r")
    k.wait_exit()
    assert sha(img) == before


def test_serial_from_get_id(boot_with, tmp_path):
    args = disk(image(tmp_path, "a.img", 1), "d0", ",serial=KOBOLD-SN-0001") + \
        disk(image(tmp_path, "b.img", 1), "d1")
    k = boot_with(qemu_args=args)
    assert cat(k, "/sys/class/block/vda/serial") == "KOBOLD-SN-0001"
    assert cat(k, "/sys/class/block/vdb/serial") == ""


def test_data_crosses_between_kernel_and_host_image(boot_with, tmp_path):
    img = image(tmp_path, "x.img", 4, b"the host wrote this", 100 * 512)
    k = boot_with(qemu_args=disk(img, "d0", "", ",cache=writethrough"))
    assert "|the host wrote t|" in sh(k, "blk read vda 100")
    assert sh(k, "blk write vda 5 kobold was here") == ""
    assert sh(k, "blk flush vda") == ""
    assert sector(img, 5) == b"kobold was here".ljust(512, b"\0")
    with open(img, "r+b") as f:	# and back again, on a sector the guest never read
        f.seek(200 * 512)
        f.write(b"second message")
    assert "|second message..|" in sh(k, "blk read vda 200")


def test_small_ring_queues_requests_in_software(boot_with, tmp_path):
    # queue-size=4 leaves room for one request at a time: the rest wait in the driver.
    img = image(tmp_path, "q.img", 4)
    k = boot_with(qemu_args=disk(img, "d0", ",queue-size=4"))
    assert "MiB/s" in sh(k, "blk bench vda write seq 1024 4")
    assert "MiB/s" in sh(k, "blk bench vda read rand 4 1")
    assert sh(k, "blk write vda 8000 last sector but some") == ""
    assert sh(k, "blk flush vda") == ""
    assert sector(img, 8000).startswith(b"last sector but some")


def test_rmmod_and_modprobe_unbind_and_bind_every_disk(boot_with, tmp_path):
    args = disk(image(tmp_path, "a.img", 1), "d0") + disk(image(tmp_path, "b.img", 2), "d1")
    k = boot_with(qemu_args=args)
    objects = re.search(r"ObjectsInUse:\s+(\d+)", sh(k, "meminfo")).group(1)
    for _ in range(3):
        assert sh(k, "rmmod virtio_blk") == ""
        assert "vda" not in sh(k, "lsblk") and "vdb" not in sh(k, "lsblk")
        assert "driver" not in sh(k, "ls /sys/bus/virtio/devices/virtio0/")
        assert sh(k, "ls /sys/bus/virtio/drivers") == "virtio_console\nvirtio_rng\n"	# built in, unbound here
        assert "No such file" in k.run("cat /sys/class/block/vda/size")
        assert sh(k, "modprobe virtio_blk") == ""
        assert cat(k, "/sys/class/block/vdb/size") == "4096"
        assert "driver" in sh(k, "ls /sys/bus/virtio/devices/virtio1/")
    events = sh(k, "udevadm monitor --journal")
    assert len(re.findall(r"remove\s+/class/block/vda \(block\)", events)) == 3
    assert len(re.findall(r"add\s+/class/block/vdb \(block\)", events)) == 4
    assert re.search(r"ObjectsInUse:\s+(\d+)", sh(k, "meminfo")).group(1) == objects
    assert sh(k, "blk write vda 1 still works") == ""
    assert "|still works" in sh(k, "blk read vda 1")


def qemu_has_slot(k, slot):
    return re.search(r"Bus\s+0, device\s+%d, function 0" % slot, k.monitor("info pci")) is not None


def test_hotplug_add_and_remove_through_the_monitor(boot_with, tmp_path):
    mon = str(tmp_path / "mon.sock")
    args = disk(image(tmp_path, "a.img", 1), "d0", ",id=cold0")
    args += ["-drive", "file=%s,if=none,id=hp0,format=raw" % image(tmp_path, "h0.img", 2),
             "-drive", "file=%s,if=none,id=hp1,format=raw" % image(tmp_path, "h1.img", 3)]
    k = boot_with("acpiphp.disable=1", qemu_args=args, monitor=mon)  # by hand, as without ACPI
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6,serial=HOT0")
    assert "00:06.0" not in sh(k, "lspci")	# not ours until we look
    assert sh(k, "echo 1 > /sys/bus/pci/rescan") == ""
    assert "00:06.0 0100: 1af4:1001" in sh(k, "lspci")
    assert cat(k, "/sys/class/block/vdb/serial") == "HOT0"
    assert cat(k, "/sys/class/block/vdb/size") == "4096"
    assert sh(k, "blk write vdb 1 hotplugged") == ""
    assert "|hotplugged" in sh(k, "blk read vdb 1")
    # QEMU asks (device_del); removing the function lets QEMU eject the slot.
    k.monitor("device_del hot0")
    assert qemu_has_slot(k, 6)
    assert sh(k, "echo 1 > /sys/bus/pci/devices/0000:00:06.0/remove") == ""
    assert "vdb" not in sh(k, "lsblk")
    assert "00:06.0" not in sh(k, "lspci")
    for _ in range(50):
        if not qemu_has_slot(k, 6):
            break
        time.sleep(0.05)
    assert not qemu_has_slot(k, 6)
    # The cold-plugged disk goes too; the next disk takes the lowest free name.
    k.monitor("device_del cold0")
    assert sh(k, "echo 1 > /sys/bus/pci/devices/0000:00:04.0/remove") == ""
    k.monitor("device_add virtio-blk-pci,drive=hp1,id=hot1,addr=0x7")
    assert sh(k, "echo 1 > /sys/bus/pci/rescan") == ""
    assert cat(k, "/sys/class/block/vda/size") == "6144"
    assert "0000:00:07.0" in sh(k, "readlink /sys/class/block/vda/device")
    events = re.sub(r"KERNEL\[[\d.]+\] ", "", sh(k, "udevadm monitor --journal"))
    for line in ["add      /devices/pci0000:00/0000:00:06.0 (pci)",
                 "add      /devices/pci0000:00/0000:00:06.0/virtio1 (virtio)",
                 "add      /class/block/vdb (block)",
                 "remove   /class/block/vdb (block)",
                 "remove   /devices/pci0000:00/0000:00:06.0/virtio1 (virtio)",
                 "remove   /devices/pci0000:00/0000:00:06.0 (pci)",
                 "add      /devices/pci0000:00/0000:00:07.0 (pci)"]:
        assert line in events, events


def test_remove_without_device_del_then_rescan_finds_it_again(boot_with, tmp_path):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0"))
    assert sh(k, "echo 1 > /sys/bus/pci/devices/0000:00:04.0/remove") == ""
    assert "No such file" in k.run("ls /sys/devices/pci0000:00/0000:00:04.0")
    assert "00:04.0" not in sh(k, "lspci")
    assert sh(k, "echo 1 > /sys/bus/pci/rescan") == ""
    assert cat(k, "/sys/class/block/vda/size") == "2048"
    assert "|" in sh(k, "blk read vda 0")


def test_injected_io_error_is_reported_and_the_kernel_answers(boot_with, tmp_path):
    conf = tmp_path / "blkdebug.conf"
    conf.write_text('[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "100"\n\n'
                    '[inject-error]\nevent = "write_aio"\nerrno = "5"\nsector = "200"\n')
    img = image(tmp_path, "e.img", 1)
    k = boot_with(qemu_args=["-drive", "file=blkdebug:%s:%s,if=none,id=d0,format=raw" % (conf, img),
                             "-device", "virtio-blk-pci,drive=d0"])
    assert "blk: vda: Input/output error" in k.run("blk read vda 100")
    assert "blk: vda: Input/output error" in k.run("blk read vda 96 8")
    assert "blk: vda: Input/output error" in k.run("blk write vda 200 lost")
    assert "|" in sh(k, "blk read vda 99")
    assert sh(k, "blk write vda 201 kept") == ""
    assert sh(k, "echo alive").strip() == "alive"
