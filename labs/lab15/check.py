#!/usr/bin/env python3
"""Lab 15 checker: keys counted in the keyboard's interrupt, read by a work item (docs/labs/lab15-keyboard-interrupt.md)."""
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="15" -->.
FILES = ["drivers/input/kbdcount.c"]
ADDS = [r"kbdcount( +\d+ +\d+)?",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/platform/kbdcount( kbdcount)?"]

DEV = "/sys/devices/platform/kbdcount"
COUNT = DEV + "/count"
PRINTED = re.compile(r"kbdcount: (\d+) keys$", re.M)


def machine(s):
    """The kernel the checks share, booted with QEMU's monitor (to type keys): once, and
    again after a failed check. Each check leaves kbdcount loaded."""
    if s.k is None or not s.k.monitor_path:
        s.boot(monitor=True)
    return s


def type_keys(s, n, key="a"):
    """n key presses (and their releases) on the PS/2 keyboard, as QEMU's sendkey types
    them; the keys go to tty0's shell line, which the checks leave alone."""
    for _ in range(n):
        s.k.monitor("sendkey %s 10" % key)  # held 10 ms (s.monitor would ask for a fresh boot next)
    keys_settled(s)  # the last release (count waits for the work itself: wait_count)


def irq1(s):
    """The keyboard's interrupts so far: IRQ 1's counts in /proc/interrupts, over the CPUs."""
    for line in s.lines("cat /proc/interrupts"):
        f = line.split()
        if f and f[0] == "1:":
            return sum(int(x) for x in f[1:] if x.isdigit())
    return 0


def keys_settled(s):
    """Waits until the keys typed have all arrived: IRQ 1 still for 0.2 s (at most 3 s).
    QEMU queues typed keys and hands them over as the guest reads them, later on a
    loaded machine."""
    last = irq1(s)
    for _ in range(15):
        time.sleep(0.2)
        now = irq1(s)
        if now == last:
            return
        last = now


def count(s):
    out = s.text("cat " + COUNT)
    expect(out.isdigit(), "cat %s printed %r" % (COUNT, out))
    return int(out)


def wait_count(s, want):
    """count, once it reads want or a second has passed (the work runs soon, not at once)."""
    for _ in range(10):
        got = count(s)
        if got == want:
            break
        time.sleep(0.1)
    return got


def loaded(s):
    """kbdcount is loaded at boot and its count reads 0"""
    machine(s)
    expect("kbdcount" in s.text("lsmod"), "lsmod does not list kbdcount")
    expect("count" in s.ls(DEV), "ls %s shows: %s" % (DEV, " ".join(s.ls(DEV)) or "nothing (no device?)"))
    expect_eq(count(s), 0, "cat %s after boot" % COUNT)


def counts_presses(s):
    """5 keys typed: count reads 5 (a press counts, its release does not)"""
    machine(s)
    before = count(s)
    type_keys(s, 5)
    got = wait_count(s, before + 5)
    expect(got == before + 5, "count read %d before 5 keys were typed and %d after them%s" % (
        before, got, " (the releases counted too?)" if got == before + 10 else ""))


counts_presses.points = 3


def from_work(s):
    """the work item logs `kbdcount: N keys` (KERN_DEBUG) with the count it read, and count shows its last N"""
    machine(s)
    type_keys(s, 3)
    got = count(s)
    printed = [int(n) for n in PRINTED.findall(s.run("dmesg").replace("\r", ""))]
    expect(printed, "dmesg has no line `kbdcount: N keys` (does the work item run and print?)")
    expect_eq(printed[-1], got, "the last `kbdcount: N keys` against cat count")
    expect(printed == sorted(printed), "the printed counts go down: %s" % printed[-10:])


from_work.points = 2


def keeps_up(s):
    """30 keys typed fast: none lost (the work runs once for several presses)"""
    machine(s)
    before = count(s)
    type_keys(s, 30, "b")
    wait_count(s, before + 30)
    time.sleep(0.3)  # the work may still be on its way past 30 (releases counted too?)
    expect_eq(count(s) - before, 30, "the presses counted of 30 typed fast")


LOCKDEP = re.compile(r"inconsistent lock state|possible recursive locking|possible circular locking|"
                     r"bad unlock balance")


def report(log, m):
    """The lockdep report that m found in log: its first lines, from the rule above its title."""
    lines = log.split("\n")
    at = log[:m.start()].count("\n")
    return "\n".join(lines[max(at - 1, 0):at + 9])


def irq_safe(s):
    """keys counted with the work item running: lockdep reports nothing (the work takes the lock with interrupts off)"""
    machine(s)
    before = count(s)
    type_keys(s, 2)
    expect(wait_count(s, before + 2) > before, "count stayed %d after 2 keys: nothing counted, nothing to check"
           % before)
    log = s.run("dmesg").replace("\r", "")
    m = LOCKDEP.search(log)
    expect(not m, "lockdep reported the lock (a lock the interrupt handler takes, taken elsewhere with "
           "interrupts on: spin_lock_irqsave in the work item?):\n%s" % (report(log, m) if m else ""))


irq_safe.points = 2


def counting(s, what):
    """Types a key and expects count to go up: the checks after rmmod and modprobe mean
    something only if the filter counts."""
    before = count(s)
    type_keys(s, 1)
    got = wait_count(s, before + 1)
    expect(got > before, "count stayed %d after a key %s: no filter installed?" % (before, what))


def rmmod_frees(s):
    """rmmod kbdcount: the device goes, keys typed after it count nowhere, and modprobe installs the filter again"""
    machine(s)
    counting(s, "before the rmmod")
    out = s.text("rmmod kbdcount")
    expect(out == "", "rmmod kbdcount printed:\n" + out)
    expect("kbdcount" not in s.ls("/sys/devices/platform"), "%s is still there after rmmod" % DEV)
    type_keys(s, 3)
    expect_eq(s.text("echo alive"), "alive", "the shell after keys typed with kbdcount unloaded")
    out = s.text("modprobe kbdcount")
    expect(out == "", "modprobe kbdcount printed:\n%s\n(Device or resource busy: the filter of the last "
           "load is still installed: i8042_remove_filter in the exit?)" % out)
    expect_eq(count(s), 0, "cat %s after rmmod, 3 keys and modprobe" % COUNT)
    counting(s, "after the modprobe")


rmmod_frees.points = 2


def starts_at_zero(s):
    """loaded again, it counts from 0"""
    machine(s)
    s.run("rmmod kbdcount")
    s.run("modprobe kbdcount")
    expect_eq(count(s), 0, "cat %s after rmmod and modprobe" % COUNT)
    type_keys(s, 2)
    expect_eq(wait_count(s, 2), 2, "cat %s after 2 keys" % COUNT)


def no_leaks(s):
    """10 rmmod/modprobe cycles with keys typed and counted: memory in use and kobjects as before"""
    machine(s)
    s.run("rmmod kbdcount")
    before = s.snapshot()
    for i in range(10):
        s.run("modprobe kbdcount")
        counting(s, "in load %d of 10" % (i + 1))
        s.run("rmmod kbdcount")
    expect_same(before, s.snapshot())
    s.run("modprobe kbdcount")


CHECKS = [loaded, counts_presses, from_work, keeps_up, irq_safe, rmmod_frees, starts_at_zero, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 15: count keys in the keyboard's interrupt", CHECKS))
