#!/usr/bin/env python3
"""Lab 16 checker: kticker, a kernel thread that rmmod stops (docs/labs/lab16-kthread.md)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="16" -->.
FILES = ["drivers/misc/kticker.c"]
ADDS = [r"kticker( +\d+ +\d+)?", r" +\d+ root +\d+:\d\d \[kticker\]"]

TICKS = "/sys/class/kticker/ticks"
SMP = ["-smp", "2"]  # the thread runs on one CPU while rmmod runs on the other
# How long a command that stops the thread may take: a tick is 50 ms.
STOP_SECONDS = 5


def within(s, command, seconds, why):
    """What command printed, or a failure naming the command if it did not return in time
    (the kernel is then rebooted for the next check: that console is stuck)."""
    s.dirty = True
    try:
        return s.k.run(command, timeout=seconds)
    except AssertionError as e:
        if str(e).startswith("timed out"):
            lines = str(e).rstrip().split("\n")[-6:]
            raise AssertionError("%s did not return within %d s: %s\nthe last lines the kernel printed:\n%s"
                                 % (command, seconds, why, "\n".join(lines)))
        raise


def threads(s):
    """The [kticker] lines of ps."""
    return [l for l in s.lines("ps") if l.endswith("[kticker]")]


def ticks(s):
    out = s.text("cat " + TICKS)
    expect(re.fullmatch(r"\d+", out), "cat %s: %r (a number wanted)" % (TICKS, out))
    return int(out)


def rate(s, seconds=0.5):
    """Ticks counted over about `seconds`, and the seconds it really took."""
    t0, n0 = time.time(), ticks(s)
    time.sleep(seconds)
    n1, t1 = ticks(s), time.time()
    return n1 - n0, t1 - t0


def stop(s):
    """rmmod kticker, which must come back: kthread_stop waits for the thread."""
    return within(s, "rmmod kticker", STOP_SECONDS, "kthread_stop() waits until the thread's function "
                  "returns: does its loop end when kthread_should_stop() is true?")


def running(s):
    """kticker is loaded with /sys/class/kticker/ticks, and ps lists one thread [kticker]"""
    s.fresh(qemu_args=SMP)
    expect("kticker" in s.ls("/sys/class"), "ls /sys/class: %s (no kticker: is the class registered?)"
           % s.ls("/sys/class"))
    expect_eq(s.lines("ls -l /sys/class/kticker"), ["-r--r--r-- ticks"], "ls -l /sys/class/kticker")
    expect_eq(len(threads(s)), 1, "the [kticker] lines of ps (the thread must run until kthread_should_stop() is true)")


def ticking(s):
    """ticks grows by about 20 a second (interval_ms=50): the thread runs, and sleeps between ticks"""
    s.fresh(qemu_args=SMP)
    n, took = rate(s)
    expect(n >= 3, "%s grew by %d in %.1f s: the thread does not tick" % (TICKS, n, took))
    expect(n <= 60 * took + 10, "%s grew by %d in %.1f s: the thread does not sleep between ticks "
           "(msleep(interval_ms))" % (TICKS, n, took))


ticking.points = 2


def rmmod_stops(s):
    """rmmod kticker returns at once; the thread and /sys/class/kticker are gone"""
    s.fresh(qemu_args=SMP)
    out = stop(s)
    expect(not re.search(r"BUG|WARNING|Oops", out), "rmmod kticker printed:\n%s" % out)
    expect_eq(threads(s), [], "the [kticker] lines of ps after rmmod kticker (still running: kthread_stop?)")
    expect("kticker" not in s.ls("/sys/class"), "/sys/class/kticker is still there after rmmod kticker")
    time.sleep(0.2)
    expect_eq(threads(s), [], "the [kticker] lines of ps 0.2 s after rmmod kticker")


rmmod_stops.points = 3


def modprobe_restarts(s):
    """modprobe kticker starts one new thread whose count starts again from 0"""
    if s.k is None:
        s.fresh(qemu_args=SMP)
    if "kticker" in s.ls("/sys/class"):
        stop(s)
    expect_eq(s.text("modprobe kticker"), "", "modprobe kticker")
    first = ticks(s)
    expect(first < 10, "%s right after modprobe kticker: %d (the count starts again from 0)" % (TICKS, first))
    expect_eq(len(threads(s)), 1, "the [kticker] lines of ps after modprobe kticker")
    n, took = rate(s, 0.3)
    expect(n >= 2, "%s grew by %d in %.1f s after modprobe kticker" % (TICKS, n, took))


def bad_interval(s):
    """modprobe kticker interval_ms=0, =5000 and =-1 are refused with EINVAL, leaving no class and no thread"""
    if s.k is None:
        s.fresh(qemu_args=SMP)
    if "kticker" in s.ls("/sys/class"):
        stop(s)
    for bad in ("0", "5000", "-1"):
        command = "modprobe kticker interval_ms=" + bad
        expect_eq(s.text(command), "modprobe: ERROR: could not insert 'kticker': Invalid argument", command)
        expect("kticker" not in s.ls("/sys/class"), "/sys/class/kticker after %s" % command)
        expect_eq(threads(s), [], "the [kticker] lines of ps after %s" % command)
    expect_eq(s.text("modprobe kticker interval_ms=20"), "", "modprobe kticker interval_ms=20")
    n, took = rate(s, 0.3)
    expect(n >= 5, "%s grew by %d in %.1f s with interval_ms=20" % (TICKS, n, took))


def no_leaks(s):
    """10 rounds of rmmod and modprobe: memory and kobjects back, one [kticker] at the end"""
    if s.k is None:
        s.fresh(qemu_args=SMP)
    before = s.snapshot()
    for _ in range(10):
        stop(s)
        s.run("modprobe kticker")
    expect_same(before, s.snapshot())
    expect_eq(len(threads(s)), 1, "the [kticker] lines of ps after 10 rounds")


no_leaks.points = 2


CHECKS = [running, ticking, rmmod_stops, modprobe_restarts, bad_interval, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 16: a kernel thread", CHECKS))
