#!/usr/bin/env python3
"""Lab 5 checker: kpipe's error unwinding under failslab (docs/labs/lab5-error-unwinding.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import at_step, expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="5" -->.
FILES = ["drivers/misc/kpipe.c"]
ADDS = [r"kpipe( +\d+ +\d+)?"]

LOAD = "modprobe kpipe nr=3"
TROUBLE = re.compile(r"^.*\b(BUG|WARNING)\b.*$", re.M)


def walk(s):
    """Fails allocation 1, 2, 3, ... of `modprobe kpipe nr=3`, one at a time, until the
    load makes fewer allocations than N; after each step (and an rmmod if the module
    loaded anyway) the kernel's figures are compared with those from before. Done once,
    and kept for the checks below: a list of steps, and how the walk ended."""
    if getattr(s, "walk_result", None) is None:
        steps, end = [], ""
        try:
            s.fresh()
            s.run("rmmod kpipe")
            before = s.snapshot()
            for n in range(1, 400):
                out = s.run("failslab %d %s" % (n, LOAD))
                loaded = "could not insert" not in out
                if loaded:
                    out += s.run("rmmod kpipe")
                steps.append({"n": n, "out": out, "refused": not loaded,
                              "same": s.snapshot() == before, "before": before})
                if "nothing failed" in out:
                    break
            else:
                end = "the walk did not end: modprobe kpipe makes more than 400 allocations"
        except AssertionError as e:  # a panic or a lost prompt
            end = at_step(e, "failslab %d %s" % (len(steps) + 1, LOAD))
        s.walk_result = (steps, end)
    return s.walk_result


def expect_walk_ended(s, first=False):
    steps, end = walk(s)
    expect(not end, end if first else "the walk stopped at `failslab %d %s` (see above)" % (
        len(steps) + 1, LOAD))
    expect(len(steps) > 5, "the walk took only %d steps: is kpipe loaded at all?" % len(steps))
    return steps


def loads(s):
    """kpipe loads with nr=3: /sys/class/kpipe holds pipe0 pipe1 pipe2, and data keeps a line"""
    s.fresh()
    s.run("rmmod kpipe")
    out = s.text(LOAD)
    expect("could not insert" not in out, "%s printed: %s" % (LOAD, out))
    expect_eq(s.ls("/sys/class/kpipe"), ["pipe0", "pipe1", "pipe2"], "ls /sys/class/kpipe")
    s.run("echo hello > /sys/class/kpipe/pipe1/data")
    expect_eq(s.text("cat /sys/class/kpipe/pipe1/data"), "hello", "cat pipe1/data")


def unloads_clean(s):
    """rmmod kpipe and modprobe kpipe again, three times, leave nothing behind"""
    s.fresh()
    s.run("rmmod kpipe")
    s.run(LOAD)
    expect(s.ls("/sys/class/kpipe"), "after %s, /sys/class/kpipe is empty or missing: kpipe did not load" % LOAD)
    before = s.snapshot()
    for _ in range(3):
        s.run("rmmod kpipe")
        s.run(LOAD)
    expect_same(before, s.snapshot())


def walk_survives(s):
    """failslab over every allocation of modprobe kpipe nr=3: the kernel keeps running"""
    expect_walk_ended(s, first=True)


walk_survives.points = 2


def no_bug(s):
    """no step prints BUG or WARNING (a double free, a use after free, a class left with devices)"""
    for step in expect_walk_ended(s):
        m = TROUBLE.search(step["out"])
        expect(not m, "at `failslab %d %s`:\n%s" % (step["n"], LOAD, step["out"].strip()))  # labcheck trims it


no_bug.points = 2


def no_leak(s):
    """after each step, memory in use and the kobjects are as before it"""
    for step in expect_walk_ended(s):
        if not step["same"]:
            s.fresh()
            s.run("rmmod kpipe")
            before = s.snapshot()
            out = s.run("failslab %d %s" % (step["n"], LOAD))
            if "could not insert" not in out:
                out += s.run("rmmod kpipe")
            try:
                expect_same(before, s.snapshot())
            except AssertionError as e:
                raise AssertionError("after `failslab %d %s`:\n%s\n%s" % (
                    step["n"], LOAD, "\n".join(out.strip().split("\n")[-6:]), e))
            expect(False, "after `failslab %d %s` the figures differ" % (step["n"], LOAD))


no_leak.points = 3


def refused_cleanly(s):
    """each modprobe that failed said `Cannot allocate memory`, and the next one works"""
    steps = expect_walk_ended(s)
    refused = [st for st in steps if st["refused"]]
    expect(refused, "no allocation failure made modprobe fail")
    for st in refused:
        expect("Cannot allocate memory" in st["out"], "at `failslab %d %s`:\n%s" % (
            st["n"], LOAD, st["out"].strip()))
    s.fresh()
    s.run("rmmod kpipe")
    for st in refused[:3] + refused[-3:]:
        s.run("failslab %d %s" % (st["n"], LOAD))
        out = s.text(LOAD)
        expect("could not insert" not in out, "after `failslab %d %s`, %s printed: %s" % (
            st["n"], LOAD, LOAD, out))
        s.run("rmmod kpipe")


CHECKS = [loads, unloads_clean, walk_survives, no_bug, no_leak, refused_cleanly]

if __name__ == "__main__":
    sys.exit(run("Lab 5: error unwinding under failslab (kpipe)", CHECKS))
