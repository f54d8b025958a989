#!/usr/bin/env python3
"""Lab 20 checker: /dev/scull, a buffer device with read, write and llseek through
copy_to_user and copy_from_user (docs/labs/lab20-scull.md). One boot: user/sculltest.c
drives the device from a process; the shell reads it from the kernel's side."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import labuser  # noqa: E402
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="20" -->.
FILES = ["drivers/char/scull.c"]
ADDS = [r"scull( +\d+ +\d+)?", r"crw------- +\d+, +0 scull",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/scull/scull"]
# The course's programs the checks run (grade-class builds them once per class).
PROGRAMS = ["sculltest"]

DEV = "/dev/scull"


def start(s):
    return labuser.start(s, "sculltest")


def passes(s, *names):
    labuser.passes(start(s), "sculltest", *names)


def node(s):
    """/dev/scull is a char node with a dynamic major; /sys/class/scull/scull links into /sys/devices/virtual"""
    start(s)
    out = s.text("ls -l " + DEV)
    expect(re.fullmatch(r"c[-rw]{9} +\d+, +0 /dev/scull", out), "ls -l %s printed: %s" % (DEV, out))
    expect_eq(s.text("readlink /sys/class/scull/scull"), "../../devices/virtual/scull/scull",
              "readlink /sys/class/scull/scull")


def read_write(s):
    """write then read back; reads follow the file's offset; the whole 4096 bytes in chunks; an offset per open file"""
    passes(s, "write_read", "reads_follow_the_offset", "whole_buffer", "kept_between_opens")


read_write.points = 2


def seek(s):
    """lseek with SEEK_SET, SEEK_CUR and SEEK_END (from the bytes written); EINVAL for a negative result or whence; pread and pwrite"""
    passes(s, "lseek", "lseek_refuses", "pread_pwrite")


seek.points = 2


def ends(s):
    """a short read at the end, then 0; a write that does not fit is short, then ENOSPC; O_TRUNC empties it"""
    passes(s, "short_read_at_end", "full", "o_trunc_empties")


def efault(s):
    """a bad pointer (a kernel address, an unmapped page) gets EFAULT from read and write, and changes nothing"""
    passes(s, "efault_read", "efault_write")


efault.points = 2


def from_the_shell(s):
    """the kernel's own reads and writes work too: echo, cat, and dd with skip (llseek)"""
    start(s)
    expect_eq(s.text("echo hello, shell > %s" % DEV), "", "echo hello, shell > " + DEV)
    expect_eq(s.text("cat " + DEV), "hello, shell", "cat " + DEV)
    out = s.run("dd if=%s bs=1 skip=7 count=5" % DEV)
    expect(out.startswith("shell5+0 records in"), "dd if=%s bs=1 skip=7 count=5 printed:\n%s" % (DEV, out))


def no_leaks(s):
    """rmmod scull and modprobe scull, 10 times: the node goes and comes back empty; memory and kobjects back"""
    start(s)
    s.run("echo data > " + DEV)
    before = s.snapshot()
    for _ in range(10):
        expect_eq(s.text("rmmod scull"), "", "rmmod scull")
        expect("scull" not in s.ls("/dev"), "/dev/scull is still there after rmmod scull")
        expect_eq(s.text("modprobe scull"), "", "modprobe scull")
    expect_eq(s.text("cat " + DEV), "", "cat %s after rmmod and modprobe" % DEV)
    expect_same(before, s.snapshot())


CHECKS = [node, read_write, seek, ends, efault, from_the_shell, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 20: a buffer device (scull)", CHECKS))
