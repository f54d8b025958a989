"""test_hotplug.py: QEMU's device_add and device_del reach the kernel by
themselves (ACPI GPE 1, the SCI, deferred work), and `udevadm monitor`
follows the events live until Ctrl-C. One QEMU boot for the scenario.
Then add/del cycles: BAR space given back and reused, a hot-add failing at
each allocation in turn still ejecting and leaking nothing (make
hotplug-walk: every allocation), and the soak (make hotplug-soak)."""
import os
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
             r"DEVPATH=/class/block/vdb\r*\nSUBSYSTEM=block\r*\nSEQNUM=\d+\r*\n"
             r"PHYSDEVPATH=/devices/pci0000:00/0000:00:07.0/virtio\d+\r*\nPHYSDEVBUS=virtio\r*\n"
             r"PHYSDEVDRIVER=virtio_blk\r*\nMAJOR=253\r*\n"
             r"MINOR=16\r*\nDEVNAME=vdb\r*\nDEVTYPE=disk\r*\n\r*\n")
    out = stop(k)
    assert "(pci)" not in out and "(virtio)" not in out, out

    # At the prompt, with nothing typed: the work runs while the shell waits.
    k.monitor("device_add virtio-blk-pci,drive=hp2,id=hot2,addr=0x8")
    k.expect(r"vdc: 8192 sectors")
    # The disk is probed inside the function's device_add; lspci lists the function
    # once device_add has returned (is_added, as 2.6's pci_bus_add_device sets it).
    for _ in range(40):
        if "00:08.0 0100: 1af4:1001" in sh(k, "lspci"):
            break
        time.sleep(0.05)
    assert "00:08.0 0100: 1af4:1001" in sh(k, "lspci")
    assert sh(k, "blk write vdc 3 hot") == ""
    assert "|hot" in sh(k, "blk read vdc 3")
    events = re.sub(r"KERNEL\[[\d.]+\] ", "", sh(k, "udevadm monitor --journal"))
    assert "add      /class/block/vdc (block)" in events
    assert "remove   /devices/pci0000:00/0000:00:06.0 (pci)" in events
    # The SCI came through the I/O APIC, level-triggered as the MADT's override says.
    assert re.search(r"\n  9: +[1-9]\d*( +\d+)* +IO-APIC-level  acpi\n", sh(k, "cat /proc/interrupts"))


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


# -- hot-add that fails part way, and what removal gives back -------------------

def state(k):
    """What a cycle must give back: memory, kobjects, /dev, and the PCI address space."""
    snap = k.snapshot()
    del snap["seqnum"]
    for cmd in ["tree /dev", "cat /proc/ioports", "cat /proc/iomem", "lspci"]:
        snap[cmd] = sh(k, cmd)
    return snap


def hot_cycle(k, img, i, fault=None):
    """device_add and device_del of a transitional virtio disk at slot 6, the
    add with allocation `fault` failing; the slot must go from QEMU whatever
    the add did. Returns the add's kernel output and what `failslab` said
    after it ("off" once the fault was used up)."""
    k.child.delaybeforesend = None  # no pause needed: settle waits for the SCI's scan
    if fault:
        k.run("failslab %d" % fault)
    start = len(k.transcript())  # the scan may print before settle's echo, or after it
    out = k.monitor("drive_add 0 if=none,id=c%d,file=%s,format=raw,file.locking=off" % (i, img))
    out += k.monitor("device_add virtio-blk-pci,drive=c%d,id=cyc%d,addr=0x6,serial=C%d" % (i, i, i))
    assert "Error" not in out, (i, out[-300:])
    k.run("udevadm settle")
    added = k.transcript()[start:]
    armed = k.run("failslab") if fault else "off"
    k.run("failslab off")
    k.monitor("device_del cyc%d" % i)
    for _ in range(100):  # the eject, then QEMU finishes device_del
        if not qemu_has_slot(k, 6):
            break
        time.sleep(0.05)
    assert not qemu_has_slot(k, 6), (i, fault, k.transcript()[-3000:])
    k.run("udevadm settle")
    return added, armed


