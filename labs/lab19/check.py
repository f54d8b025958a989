#!/usr/bin/env python3
"""Lab 19 checker: kring, a producer thread and blocking readers on a bounded buffer
(docs/labs/lab19-producer-consumer.md)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="19" -->.
FILES = ["drivers/misc/kring.c"]
ADDS = [r"kring( +\d+ +\d+)?", r" +\d+ root +\d+:\d\d \[kring\]", r"crw------- +10, 240 kring",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/misc/kring",
        r"(KERNEL|UDEV) *\[[\d.]+\] (add|remove) +/devices/virtual/misc/kring \(misc\)"]

DIR = "/sys/class/misc/kring/"
SMP = ["-smp", "2"]  # the producer and a reader on two CPUs at once
INVALID = "echo: write error: Invalid argument"
# How long a read that should find or get an item may take (the producer wakes at once).
READ_SECONDS = 3


def timed(s, command, seconds, why):
    """What command printed, or a failure saying why if it did not return in time (the
    kernel is then booted again for the next check: that console waits for ever)."""
    s.dirty = True
    try:
        return s.k.run(command, timeout=seconds)
    except AssertionError as e:
        if str(e).startswith("timed out"):
            raise AssertionError("%s did not return within %g s: %s" % (command, seconds, why))
        raise


def start(s):
    """The kernel as booted (the checks share it), kring loaded, the ring empty, fd 3 on /dev/kring."""
    if s.k is None:
        s.fresh(qemu_args=SMP)
    s.run("close 3")
    s.run("echo 0 > %spause_ms" % DIR)
    if "kring" not in s.ls("/sys/class/misc"):
        s.run("modprobe kring")
    while count(s):
        s.run("open /dev/kring")
        drain = timed(s, "read 3", READ_SECONDS, "there was an item in the ring")
        expect(re.fullmatch(r"\d+\n", drain), "read 3 on a ring with items: %r" % drain)
        s.run("close 3")
    expect_eq(s.text("open /dev/kring"), "fd 3", "open /dev/kring")


def count(s):
    out = s.text("cat %scount" % DIR)
    expect(re.fullmatch(r"\d+", out), "cat %scount: %r" % (DIR, out))
    return int(out)


def settle(s, want, seconds=2.0):
    """The ring's count once it is `want`, or what it is after `seconds`."""
    deadline = time.time() + seconds
    n = count(s)
    while n != want and time.time() < deadline:
        time.sleep(0.05)
        n = count(s)
    return n


def read_item(s, why="an item was there or on its way: is the reader woken (wake_up) when one is put?"):
    out = timed(s, "read 3", READ_SECONDS, why)
    expect(re.fullmatch(r"\d+\n", out), "read 3 printed %r (one item, a number and a newline, wanted)" % out)
    return int(out)


def produce(s, n):
    out = s.text("echo %s > %sproduce" % (n, DIR))
    expect_eq(out, "", "echo %s > %sproduce" % (n, DIR))


def files(s):
    """/dev/kring is 10:240; /sys/class/misc/kring/ has count, produce and pause_ms; ps lists [kring]"""
    s.fresh(qemu_args=SMP)
    expect_eq(s.text("ls -l /dev/kring"), "crw-------     10, 240 /dev/kring", "ls -l /dev/kring")
    got = s.lines("ls -l " + DIR)
    for want in ["-r--r--r-- count", "--w------- produce", "-rw-r--r-- pause_ms"]:
        expect(want in got, "ls -l %s has no line %r:\n%s" % (DIR, want, "\n".join(got)))
    expect_eq(len([l for l in s.lines("ps") if l.endswith("[kring]")]), 1, "the [kring] lines of ps")


def items_in_order(s):
    """echo 3 > produce: the producer puts 1, 2, 3 (count 3); three reads take them in order"""
    start(s)
    produce(s, 3)
    n = settle(s, 3)
    expect_eq(n, 3, "cat %scount after echo 3 > produce (does the producer wake and put them?)" % DIR)
    first = read_item(s)
    expect_eq([first, read_item(s), read_item(s)], [first, first + 1, first + 2], "three reads")
    expect_eq(count(s), 0, "cat %scount after three reads" % DIR)


items_in_order.points = 2


