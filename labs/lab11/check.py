#!/usr/bin/env python3
"""Lab 11 checker: virtio_blk follows QEMU's block_resize, from the config interrupt (docs/labs/lab11-config-interrupt.md)."""
import atexit
import os
import re
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts: none (no transcript resizes a disk).
FILES = ["drivers/block/virtio_blk.c"]
ADDS = []

MIB = 2048  # sectors
# vda: modern virtio-pci with MSI-X (the config change on its own vector, virtio0-config);
# vdb: vectors=0, so INTx, where the config change is bit 1 of the ISR byte.
DISKS = {"vda": ("d0", 4, ""), "vdb": ("d1", 5, ",vectors=0")}
_images = tempfile.mkdtemp(prefix="lab11-")
atexit.register(shutil.rmtree, _images, True)


def qemu_args():
    args = []
    for name, (drive, slot, opts) in DISKS.items():
        path = os.path.join(_images, name + ".img")
        with open(path, "wb") as f:
            f.truncate(16 * 1024 * 1024)
        args += ["-drive", "file=%s,if=none,id=%s,format=raw" % (path, drive),
                 "-device", "virtio-blk-pci,drive=%s,addr=0x%x,serial=lab11-%s%s" % (drive, slot, name, opts)]
    return args


def boot(s):
    """One boot for all the checks while they pass (each resize is its own, to a new size)."""
    if s.k is None:
        s.boot(qemu_args=qemu_args(), monitor=True)


def size(s, disk):
    return int(s.text("cat /sys/class/block/%s/size" % disk))


def config_irqs(s, disk):
    """The line of /proc/interrupts that carries the disk's config interrupt."""
    name = "virtio0-config" if disk == "vda" else "0000:00:05.0"
    return [l.strip() for l in s.lines("cat /proc/interrupts") if l.endswith(name)]


def resize(s, disk, mib, wait=True):
    """block_resize in QEMU's monitor; with wait, up to 6 s for /sys/class/block/DISK/size to
    follow (a grading machine running four checkers at once can take seconds)."""
    reply = s.monitor("block_resize %s %dM" % (DISKS[disk][0], mib))
    expect("rror" not in reply, "QEMU's block_resize %s %dM: %s" % (DISKS[disk][0], mib, reply[-200:]))
    deadline = time.time() + 6
    while wait and time.time() < deadline:
        s.run("udevadm settle")  # the work runs, its log lines come out here
        if size(s, disk) == mib * MIB:
            break
        time.sleep(0.1)


def grow(s, disk):
    """A new size for disk, 8 MiB more than it has now; the resize done."""
    mib = size(s, disk) // MIB + 8
    resize(s, disk, mib)
    return mib


def follows(s, disk):
    boot(s)
    mib = grow(s, disk)
    got = size(s, disk)
    expect(got == mib * MIB, "after block_resize to %d MiB, /sys/class/block/%s/size is %d, not %d "
           "(the config interrupt arrived: %s)" % (mib, disk, got, mib * MIB,
                                                   " / ".join(config_irqs(s, disk)) or "?"))
    line = [l for l in s.lines("lsblk") if l.startswith(disk + " ")]
    expect(line and re.search(r" %dM +0 disk$" % mib, line[0]), "lsblk's %s line: %s" % (disk, line))


def follows_msix(s):
    """vda (MSI-X: the config change on its own vector) follows block_resize: size and lsblk"""
    follows(s, "vda")


def follows_intx(s):
    """vdb (vectors=0: INTx, the config change in the ISR byte) follows block_resize"""
    follows(s, "vdb")


def io_uses_the_new_size(s):
    """a sector past the old end can be written and read after growing; after shrinking, it is refused"""
    boot(s)
    mib = grow(s, "vda")
    sector = (mib - 4) * MIB
    expect_eq(s.text("blk write vda %d grown" % sector), "", "blk write vda %d after growing to %d MiB"
              % (sector, mib))
    expect("|grown" in s.text("blk read vda %d" % sector), "blk read vda %d does not show 'grown'" % sector)
    resize(s, "vda", mib - 8)
    out = s.text("blk read vda %d" % sector)
    expect("rror" in out or "nvalid" in out or "range" in out,
           "blk read vda %d past the end after shrinking to %d MiB printed:\n%s" % (sector, mib - 8, out))


def change_event(s):
    """each resize sends one change event for the disk, which udev handles (UDEV line in a live udevadm monitor)"""
    boot(s)
    before = s.text("udevadm monitor --journal -s block").count("change   /class/block/vdb ")
    mib = size(s, "vdb") // MIB + 8
    s.k.send("udevadm monitor -s block\r")
    s.k.expect("KERNEL - the kernel uevent\r*\n")
    s.monitor("block_resize d1 %dM" % mib)
    try:
        s.k.expect(r"KERNEL\[\d+\.\d{6}\] change   /class/block/vdb \(block\)", timeout=6)
        s.k.expect(r"UDEV  \[\d+\.\d{6}\] change   /class/block/vdb \(block\)", timeout=6)
    except AssertionError as e:
        raise AssertionError("no change event for vdb within 6 s of block_resize, in udevadm monitor "
                             "-s block:\n" + str(e).split(":", 1)[-1][-600:])
    finally:
        s.k.child.send("\x03")
        s.k.wait_prompt()
    journal = s.text("udevadm monitor --journal -s block")
    expect_eq(journal.count("change   /class/block/vdb "), before + 1, "change events for vdb after one resize")
    expect_eq(size(s, "vdb"), mib * MIB, "/sys/class/block/vdb/size after the resize to %d MiB" % mib)
    link = s.text("readlink /dev/disk/by-id/virtio-lab11-vdb")
    expect_eq(link, "../../vdb", "readlink /dev/disk/by-id/virtio-lab11-vdb after the change event")


change_event.points = 2


def from_work(s):
    """the event is sent from deferred work: ps lists virtblk_config_changed_work as run"""
    boot(s)
    grow(s, "vda")
    runs = re.search(r"^ *(\d+) virtblk_config_changed_work$", s.run("ps"), re.M)
    expect(runs and int(runs.group(1)) >= 1, "ps does not list virtblk_config_changed_work among the "
           "work run since boot: schedule it from virtblk_config_changed\n" + s.run("ps"))


from_work.points = 3


CHECKS = [follows_msix, follows_intx, io_uses_the_new_size, change_event, from_work]
TITLE = "Lab 11: the config interrupt, a disk that grows"

if __name__ == "__main__":
    sys.exit(run(TITLE, CHECKS))
