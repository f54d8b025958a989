#!/usr/bin/env python3
"""Lab 2 checker: sbd's writable attribute max_sectors (docs/labs/lab2-writable-attribute.md)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="2" -->.
FILES = ["drivers/block/sbd.c"]
ADDS = [r"(-rw-r--r-- |.*-- )?max_sectors", r"\s*ATTRS?\{max_sectors\}==.*"]

FILE = "/sys/class/sbd/sbd0/max_sectors"
INVALID = "echo: write error: Invalid argument"


def read_ios(s, disk="sbd0"):
    fields = s.text("cat /sys/class/block/%s/stat" % disk).split()
    expect(len(fields) == 11, "cat /sys/class/block/%s/stat printed %r" % (disk, fields))
    return int(fields[0])


def exists(s):
    """/sys/class/sbd/sbd0/max_sectors exists, readable by all, writable by root (-rw-r--r--)"""
    s.fresh()
    lines = s.lines("ls -l /sys/class/sbd/sbd0")
    expect("-rw-r--r-- max_sectors" in lines, "ls -l /sys/class/sbd/sbd0 printed:\n" + "\n".join(lines))


def starts_at_zero(s):
    """it reads 0 (no limit) after boot"""
    s.fresh()
    expect_eq(s.text("cat " + FILE), "0", "cat " + FILE)


def stores_value(s):
    """echo 8 > max_sectors stores 8, and the disk now cuts a 32-sector read into 4 requests"""
    s.fresh()
    expect_eq(s.text("echo 8 > " + FILE), "", "echo 8 > " + FILE)
    expect_eq(s.text("cat " + FILE), "8", "cat after echo 8")
    before = read_ios(s)
    s.run("blk read sbd0 0 32")
    expect_eq(read_ios(s) - before, 4, "read I/Os in stat after `blk read sbd0 0 32`")


stores_value.points = 3


def limits(s):
    """0 and 256 are accepted; 0 means one request again"""
    s.fresh()
    expect_eq(s.text("echo 256 > " + FILE), "", "echo 256 > " + FILE)
    expect_eq(s.text("cat " + FILE), "256", "cat after echo 256")
    expect_eq(s.text("echo 0 > " + FILE), "", "echo 0 > " + FILE)
    before = read_ios(s)
    s.run("blk read sbd0 0 32")
    expect_eq(read_ios(s) - before, 1, "read I/Os for a 32-sector read with no limit")


def rejects_bad_input(s):
    """bad input (257, -1, abc, 0x10, empty, 99999999999, "8 9", 12abc) fails with Invalid argument and changes nothing"""
    s.fresh()
    s.run("echo 16 > " + FILE)
    for bad in ["257", "-1", "abc", "0x10", "", "99999999999", '"8 9"', "12abc"]:
        expect_eq(s.text("echo %s > %s" % (bad, FILE)), INVALID, "echo %s > max_sectors" % (bad or "(nothing)"))
        expect_eq(s.text("cat " + FILE), "16", "max_sectors after the refused echo %s" % bad)


rejects_bad_input.points = 2


def per_disk(s):
    """each disk has its own limit (sbd.nr=2: writing sbd0's leaves sbd1's alone)"""
    s.fresh("sbd.nr=2")
    s.run("echo 4 > " + FILE)
    expect_eq(s.text("cat /sys/class/sbd/sbd1/max_sectors"), "0", "sbd1's max_sectors")
    before = read_ios(s, "sbd1")
    s.run("blk read sbd1 0 8")
    expect_eq(read_ios(s, "sbd1") - before, 1, "read I/Os on sbd1 for 8 sectors")


per_disk.points = 2


def no_leaks(s):
    """rmmod and modprobe leave no memory or kobject behind"""
    s.fresh()
    s.run("rmmod sbd")
    s.run("modprobe sbd")
    before = s.snapshot()
    for _ in range(3):
        s.run("echo 8 > " + FILE)
        s.run("rmmod sbd")
        s.run("modprobe sbd")
    after = s.snapshot()
    expect_same(before, after)


CHECKS = [exists, starts_at_zero, stores_value, limits, rejects_bad_input, per_disk, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 2: a writable attribute with validation (max_sectors on sbd)", CHECKS))
