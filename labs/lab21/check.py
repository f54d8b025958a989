#!/usr/bin/env python3
"""Lab 21 checker: /dev/scullpipe, a FIFO with ioctls, O_NONBLOCK, poll and reads and
writes that wait (docs/labs/lab21-scullpipe.md). One boot: user/scullptest.c drives the
device from processes."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import labuser  # noqa: E402
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="21" -->.
FILES = ["drivers/char/scullpipe.c"]
ADDS = [r"scullpipe( +\d+ +\d+)?", r"crw------- +\d+, +0 scullpipe",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/scullpipe/scullpipe"]
# The course's programs the checks run (grade-class builds them once per class).
PROGRAMS = ["scullptest"]

DEV = "/dev/scullpipe"


def start(s):
    return labuser.start(s, "scullptest")


def passes(s, *names):
    labuser.passes(start(s), "scullptest", *names)


def node(s):
    """/dev/scullpipe is a char node with a dynamic major; /sys/class/scullpipe/scullpipe links into /sys/devices/virtual"""
    start(s)
    out = s.text("ls -l " + DEV)
    expect(re.fullmatch(r"c[-rw]{9} +\d+, +0 /dev/scullpipe", out), "ls -l %s printed: %s" % (DEV, out))
    expect_eq(s.text("readlink /sys/class/scullpipe/scullpipe"), "../../devices/virtual/scullpipe/scullpipe",
              "readlink /sys/class/scullpipe/scullpipe")


def ioctls(s):
    """SCULLP_IOCGSIZE, IOCGCOUNT, IOCRESET and IOCSSIZE (EBUSY with bytes waiting, EINVAL out of 1-65536)"""
    passes(s, "ioctl_size", "ioctl_count", "ioctl_set_size")


ioctls.points = 2


def ioctl_errors(s):
    """ENOTTY for an unknown command (number, type or size; tcgetattr), EFAULT for a bad argument pointer"""
    passes(s, "ioctl_unknown", "ioctl_efault")


def fifo(s):
    """bytes come out in the order they went in, across writes and partial reads"""
    passes(s, "fifo_order")


def nonblock(s):
    """O_NONBLOCK: EAGAIN from a read when empty and from a write when full (after exactly the FIFO's size)"""
    passes(s, "nonblock_empty", "nonblock_full")


nonblock.points = 2


def poll(s):
    """poll's mask (POLLIN with bytes, POLLOUT with room), and a poll that sleeps until another process writes"""
    passes(s, "poll_mask", "poll_blocks")


poll.points = 2


def blocking(s):
    """a read waits until another process writes, a write until another reads; a signal ends the wait with EINTR"""
    passes(s, "blocking_read", "blocking_write", "signal_interrupts")


blocking.points = 2


def no_leaks(s):
    """rmmod scullpipe and modprobe scullpipe, 10 times: the node goes and comes back; memory and kobjects back"""
    start(s)
    before = s.snapshot()
    for _ in range(10):
        expect_eq(s.text("rmmod scullpipe"), "", "rmmod scullpipe")
        expect("scullpipe" not in s.ls("/dev"), "/dev/scullpipe is still there after rmmod scullpipe")
        expect_eq(s.text("modprobe scullpipe"), "", "modprobe scullpipe")
    expect_same(before, s.snapshot())


CHECKS = [node, ioctls, ioctl_errors, fifo, nonblock, poll, blocking, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 21: ioctl, poll and blocking I/O (scullpipe)", CHECKS))
