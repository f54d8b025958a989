"""test_hotplug.py: QEMU's device_add and device_del reach the kernel by
themselves (ACPI GPE 1, the SCI, deferred work), and `udevadm monitor`
follows the events live until Ctrl-C. One QEMU boot for the scenario."""
import re
import time

from test_virtio import disk, image, qemu_has_slot, sh


def follow(k, args=""):
    k.send("udevadm monitor%s\r" % args)
    k.expect("monitor will print the received events for:\r*\n"
             "UDEV - the event which udev sends out after rule processing\r*\n"
             "KERNEL - the kernel uevent\r*\n")


def stop(k):
    k.child.send("\x03")
    k.wait_prompt()
    return k.output()


def test_device_add_and_del_run_by_themselves(boot_with, tmp_path):
    mon = str(tmp_path / "mon.sock")
    args = disk(image(tmp_path, "a.img", 1), "d0")
    for i in range(3):
        args += ["-drive", "file=%s,if=none,id=hp%d,format=raw" % (image(tmp_path, "h%d.img" % i, 2 + i), i)]
    k = boot_with(qemu_args=args, monitor=mon)
    assert "ACPI: SCI on IRQ 9" in k.run("dmesg")

    # Live: no command typed in the guest between device_add and the events.
    follow(k)
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    k.expect(r"KERNEL\[\d+\.\d{6}\] add      /devices/pci0000:00/0000:00:06\.0 \(pci\)\r*\n")
    k.expect(r"KERNEL\[[\d.]+\] add      /devices/pci0000:00/0000:00:06\.0/virtio1 \(virtio\)")
    k.expect(r"KERNEL\[[\d.]+\] add      /class/block/vdb \(block\)")
    k.monitor("device_del hot0")
    k.expect(r"KERNEL\[[\d.]+\] remove   /class/block/vdb \(block\)")
    k.expect(r"KERNEL\[[\d.]+\] remove   /devices/pci0000:00/0000:00:06\.0 \(pci\)")
    for _ in range(40):  # the eject completes QEMU's device_del
        if not qemu_has_slot(k, 6):
            break
        time.sleep(0.05)
    assert not qemu_has_slot(k, 6)
    assert stop(k).endswith("^C\n")
    assert "vdb" not in sh(k, "lsblk")

    # Filtered, with properties: only the block class's event.
    follow(k, " -p --subsystem-match=block")
    k.monitor("device_add virtio-blk-pci,drive=hp1,id=hot1,addr=0x7")
    k.expect(r"KERNEL\[[\d.]+\] add      /class/block/vdb \(block\)\r*\nACTION=add\r*\n"
             r"DEVPATH=/class/block/vdb\r*\nSUBSYSTEM=block\r*\nSEQNUM=\d+\r*\nMAJOR=253\r*\n"
             r"MINOR=16\r*\nDEVNAME=vdb\r*\nDEVTYPE=disk\r*\n\r*\n")
    out = stop(k)
    assert "(pci)" not in out and "(virtio)" not in out, out

    # At the prompt, with nothing typed: the work runs while the shell waits.
    k.monitor("device_add virtio-blk-pci,drive=hp2,id=hot2,addr=0x8")
    k.expect(r"vdc: 8192 sectors")
    assert "00:08.0 0100: 1af4:1001" in sh(k, "lspci")
    assert sh(k, "blk write vdc 3 hot") == ""
    assert "|hot" in sh(k, "blk read vdc 3")
    events = re.sub(r"KERNEL\[[\d.]+\] ", "", sh(k, "udevadm monitor --journal"))
    assert "add      /class/block/vdc (block)" in events
    assert "remove   /devices/pci0000:00/0000:00:06.0 (pci)" in events
    # The SCI came through the I/O APIC, level-triggered as the MADT's override says.
    assert re.search(r"\n  9: +[1-9]\d* +IO-APIC-level  acpi\n", sh(k, "cat /proc/interrupts"))