def bounded(s):
    """echo 10 > produce fills the 4 slots and waits; each read makes room and the producer puts the next"""
    start(s)
    produce(s, 10)
    settle(s, 4)
    time.sleep(0.3)
    expect_eq(count(s), 4, "cat %scount 0.3 s after echo 10 > produce (4 slots: the producer must wait "
              "while the ring is full)" % DIR)
    got = [read_item(s, "the producer had items to put: is it woken (wake_up) when a read makes room?")
           for _ in range(10)]
    expect_eq(got, list(range(got[0], got[0] + 10)), "ten reads")
    expect_eq(settle(s, 0), 0, "cat %scount after the ten reads" % DIR)


bounded.points = 2


def reader_waits(s):
    """with pause_ms 300, a read on the empty ring waits for the producer's next item and gets it"""
    start(s)
    expect_eq(s.text("echo 300 > %spause_ms" % DIR), "", "echo 300 > %spause_ms" % DIR)
    produce(s, 1)
    t0 = time.time()
    item = read_item(s)
    took = time.time() - t0
    expect(took >= 0.15, "the read returned after %.2f s, before the producer's pause of 0.3 s was over" % took)
    expect(item > 0, "read 3: %d" % item)
    s.run("echo 0 > %spause_ms" % DIR)


reader_waits.points = 2


def ctrl_c(s):
    """a read on the empty ring waits; Ctrl-C ends it with EINTR, and the next item is still read"""
    start(s)
    s.dirty = True
    s.k.send("read 3\r")
    try:
        s.k.expect(r"kobold:(/[^\r\n#]*)# ", timeout=0.7)
        returned = s.k.output()
    except AssertionError:
        returned = None
    expect(returned is None, "read 3 on the empty ring returned at once:\n%s(it must wait for an item)"
           % (returned or ""))
    s.k.send("\x03")
    try:
        s.k.expect(r"kobold:(/[^\r\n#]*)# ", timeout=2)
    except AssertionError as e:
        if str(e).startswith("timed out"):
            raise AssertionError("Ctrl-C did not end the waiting read within 2 s: a reader must sleep with "
                                 "wait_event_interruptible and return -ERESTARTSYS")
        raise
    out = s.k.output()
    expect("read: /dev/kring: Interrupted system call" in out, "after Ctrl-C, read 3 printed:\n%s" % out)
    produce(s, 1)
    read_item(s)
    expect_eq(count(s), 0, "cat %scount after the item was read" % DIR)


ctrl_c.points = 2


def rmmod_stops(s):
    """with the producer waiting on a full ring, rmmod kring returns and the thread and /dev/kring are gone"""
    start(s)
    s.run("close 3")
    produce(s, 10)
    settle(s, 4)
    timed(s, "rmmod kring", 5, "kthread_stop() waits until the producer returns: does its wait end "
          "when kthread_should_stop() is true?")
    expect_eq([l for l in s.lines("ps") if l.endswith("[kring]")], [], "the [kring] lines of ps after rmmod")
    expect("cannot access" in s.text("ls /dev/kring"), "/dev/kring is still there after rmmod kring")
    expect_eq(s.text("modprobe kring"), "", "modprobe kring")
    expect_eq(count(s), 0, "cat %scount after rmmod and modprobe" % DIR)


def bad_input(s):
    """produce refuses 0, -1, abc and 1001; pause_ms refuses 1001 and x; nothing is produced"""
    start(s)
    for path, bad in [("produce", "0"), ("produce", "-1"), ("produce", "abc"), ("produce", "1001"),
                      ("pause_ms", "1001"), ("pause_ms", "x")]:
        command = "echo %s > %s%s" % (bad, DIR, path)
        expect_eq(s.text(command), INVALID, command)
    time.sleep(0.2)
    expect_eq(count(s), 0, "cat %scount after the refused writes" % DIR)
    expect_eq(s.text("cat %spause_ms" % DIR), "0", "cat %spause_ms after the refused writes" % DIR)


def no_leaks(s):
    """3 rounds of produce, read and rmmod/modprobe: memory and kobjects back"""
    start(s)
    s.run("close 3")
    before = s.snapshot()
    for _ in range(3):
        produce(s, 2)
        settle(s, 2)
        s.run("open /dev/kring")
        read_item(s)
        read_item(s)
        s.run("close 3")
        timed(s, "rmmod kring", 5, "the producer does not stop")
        s.run("modprobe kring")
    expect_same(before, s.snapshot())


CHECKS = [files, items_in_order, bounded, reader_waits, ctrl_c, rmmod_stops, bad_input, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 19: a producer and a consumer", CHECKS))
