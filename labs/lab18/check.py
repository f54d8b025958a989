#!/usr/bin/env python3
"""Lab 18 checker: kswitch, an ABBA between dev->sem and the class's sem that the lock
validator reports, fixed by the lock order (docs/labs/lab18-deadlock.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="18" -->.
FILES = ["drivers/misc/kswitch.c"]
ADDS = [r"kswitch( +\d+ +\d+)?",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/kswitch/port\d"]

CLS = "/sys/class/kswitch"
PORTS = ["port0", "port1", "port2", "port3"]
EXISTS = "echo: write error: File exists"
INVALID = "echo: write error: Invalid argument"
REPORT = re.compile(r"^(?:\[[ 0-9.]*\] )?WARNING: possible (?:circular|recursive) locking", re.M)


def quiet(out):
    """What a write printed, less the kernel's messages (lock_order judges those)."""
    return "\n".join(l for l in out.split("\n") if not re.match(r"\[[ 0-9.]*\]", l)).strip()


def label(s, port, text=None):
    """Writes a label (what the echo printed), or reads it."""
    if text is None:
        return s.text("cat %s/%s/label" % (CLS, port))
    return quiet(s.run('echo "%s" > %s/%s/label' % (text, CLS, port)))


def reset(s, what="1"):
    return quiet(s.run("echo %s > %s/reset" % (what, CLS)))


def debug_locks(s):
    m = re.search(r"debug_locks:\s+(\d)", s.run("cat /proc/lockdep_stats"))
    expect(m, "cat /proc/lockdep_stats has no debug_locks line")
    return m.group(1) == "1"


def start(s):
    """The booted kernel (the checks share it), with every label cleared."""
    if s.k is None:
        s.fresh()
    for port in PORTS:
        if label(s, port):
            label(s, port, "")


def ports(s):
    """/sys/class/kswitch has port0 to port3 and reset; each port a label file, empty; lockdep is on"""
    s.fresh()
    expect(debug_locks(s), "lockdep was off before anything was written (cat /proc/lockdep_stats):\n%s"
           % s.run("dmesg"))
    got = s.lines("ls -l " + CLS)
    want = ["lrwxrwxrwx %s -> ../../devices/virtual/kswitch/%s" % (p, p) for p in PORTS] + ["--w------- reset"]
    expect_eq(got, want, "ls -l " + CLS)
    for port in PORTS:
        expect("-rw-r--r-- label" in s.lines("ls -l %s/%s/" % (CLS, port)), "%s/%s has no label file, mode "
               "-rw-r--r--" % (CLS, port))
        expect_eq(label(s, port), "", "cat %s/%s/label" % (CLS, port))


def labels(s):
    """a label is kept per port, 15 characters at most, and no two ports have the same one"""
    start(s)
    expect_eq(label(s, "port0", "uplink"), "", 'echo "uplink" > port0/label')
    expect_eq(label(s, "port0"), "uplink", "cat port0/label")
    expect_eq(label(s, "port1", "uplink"), EXISTS, 'echo "uplink" > port1/label (port0 has it)')
    expect_eq(label(s, "port1"), "", "cat port1/label after the refused write")
    expect_eq(label(s, "port1", "x" * 15), "", "a label of 15 characters")
    expect_eq(label(s, "port2", "y" * 16), INVALID, "a label of 16 characters")
    expect_eq(label(s, "port0", "uplink"), "", "port0 writes its own label again")
    expect_eq([label(s, p) for p in PORTS], ["uplink", "x" * 15, "", ""], "the four labels")


labels.points = 2


def resets(s):
    """echo 1 > reset clears every label; anything else is refused and clears nothing"""
    start(s)
    label(s, "port0", "a")
    label(s, "port3", "b")
    for bad in ("2", "yes", "0"):
        expect_eq(reset(s, bad), INVALID, "echo %s > reset" % bad)
    expect_eq([label(s, p) for p in PORTS], ["a", "", "", "b"], "the labels after the refused resets")
    out = reset(s)
    expect_eq([label(s, p) for p in PORTS], ["", "", "", ""], "the labels after echo 1 > reset (it printed %r)"
              % out)
    expect_eq(label(s, "port1", "a"), "", "port0's old label on port1 after the reset")


def lock_order(s):
    """label, reset, label, reset: the lock validator finds no inversion, and lockdep stays on"""
    start(s)
    label(s, "port0", "a")
    out = reset(s) + "\n" + label(s, "port1", "b") + "\n" + reset(s)
    log = s.run("dmesg")
    m = REPORT.search(log)
    if m:
        report = [l for l in log[m.start():].split("\n") if re.sub(r"^\[[ 0-9.]*\]", "", l).strip()]
        end = next((i for i, l in enumerate(report) if "other info that might help" in l), 16)
        raise AssertionError("the lock validator reports:\n%s" % "\n".join(report[:end]))
    expect(debug_locks(s), "lockdep is off (debug_locks: 0) after label and reset:\n%s" % out)


lock_order.points = 4


def no_leaks(s):
    """10 rounds of labels, reset, rmmod and modprobe: memory and kobjects back"""
    start(s)
    before = s.snapshot()
    for i in range(10):
        label(s, "port%d" % (i % 4), "l%d" % i)
        reset(s)
        s.run("rmmod kswitch")
        s.run("modprobe kswitch")
    expect_same(before, s.snapshot())
    expect_eq([label(s, p) for p in PORTS], ["", "", "", ""], "the labels after modprobe")


CHECKS = [ports, labels, resets, lock_order, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 18: a deadlock, found before it happens", CHECKS))
