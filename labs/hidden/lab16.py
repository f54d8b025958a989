"""Lab 16's hidden checks (the teacher's copy only, as labs/solutions/): a module
whose exit runs while its file is open, or that stops its thread too early, fails them."""
import time

from labcheck import expect, expect_eq

TICKS = "/sys/class/kticker/ticks"


def rmmod(s):
    """rmmod kticker's output; a thread that never stops makes it time out in 5 s."""
    s.dirty = True
    return s.k.run("rmmod kticker", timeout=5).strip()


def open_file_pins(s):
    """with ticks open, rmmod kticker is refused and the thread ticks on; after close it stops"""
    if s.k is None:
        s.fresh(qemu_args=["-smp", "2"])
    if "kticker" not in s.ls("/sys/class"):
        s.run("modprobe kticker")
    fd = s.text("open " + TICKS).split()[-1]
    expect_eq(s.text("rmmod kticker"), "rmmod: ERROR: Module kticker is in use", "rmmod kticker with %s open" % TICKS)
    a = int(s.text("cat " + TICKS))
    time.sleep(0.3)  # six ticks at interval_ms=50
    b = int(s.text("cat " + TICKS))
    expect(b > a, "%s did not grow after the refused rmmod (%d, then %d)" % (TICKS, a, b))
    s.run("close " + fd)
    out = rmmod(s)
    expect("ERROR" not in out, "rmmod kticker after close: %s" % out)
    expect(not any(l.endswith("[kticker]") for l in s.lines("ps")), "[kticker] is in ps after rmmod")
    s.run("modprobe kticker")


def quick_cycles(s):
    """20 rounds of modprobe and rmmod at once, the thread stopped before it has ticked much"""
    if s.k is None:
        s.fresh(qemu_args=["-smp", "2"])
    for i in range(20):
        rmmod(s)
        s.run("modprobe kticker")
    expect_eq(len([l for l in s.lines("ps") if l.endswith("[kticker]")]), 1, "the [kticker] lines of ps")


CHECKS = [open_file_pins, quick_cycles]
