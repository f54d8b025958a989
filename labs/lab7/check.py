#!/usr/bin/env python3
"""Lab 7 checker: /dev/kobold, a character device that counts its opens (docs/labs/lab7-char-device.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="7" -->.
FILES = ["drivers/char/kobold.c"]
ADDS = [r"kobold( +\d+ +\d+)?", r"crw------- +\d+, +0 kobold",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/kobold/kobold"]

DEV = "/dev/kobold"
SYS = "/sys/devices/virtual/kobold/kobold"
INVALID = "echo: write error: Invalid argument"


def node(s, reads_end=True):
    """(major, minor) of /dev/kobold; fails the check unless it is a char device node
    (so that no check's echo makes a plain file there) and, with reads_end, unless
    reading it comes to an end (or every cat would hang until the checker's timeout)."""
    out = s.text("ls -l " + DEV)
    m = re.fullmatch(r"c[-rw]{9} +(\d+), +(\d+) /dev/kobold", out)
    expect(m, "ls -l %s printed: %s (no character device node)" % (DEV, out))
    if reads_end:
        out = s.text("dd if=%s of=/dev/null bs=64 count=4" % DEV)
        rec = re.match(r"(\d+)\+(\d+) records in", out)
        expect(rec and int(rec.group(1)) + int(rec.group(2)) < 4,
               "dd if=%s of=/dev/null bs=64 count=4 printed:\n%s\na read never returns 0 "
               "(end of file), so cat would never end" % (DEV, out))
    return m.group(1), m.group(2)


def count(s):
    """What cat /dev/kobold printed, as a number (the cat's own open included)."""
    out = s.text("cat " + DEV)
    m = re.fullmatch(r"opened (\d+) times", out)
    expect(m, "cat %s printed %r, not a line 'opened N times'" % (DEV, out))
    return int(m.group(1))


def node_exists(s):
    """/dev/kobold is a char device node with a dynamic major"""
    s.fresh()
    major, _ = node(s, reads_end=False)
    expect(major not in ("0", "1", "4", "10", "253"), "major %s is another driver's: ask "
                                                      "for a free one" % major)


node_exists.points = 2


def sysfs_links(s):
    """/sys/class/kobold/kobold links to /sys/devices/virtual/kobold/kobold, whose dev matches the node"""
    s.fresh()
    expect_eq(s.lines("ls -l /sys/class/kobold"),
              ["lrwxrwxrwx kobold -> ../../devices/virtual/kobold/kobold"], "ls -l /sys/class/kobold")
    major, minor = node(s, reads_end=False)
    expect_eq(s.text("cat %s/dev" % SYS), "%s:%s" % (major, minor),
              "cat %s/dev (ls -l %s says %s, %s)" % (SYS, DEV, major, minor))


def cat_counts(s):
    """each cat /dev/kobold opens it once more: opened 1 times, then 2, then 3"""
    s.fresh()
    node(s)
    s.run("echo 0 > " + DEV)
    got = [s.text("cat " + DEV) for _ in range(3)]
    expect_eq(got, ["opened %d times" % n for n in (1, 2, 3)], "cat %s three times after echo 0" % DEV)


def read_ends(s):
    """a read honours the offset: hexdump sees the line once, dd of 1-byte blocks too"""
    s.fresh()
    node(s)
    s.run("echo 0 > " + DEV)
    out = s.lines("hexdump -C " + DEV)
    expect(len(out) >= 2 and out[-1].strip() == "0000000f",
           "hexdump -C %s (the line once, 15 bytes):\n%s" % (DEV, "\n".join(out)))
    out = s.text("dd if=%s of=/tmp/k bs=1" % DEV)
    expect(out.startswith("15+0 records in\n15+0 records out"), "dd if=%s bs=1 printed:\n%s" % (DEV, out))
    expect_eq(s.text("cat /tmp/k"), "opened 2 times", "cat /tmp/k after dd bs=1")


read_ends.points = 2


def write_resets(s):
    """echo 0 > /dev/kobold starts the count again"""
    s.fresh()
    node(s)
    for _ in range(3):
        s.run("cat " + DEV)
    expect_eq(s.text("echo 0 > " + DEV), "", "echo 0 > " + DEV)
    expect_eq(count(s), 1, "the count after echo 0 and one cat")


def bad_writes_refused(s):
    """write 1, 00, abc, 0x and echo 1, -0 are refused with Invalid argument, the count unchanged"""
    s.fresh()
    node(s)
    s.run("echo 0 > " + DEV)
    s.run("cat " + DEV)
    fd = re.fullmatch(r"fd (\d+)", s.text("open " + DEV))
    expect(fd, "open %s printed no fd" % DEV)
    for bad in ["1", "00", "abc", "0x"]:
        out = s.text("write %s %s" % (fd.group(1), bad))
        expect("Invalid argument" in out, "write %s %r printed: %r" % (fd.group(1), bad, out))
    s.run("close " + fd.group(1))
    for bad in ["1", "-0"]:
        expect_eq(s.text("echo %s > %s" % (bad, DEV)), INVALID, "echo %s > %s" % (bad, DEV))
    # after echo 0: the cat, the open, the two refused echos and this cat
    expect_eq(count(s), 5, "the count after the refused writes (each open counts)")


def pinned_while_open(s):
    """rmmod kobold is refused while /dev/kobold is open, and works after close"""
    s.fresh()
    node(s)
    fd = re.fullmatch(r"fd (\d+)", s.text("open " + DEV))
    expect(fd, "open %s printed no fd" % DEV)
    out = s.text("rmmod kobold")
    expect_eq(out, "rmmod: ERROR: Module kobold is in use", "rmmod kobold with %s open" % DEV)
    expect(DEV[5:] in s.ls("/dev"), "/dev/kobold went away while open")
    s.run("close " + fd.group(1))
    expect_eq(s.text("rmmod kobold"), "", "rmmod kobold after close")


pinned_while_open.points = 2


def node_follows_module(s):
    """rmmod removes /dev/kobold and /sys/class/kobold; modprobe brings them back"""
    s.fresh()
    node(s)
    expect_eq(s.text("rmmod kobold"), "", "rmmod kobold")
    expect("kobold" not in s.ls("/dev"), "/dev/kobold is still there after rmmod")
    expect("kobold" not in s.ls("/sys/class"), "/sys/class/kobold is still there after rmmod")
    expect("kobold" not in s.ls("/sys/devices/virtual"), "/sys/devices/virtual/kobold is still there")
    out = s.text("cat " + DEV)
    expect_eq(out, "cat: %s: No such file or directory" % DEV, "cat %s after rmmod" % DEV)
    expect_eq(s.text("modprobe kobold"), "", "modprobe kobold")
    expect("kobold" in s.ls("/dev"), "no /dev/kobold after modprobe")
    expect_eq(count(s), 1, "the count of a freshly loaded module")


def no_leaks(s):
    """50 rmmod/modprobe cycles with the device used leave memory and kobjects as they were"""
    s.fresh()
    node(s)
    s.run("rmmod kobold")
    s.run("modprobe kobold")
    before = s.snapshot()
    for i in range(50):
        if i % 10 == 0:
            s.run("cat " + DEV)
            s.run("echo 0 > " + DEV)
        s.run("rmmod kobold")
        out = s.text("modprobe kobold")
        expect(out == "", "modprobe kobold (cycle %d) printed: %s" % (i + 1, out))
    expect_same(before, s.snapshot())


no_leaks.points = 2


CHECKS = [node_exists, sysfs_links, cat_counts, read_ends, write_resets, bad_writes_refused,
          pinned_while_open, node_follows_module, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 7: a character device, /dev/kobold", CHECKS))
