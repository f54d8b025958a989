#!/usr/bin/env python3
"""Lab 22 checker: /dev/scullmap, a device's pages mapped into processes with mmap
(docs/labs/lab22-scullmap.md). One boot: user/scullmtest.c maps, writes and reads it."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import labuser  # noqa: E402
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="22" -->.
FILES = ["drivers/char/scullmap.c"]
ADDS = [r"scullmap( +\d+ +\d+)?", r"crw------- +\d+, +0 scullmap",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/scullmap/scullmap"]
# The course's programs the checks run (grade-class builds them once per class).
PROGRAMS = ["scullmtest"]

DEV = "/dev/scullmap"
MAPPINGS = "/sys/class/scullmap/scullmap/mappings"


def start(s):
    return labuser.start(s, "scullmtest")


def passes(s, *names):
    labuser.passes(start(s), "scullmtest", *names)


def pages_free(s):
    return int(re.search(r"^PagesFree:\s+(\d+)", s.run("meminfo"), re.M).group(1))


def node(s):
    """/dev/scullmap is a char node with a dynamic major; its mappings file reads 0"""
    start(s)
    out = s.text("ls -l " + DEV)
    expect(re.fullmatch(r"c[-rw]{9} +\d+, +0 /dev/scullmap", out), "ls -l %s printed: %s" % (DEV, out))
    expect_eq(s.text("cat " + MAPPINGS), "0", "cat " + MAPPINGS)


def shared(s):
    """MAP_SHARED: a write through the mapping is read back by read(), and a write() is seen through the mapping; offsets; two mappings of one page; /proc/self/maps"""
    passes(s, "write_map_read_file", "write_file_read_map", "offset", "two_mappings", "maps_line")


shared.points = 3


def fork_shares(s):
    """after fork, parent and child map the same pages: the child's write is the parent's"""
    passes(s, "fork_shares")


def private_copy(s):
    """MAP_PRIVATE, as Linux: the device's page at first, a copy of the process's own once it writes"""
    passes(s, "private_copy")


def refused(s):
    """EINVAL past the device's 4 pages; EACCES for a shared writable mapping of an O_RDONLY file, and for an O_WRONLY one"""
    passes(s, "refused")


def released(s):
    """the mapping outlives close(); munmap and exit give every page back: mappings reads 0, PagesFree is back, rmmod works"""
    start(s)
    before = pages_free(s)
    passes(s, "kept_after_close", "unmapped_faults", "exit_mapped")
    expect_eq(s.text("cat " + MAPPINGS), "0", "cat %s after the programs exited" % MAPPINGS)
    expect_eq(pages_free(s), before, "PagesFree after the programs mapped and exited")
    expect_eq(s.text("rmmod scullmap"), "", "rmmod scullmap once no process maps it")
    expect_eq(s.text("modprobe scullmap"), "", "modprobe scullmap")


released.points = 2


def no_leaks(s):
    """rmmod scullmap and modprobe scullmap, 10 times: memory, pages and kobjects back"""
    start(s)
    before, pages = s.snapshot(), pages_free(s)
    for _ in range(10):
        expect_eq(s.text("rmmod scullmap"), "", "rmmod scullmap")
        expect_eq(s.text("modprobe scullmap"), "", "modprobe scullmap")
    expect_same(before, s.snapshot())
    expect_eq(pages_free(s), pages, "PagesFree after 10 cycles")


CHECKS = [node, shared, fork_shares, private_copy, refused, released, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 22: mmap of a device (scullmap)", CHECKS))
