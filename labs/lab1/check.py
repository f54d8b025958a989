#!/usr/bin/env python3
"""Lab 1 checker: sbd's read-only attribute size_kb (docs/labs/lab1-read-only-attribute.md)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="1" -->.
FILES = ["drivers/block/sbd.c"]
ADDS = [r"(-r--r--r-- |.*-- )?size_kb", r"\s*ATTRS?\{size_kb\}==.*"]

FILE = "/sys/class/sbd/sbd0/size_kb"


def exists(s):
    """/sys/class/sbd/sbd0/size_kb exists"""
    s.fresh()
    expect("size_kb" in s.ls("/sys/class/sbd/sbd0"),
           "ls /sys/class/sbd/sbd0 shows: %s" % " ".join(s.ls("/sys/class/sbd/sbd0")))


def read_only_mode(s):
    """it is read-only for everyone (ls -l shows -r--r--r--)"""
    s.fresh()
    lines = s.lines("ls -l /sys/class/sbd/sbd0")
    expect("-r--r--r-- size_kb" in lines, "ls -l printed:\n" + "\n".join(lines))


def reads_default(s):
    """cat size_kb prints 4096 on the default 4096 KiB disk"""
    s.fresh()
    expect_eq(s.text("cat " + FILE), "4096", "cat " + FILE)


reads_default.points = 2


def ends_with_newline(s):
    """it reads as one line: the value and a newline, as every sysfs file"""
    s.fresh()
    out = s.run("cat " + FILE)
    expect(out.rstrip("\n").isdigit(), "cat %s printed %r: a number was wanted" % (FILE, out))
    expect(out.endswith("\n"), "cat %s printed %r: show must end its text with \\n, or the value "
           "runs into whatever is printed next (here the prompt)" % (FILE, out))


def follows_parameter(s):
    """after `modprobe sbd nr=2 size=1024`, sbd0 and sbd1 both show 1024"""
    s.fresh()
    s.run("rmmod sbd")
    out = s.text("modprobe sbd nr=2 size=1024")
    expect("ERROR" not in out, "modprobe failed:\n" + out)
    for d in ("sbd0", "sbd1"):
        expect_eq(s.text("cat /sys/class/sbd/%s/size_kb" % d), "1024", "cat size_kb of " + d)


follows_parameter.points = 2


def refuses_writes(s):
    """writing to it fails with Permission denied"""
    s.fresh()
    expect_eq(s.text("echo 5 > " + FILE), "echo: write error: Permission denied", "echo 5 > " + FILE)
    expect_eq(s.text("cat " + FILE), "4096", "cat after the refused write")


def others_still_work(s):
    """version and ro still work"""
    s.fresh()
    expect_eq(s.text("cat /sys/class/sbd/sbd0/version"), "1.0", "cat version")
    s.run("echo 1 > /sys/class/sbd/sbd0/ro")
    expect_eq(s.text("cat /sys/class/block/sbd0/ro"), "1", "block ro after echo 1 > sbd ro")


def no_leaks(s):
    """rmmod and modprobe leave no memory or kobject behind"""
    s.fresh()
    s.run("rmmod sbd")
    s.run("modprobe sbd")
    before = s.snapshot()
    for _ in range(3):
        s.run("cat " + FILE)
        s.run("rmmod sbd")
        s.run("modprobe sbd nr=3 size=64")
        s.run("rmmod sbd")
        s.run("modprobe sbd")
    after = s.snapshot()
    expect_same(before, after)


CHECKS = [exists, read_only_mode, reads_default, ends_with_newline, follows_parameter, refuses_writes,
          others_still_work, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 1: a read-only attribute (size_kb on sbd)", CHECKS))
