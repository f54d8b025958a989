#!/usr/bin/env python3
"""Lab 17 checker: kreg, two threads on a shared list, raced by injected preemption and
fixed with a spinlock (docs/labs/lab17-race.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="17" -->.
FILES = ["drivers/misc/kreg.c"]
ADDS = [r"kreg( +\d+ +\d+)?"]

CLS = "/sys/class/kreg"
# A switch at a pseudo-random half of the spin_unlocks, always the same half: on one
# CPU the two threads interleave the same way on every run (docs/smp.md).
INJECT = "preempt_inject=spin_unlock,every=2,seed=1"
ONE_CPU = ["-smp", "1"]
INVALID = "echo: write error: Invalid argument"


def boot(s):
    """The injected boot on one CPU that most checks share."""
    if s.k is None or s.append != INJECT:
        s.fresh(append=INJECT, qemu_args=ONE_CPU)


def number(s, name):
    out = s.text("cat %s/%s" % (CLS, name))
    expect(re.fullmatch(r"\d+", out), "cat %s/%s: %r (a number wanted)" % (CLS, name, out))
    return int(out)


def registers(s, keys, where):
    """echo KEYS > run, then the registry must hold each key once."""
    out = s.text("echo %d > %s/run" % (keys, CLS))
    expect_eq(out, "", "echo %d > %s/run" % (keys, CLS))
    entries, dups = number(s, "entries"), number(s, "duplicates")
    expect(entries == keys and dups == 0,
           "echo %d > run %s: %d entries, %d of them a key registered twice (%d wanted, each once): "
           "both threads looked a key up, neither found it, and both inserted it"
           % (keys, where, entries, dups, keys))


def files(s):
    """/sys/class/kreg has run, entries and duplicates; the boot injects preemption at spin_unlock"""
    boot(s)
    expect_eq(s.lines("ls -l " + CLS), ["-r--r--r-- duplicates", "-r--r--r-- entries", "--w------- run"],
              "ls -l " + CLS)
    expect(re.search(r"preempt_inject: spin_unlock\S*, one pass in 2 on average, seed 1", s.run("dmesg")),
           "dmesg does not show the injection (%s)" % INJECT)


def one_run(s):
    """with the injection, echo 100 > run leaves 100 entries, no key twice"""
    boot(s)
    registers(s, 100, "(" + INJECT + ")")
    stats = s.lines("preempt_inject")
    switches = [l.split() for l in stats if l.startswith("spin_unlock")]
    expect(switches and int(switches[0][2]) > 100, "preempt_inject forced few switches:\n%s" % "\n".join(stats))


one_run.points = 4


def many_runs(s):
    """runs of 1, 7, 500 and 2000 keys, each key once every time"""
    boot(s)
    for keys in (1, 7, 500, 2000):
        registers(s, keys, "(" + INJECT + ")")


many_runs.points = 2


def bad_input(s):
    """run refuses 0, -5, x and 2001, and leaves the registry as it was"""
    boot(s)
    s.run("echo 3 > %s/run" % CLS)
    entries = number(s, "entries")
    for bad in ("0", "-5", "x", "2001"):
        command = "echo %s > %s/run" % (bad, CLS)
        expect_eq(s.text(command), INVALID, command)
        expect_eq(number(s, "entries"), entries, "cat %s/entries after %s" % (CLS, command))


def no_leaks(s):
    """3 runs, rmmod and modprobe: memory and kobjects back (rmmod frees the entries)"""
    boot(s)
    s.run("echo 1 > %s/run" % CLS)
    before = s.snapshot()
    for keys in (500, 50, 1):
        s.run("echo %d > %s/run" % (keys, CLS))
    s.run("rmmod kreg")
    s.run("modprobe kreg")
    s.run("echo 1 > %s/run" % CLS)
    expect_same(before, s.snapshot())


# On two CPUs the threads interleave as the two CPUs' timing has it, not as the injection
# decides: one run of 2000 keys caught the starter in 4 and in 7 boots of 10 (two trees),
# and runs of it differ, so the check repeats it (the starter: caught within 4 runs in 20
# boots of 20). A run takes about 0.1 s.
TWO_CPU_RUNS = 15


def two_cpus(s):
    """the same on two CPUs at once, the injection on: 15 runs of 2000 keys, each key once every time"""
    s.fresh(append=INJECT, qemu_args=["-smp", "2"])
    for i in range(TWO_CPU_RUNS):
        registers(s, 2000, "(run %d of %d on two CPUs, %s)" % (i + 1, TWO_CPU_RUNS, INJECT))


CHECKS = [files, one_run, many_runs, bad_input, no_leaks, two_cpus]

if __name__ == "__main__":
    sys.exit(run("Lab 17: a race on a shared list", CHECKS))