def test_bar_space_is_given_back_and_reused(boot_with, tmp_path):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0"), monitor=str(tmp_path / "m.sock"))
    img = image(tmp_path, "h.img", 1)
    before = state(k)
    assert re.fullmatch(r"(\s*[0-9a-f]{4}-[0-9a-f]{4} : \S.*\n)+", before["cat /proc/ioports"]), before
    assert "c000-c07f : 0000:00:04.0\n" in before["cat /proc/ioports"], before
    assert re.search(r"^00100000-[0-9a-f]{8} : System RAM$", before["cat /proc/iomem"], re.M), before
    bars = []
    for i in range(3):
        out, _ = hot_cycle(k, img, i)
        bars.append(re.findall(r"BAR \d: assigned \[\S+\]", out))
        assert state(k) == before, i
    assert bars[0] and bars[0] == bars[1] == bars[2], bars  # the same ranges each time


def test_hot_add_failing_at_any_allocation_still_ejects_and_leaks_nothing(boot_with, tmp_path):
    """The failslab walk over a hot-add: the first allocations (the scan, the
    registration) and the last ones (udevd's links for the new disk), or all
    of them with KOBOLD_HOTPLUG_WALK=all. Each ejects, and leaves memory,
    kobjects, /dev and the address space as they were."""
    # One CPU and no hotplug helper, even in make test's 2-CPU pass: the walk counts every
    # thread's allocations (failslab N), and the shell's own commands and khelper's
    # attempts would come between events/N's in an order two CPUs vary.
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0") + ["-smp", "1"],
                  monitor=str(tmp_path / "m.sock"))
    assert k.run("echo > /proc/sys/kernel/hotplug") == ""
    img = image(tmp_path, "h.img", 1)
    hot_cycle(k, img, 0)  # the first add's one-time allocations out of the way
    before = state(k)
    _, armed = hot_cycle(k, img, 1, 100000)  # how many allocations a hot-add (and its settle) makes
    total = 100000 - int(re.search(r"armed: allocation (\d+)", armed).group(1))
    assert total > 50, total
    assert state(k) == before
    if os.environ.get("KOBOLD_HOTPLUG_WALK") == "all":
        faults = range(1, total + 2)
    else:
        faults = list(range(1, 9)) + list(range(total - 24, total + 2))
    for n, fault in enumerate(faults):
        _, armed = hot_cycle(k, img, 2 + n, fault)
        after = state(k)
        assert after == before, (fault, {key: (before[key], after[key])
                                         for key in before if after[key] != before[key]})
        if not armed.startswith("off"):
            # The end of the add's allocations, not an add still to come: udevadm
            # settle runs the SCI's queued scan before it looks at udevd.
            assert fault > total - 3, (fault, total)
            break


def test_hotplug_soak(boot_with, tmp_path):
    """KOBOLD_HOTPLUG_SOAK cycles (make hotplug-soak: 1,000) of good disks and
    disks whose probe fails, then as many with an allocation failing anywhere
    in the add. Every one ejects; at the end memory, kobjects, /dev and the
    address space are as they were."""
    cycles = int(os.environ.get("KOBOLD_HOTPLUG_SOAK", "6"))
    # One CPU and no hotplug helper, even in make test's 2-CPU pass: the walk counts every
    # thread's allocations (failslab N), and the shell's own commands and khelper's
    # attempts would come between events/N's in an order two CPUs vary.
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0") + ["-smp", "1"],
                  monitor=str(tmp_path / "m.sock"))
    assert k.run("echo > /proc/sys/kernel/hotplug") == ""
    img = image(tmp_path, "h.img", 1)
    hot_cycle(k, img, 0)
    before = state(k)
    _, armed = hot_cycle(k, img, 1, 100000)
    total = 100000 - int(re.search(r"armed: allocation (\d+)", armed).group(1))
    i = 2
    probe_fault = None  # the first allocation whose failure fails a probe (virtio-pci's or virtio_blk's)
    for fault in range(1, total):
        out, _ = hot_cycle(k, img, i, fault)
        i += 1
        if re.search(r"probe of \S+ failed with error -12", out):
            probe_fault = fault
            break
    assert probe_fault, "no allocation of the add is in a probe"
    for n in range(cycles):
        out, _ = hot_cycle(k, img, i, None if n % 2 == 0 else probe_fault)
        i += 1
        assert ("failed with error" in out) == (n % 2 == 1), (n, out)
        assert n % 2 == 1 or "512-byte logical blocks" in out, (n, out)  # the good disk came
    for n in range(cycles):
        _, armed = hot_cycle(k, img, i, 1 + (n * 37) % total)
        assert armed.startswith("off"), (n, armed)  # the add came and met its failure
        i += 1
    after = state(k)
    assert after == before, {key: (before[key], after[key]) for key in before if after[key] != before[key]}
