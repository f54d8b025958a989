#!/usr/bin/env python3
"""Lab 10 checker: a udev rule, /dev/backup for the disk in PCI slot 5 (docs/labs/lab10-udev-rule.md)."""
import atexit
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, run  # noqa: E402
import partimg  # noqa: E402  (tests/, on the path labcheck gives)

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts: none, as no transcript boots a disk in slot 5.
FILES = ["etc/udev/rules.d/70-backup.rules"]
ADDS = []

RULES = "/etc/udev/rules.d/70-backup.rules"
MARK = b"BACKUP-DISK-0005"
# Three disks, each with an MBR (vdX1, vdX2 extended, vdX5): slots 3 and 4 are others,
# slot 5 the backup disk, so it is vdc here (vdb in the page's make run).
SLOTS = {3: "vda", 4: "vdb", 5: "vdc"}
BACKUP = "vdc"
LINKS = {"backup": "vdc", "backup1": "vdc1", "backup2": "vdc2", "backup5": "vdc5"}
_images = tempfile.mkdtemp(prefix="lab10-")
atexit.register(shutil.rmtree, _images, True)


def images(slots=SLOTS):
    """QEMU's options for the disks (the images made once, in a temporary directory)."""
    args = ["-nic", "none"]
    for slot in slots:
        path = os.path.join(_images, "slot%d.img" % slot)
        if not os.path.exists(path):
            partimg.mbr(path, 16, [(2048, 8192, partimg.LINUX), (10240, 8192, partimg.EXTENDED)],
                        [(12288, 4096)], ext_index=1)
            with open(path, "r+b") as f:  # the boot code's bytes: a mark to read back
                f.write(MARK if slot == 5 else b"OTHER-DISK-000%d" % slot)
        args += ["-drive", "file=%s,if=none,id=d%d,format=raw" % (path, slot),
                 "-device", "virtio-blk-pci,drive=d%d,addr=0x%x,serial=disk-in-slot-%d" % (slot, slot, slot)]
    return args


def boot(s):
    """One boot for all the checks while they pass: each leaves the links as it found them."""
    if s.k is None:
        s.boot(qemu_args=images())
    expect_eq(s.text("readlink -f /sys/class/block/%s/device" % BACKUP).split("/")[-2], "0000:00:05.0",
              "the checker's disks are not where it put them: readlink -f /sys/class/block/%s/device" % BACKUP)


def links(s):
    """{name: target} of every /dev/backup* link."""
    found = {}
    for line in s.lines("ls -l /dev"):
        m = re.match(r"l\S+ +(backup\S*) -> (\S+)$", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def rules_load(s):
    """/etc/udev/rules.d/70-backup.rules is there at boot and every line of it loads"""
    boot(s)
    out = s.text("cat " + RULES)
    expect("No such file" not in out, "cat %s: %s\nwrite etc/udev/rules.d/70-backup.rules in the tree "
                                       "and run make: the build puts etc/ into the kernel" % (RULES, out))
    bad = [l for l in s.lines("dmesg") if "udevd: %s:" % RULES in l]
    expect(not bad, "udevd refused lines of your file (FILE:LINE why):\n" + "\n".join(bad))


def backup_link(s):
    """/dev/backup is a link to the whole disk in slot 00:05.0 (vdc here), and reads it"""
    boot(s)
    got = links(s).get("backup")
    expect(got is not None, "no /dev/backup (ls -l /dev shows no backup link)")
    expect_eq(got, BACKUP, "readlink /dev/backup (the whole disk in slot 5, not a partition "
                           "nor another slot's disk)")
    out = s.text("hexdump -C -n 16 /dev/backup")
    expect("|%s|" % MARK.decode() in out, "hexdump -C -n 16 /dev/backup does not show the backup "
                                          "disk's first bytes:\n" + out)


backup_link.points = 2


def partition_links(s):
    """/dev/backup1, backup2 and backup5 name its partitions, and no other backup* link exists"""
    boot(s)
    expect_eq(links(s), LINKS, "the backup* links in /dev, {name: target}")


def udevadm_shows_it(s):
    """udevadm test shows your rule's SYMLINK for vdc and vdc5 and none for vdb; udevadm info has S: backup"""
    boot(s)
    for dev, link in ((BACKUP, "backup"), (BACKUP + "5", "backup5")):
        out = s.text("udevadm test /sys/class/block/" + dev)
        want = re.compile(r'^%s:\d+ SYMLINK\+="%s"$' % (re.escape(RULES), link), re.M)
        expect(want.search(out), "udevadm test /sys/class/block/%s has no line '%s:LINE "
                                 "SYMLINK+=\"%s\"':\n%s" % (dev, RULES, link, out))
    out = s.text("udevadm test /sys/class/block/vdb")
    expect(RULES + ":" not in out.split("\nACTION=")[0],
           "udevadm test /sys/class/block/vdb (slot 4) applies your rules:\n" + out)
    info = s.lines("udevadm info /sys/class/block/" + BACKUP)
    expect("S: backup" in info, "udevadm info /sys/class/block/%s has no S: backup line:\n%s"
           % (BACKUP, "\n".join(info)))


def change_keeps_links(s):
    """the links stay after udevadm trigger (a change event for every disk)"""
    boot(s)
    expect_eq(s.text("udevadm trigger --subsystem-match=block"), "", "udevadm trigger --subsystem-match=block")
    s.run("udevadm settle")
    expect_eq(links(s), LINKS, "the backup* links after a change event (does a rule say ACTION==\"add\"?)")


def links_follow_the_disk(s):
    """removing slot 5's PCI function removes the links; a rescan brings them back"""
    boot(s)
    s.run("echo 1 > /sys/bus/pci/devices/0000:00:05.0/remove")
    s.run("udevadm settle")
    expect_eq(links(s), {}, "the backup* links after echo 1 > /sys/bus/pci/devices/0000:00:05.0/remove")
    s.run("echo 1 > /sys/bus/pci/rescan")
    s.run("udevadm settle")
    expect_eq(links(s), LINKS, "the backup* links after echo 1 > /sys/bus/pci/rescan")


def links_follow_the_slot(s):
    """with slot 5's disk alone (so named vda), the links follow it: the slot, not the name"""
    s.boot(qemu_args=images([5]))  # its own boot: the last check
    alone = {name: "vda" + target[len(BACKUP):] for name, target in LINKS.items()}
    expect_eq(links(s), alone, "the backup* links with slot 5's disk booted alone, as vda "
                               "(a rule that names vdc, or any name, follows the name, not the slot)")


links_follow_the_slot.points = 3


CHECKS = [rules_load, backup_link, partition_links, udevadm_shows_it, change_keeps_links,
          links_follow_the_disk, links_follow_the_slot]
TITLE = "Lab 10: a udev rule, /dev/backup"

if __name__ == "__main__":
    sys.exit(run(TITLE, CHECKS))
