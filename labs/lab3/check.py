#!/usr/bin/env python3
"""Lab 3 checker: blkinfo, a class_interface with per-disk state (docs/labs/lab3-class-interface.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="3" -->.
FILES = ["drivers/block/blkinfo.c"]
ADDS = [r"(-r--r--r-- |-rw-r--r-- |.*-- )?(info|label)", r"blkinfo +\d+ +\d+",
        r"\[[ 0-9.]*\] trace: class_interface_(add|remove) /class/block/\S+",
        r"\s*ATTRS?\{(info|label)\}==.*"]


def disks(s):
    return s.ls("/sys/class/block")


def expected_info(s, disk):
    dev = s.text("cat /sys/class/block/%s/dev" % disk)
    kib = int(s.text("cat /sys/class/block/%s/size" % disk)) // 2
    ro = "ro" if s.text("cat /sys/class/block/%s/ro" % disk) == "1" else "rw"
    return "%s %s %d KiB %s" % (disk, dev, kib, ro)


def loaded(s):
    """blkinfo is a module, loaded at boot (lsmod lists it)"""
    s.fresh("sbd.nr=2")
    names = [l.split()[0] for l in s.lines("lsmod")[1:]]
    expect("blkinfo" in names, "lsmod lists: %s" % " ".join(names))


def every_disk(s):
    """every block device has an info file (sbd.nr=2: sbd0 and sbd1)"""
    s.fresh("sbd.nr=2")
    expect(len(disks(s)) >= 2, "ls /sys/class/block: %s" % disks(s))
    for d in disks(s):
        expect("info" in s.ls("/sys/class/block/" + d), "no info in /sys/class/block/%s" % d)


def content(s):
    """info reads NAME MAJ:MIN SIZE KiB rw|ro, e.g. `sbd0 254:0 4096 KiB rw`"""
    s.fresh("sbd.nr=2")
    for d in disks(s):
        expect_eq(s.text("cat /sys/class/block/%s/info" % d), expected_info(s, d), "cat %s/info" % d)


def follows_ro(s):
    """info shows ro after `echo 1 > /sys/class/sbd/sbd0/ro`"""
    s.fresh("sbd.nr=2")
    s.run("echo 1 > /sys/class/sbd/sbd0/ro")
    got = s.text("cat /sys/class/block/sbd0/info")
    expect(got.endswith(" ro"), "cat /sys/class/block/sbd0/info printed %r" % got)


def read_only(s):
    """info is read-only (-r--r--r--; echo fails with Permission denied)"""
    s.fresh("sbd.nr=2")
    lines = s.lines("ls -l /sys/class/block/sbd0")
    expect("-r--r--r-- info" in lines, "ls -l printed:\n" + "\n".join(lines))
    expect_eq(s.text("echo x > /sys/class/block/sbd0/info"), "echo: write error: Permission denied",
              "echo x > info")


def rmmod_removes(s):
    """rmmod blkinfo calls remove for each disk, in order, and every info file goes"""
    s.fresh("sbd.nr=2")
    s.run("trace on")
    out = s.run("rmmod blkinfo")
    s.run("trace off")
    expect("ERROR" not in out, "rmmod blkinfo printed:\n" + out)
    removed = re.findall(r"trace: class_interface_remove (\S+)", out)
    expect(["/class/block/sbd0", "/class/block/sbd1"] == [r for r in removed if "sbd" in r],
           "trace showed remove for: %s" % removed)
    for d in disks(s):
        for f in ("info", "label"):
            expect(f not in s.ls("/sys/class/block/" + d), "/sys/class/block/%s/%s is still there" % (d, f))
    expect("stat" in s.ls("/sys/class/block/sbd0"), "blkstat's stat went too")


rmmod_removes.points = 2


def modprobe_adds(s):
    """modprobe blkinfo gives the disks already there their info file again"""
    s.fresh("sbd.nr=2")
    s.run("rmmod blkinfo")
    out = s.run("modprobe blkinfo")
    expect("ERROR" not in out, "modprobe blkinfo printed:\n" + out)
    for d in disks(s):
        expect("info" in s.ls("/sys/class/block/" + d), "no info in /sys/class/block/%s" % d)


modprobe_adds.points = 2


def later_disks(s):
    """a disk that joins the class later gets info too (rmmod sbd; modprobe sbd nr=3)"""
    s.fresh("sbd.nr=2")
    s.run("rmmod sbd")
    s.run("modprobe sbd nr=3 size=64")
    expect_eq(s.text("cat /sys/class/block/sbd2/info"), expected_info(s, "sbd2"), "cat sbd2/info")


later_disks.points = 2


def label_file(s):
    """every disk has label (-rw-r--r--), empty at first"""
    s.fresh("sbd.nr=2")
    for d in disks(s):
        lines = s.lines("ls -l /sys/class/block/" + d)
        expect("-rw-r--r-- label" in lines, "ls -l /sys/class/block/%s printed:\n%s" % (d, "\n".join(lines)))
        expect_eq(s.text("cat /sys/class/block/%s/label" % d), "", "cat %s/label" % d)


def label_store(s):
    """echo root > label keeps it for that disk only; 15 characters fit, 16 are refused"""
    s.fresh("sbd.nr=2")
    expect_eq(s.text("echo root > /sys/class/block/sbd0/label"), "", "echo root > sbd0/label")
    expect_eq(s.text("cat /sys/class/block/sbd0/label"), "root", "cat sbd0/label")
    expect_eq(s.text("cat /sys/class/block/sbd1/label"), "", "cat sbd1/label (not written)")
    expect_eq(s.text("echo 0123456789abcde > /sys/class/block/sbd1/label"), "", "a 15-character label")
    expect_eq(s.text("cat /sys/class/block/sbd1/label"), "0123456789abcde", "cat sbd1/label")
    expect_eq(s.text("echo 0123456789abcdef > /sys/class/block/sbd0/label"),
              "echo: write error: Invalid argument", "a 16-character label")
    expect_eq(s.text("cat /sys/class/block/sbd0/label"), "root", "sbd0/label after the refused write")


label_store.points = 2


def label_goes_with_the_disk(s):
    """a disk that leaves takes its label along: after rmmod sbd; modprobe sbd nr=2 it is empty"""
    s.fresh("sbd.nr=2")
    s.run("echo root > /sys/class/block/sbd1/label")
    s.run("rmmod sbd")
    s.run("modprobe sbd nr=2")
    expect_eq(s.text("cat /sys/class/block/sbd1/label"), "", "cat sbd1/label of the new sbd1")


label_goes_with_the_disk.points = 2


def no_leaks(s):
    """loading and unloading blkinfo and sbd, with labels written, leaves no memory or kobject behind"""
    s.fresh()
    for m in ("blkinfo", "sbd"):
        s.run("rmmod " + m)
    s.run("modprobe sbd")
    out = s.text("modprobe blkinfo")
    expect("info" in s.ls("/sys/class/block/sbd0"), "after modprobe blkinfo (%s), /sys/class/block/sbd0 has no "
           "info: blkinfo did not load" % (out or "it printed nothing"))
    before = s.snapshot()
    for _ in range(3):
        s.run("cat /sys/class/block/sbd0/info")
        s.run("echo a > /sys/class/block/sbd0/label")
        s.run("rmmod blkinfo")
        s.run("rmmod sbd")
        s.run("modprobe sbd nr=2")
        s.run("modprobe blkinfo")
        s.run("echo b > /sys/class/block/sbd1/label")
        s.run("rmmod sbd")
        s.run("modprobe sbd")
    after = s.snapshot()
    expect_same(before, after)


no_leaks.points = 2


CHECKS = [loaded, every_disk, content, follows_ro, read_only, label_file, label_store,
          label_goes_with_the_disk, rmmod_removes, modprobe_adds, later_disks, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 3: a class interface with state of its own (blkinfo on the block class)", CHECKS))