def test_monitor_refuses_bad_options_and_keeps_going(kernel):
    out = kernel.run("udevadm monitor --journal -u")
    assert "udevadm: --journal keeps the kernel's events only" in out, out
    out = kernel.run("udevadm monitor --frobnicate")
    assert out.startswith("usage: udevadm monitor [--journal]"), out
    assert "add      /class/block/sbd0 (block)" in kernel.run("udevadm monitor --journal -s block")
    assert "(sbd)" not in kernel.run("udevadm monitor --journal --subsystem-match=block")
    follow(kernel)
    assert stop(kernel).endswith("^C\n")
    assert kernel.run("echo still-here").strip() == "still-here"


def test_a_new_device_loads_its_module(boot_with, tmp_path):
    """MODULE_DEVICE_TABLE -> alias patterns -> the add event's MODALIAS loads
    virtio_blk after rmmod, with no command typed; modprobe takes aliases."""
    mon = str(tmp_path / "mon.sock")
    args = disk(image(tmp_path, "a.img", 1), "d0")
    args += ["-drive", "file=%s,if=none,id=hp0,format=raw" % image(tmp_path, "h.img", 2)]
    k = boot_with(qemu_args=args, monitor=mon)
    assert "alias virtio:d00000002v* virtio_blk\n" in sh(k, "modprobe -c")
    assert sh(k, "cat /sys/bus/virtio/devices/virtio0/modalias") == "virtio:d00000002v00001AF4\n"
    assert sh(k, "rmmod virtio_blk") == ""
    assert "virtio_blk" not in sh(k, "lsmod") and "vda" not in sh(k, "lsblk")
    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    k.expect(r"kmod: loaded virtio_blk for virtio:d00000002v00001AF4")
    assert "virtio_blk" in sh(k, "lsmod")
    disks = sh(k, "lsblk")
    assert "vda  253:0" in disks and "vdb  253:16" in disks, disks  # both bound
    assert sh(k, "modprobe virtio:d00000002v00001AF4") == ""  # loaded already: no error
    out = k.run("modprobe virtio:d00000004v00001AF4")
    assert out == "modprobe: FATAL: Module virtio:d00000004v00001AF4 not found.\n", out
    # Events carry the alias the module is found by.
    assert "MODALIAS=virtio:d00000002v00001AF4\n" in sh(k, "udevadm monitor --journal -p -s virtio")


def test_hotplug_cycles_leak_nothing(boot_with, tmp_path):
    """device_add and device_del, 100 times, with no guest command: memory,
    kobjects and QEMU's own view back where they started."""
    mon = str(tmp_path / "mon.sock")
    img = image(tmp_path, "h.img", 1)
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0"), monitor=mon)
    before = k.snapshot()
    for i in range(100):
        # QEMU lets go of the last cycle's image file a moment after the slot goes
        out = k.monitor("drive_add 0 if=none,id=c%d,file=%s,format=raw,file.locking=off" % (i, img))
        out += k.monitor("device_add virtio-blk-pci,drive=c%d,id=cyc%d,addr=0x6,serial=C%d" % (i, i, i))
        assert "Error" not in out, (i, out[-300:])
        k.expect(r"virtio_blk virtio\d+: \[vdb\] 2048 512-byte logical blocks")
        k.monitor("device_del cyc%d" % i)
        k.expect(r"pci 0000:00:06: slot ejected")
        for _ in range(40):  # QEMU finishes device_del (and frees the image) after the eject
            if not qemu_has_slot(k, 6):
                break
            time.sleep(0.05)
        assert not qemu_has_slot(k, 6), i
    after = k.snapshot()
    for key in ["BytesInUse", "ObjectsInUse", "kobjects"]:
        assert after[key] == before[key], (key, before[key], after[key])
    assert after["seqnum"] == before["seqnum"] + 100 * 6  # pci, virtio, block: add and remove
