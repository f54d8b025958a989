#!/usr/bin/env python3
"""Lab 8 checker: pcspkr, a platform driver for the PC speaker (docs/labs/lab8-platform-driver.md)."""
import itertools
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import at_step, expect, expect_eq, expect_same, run  # noqa: E402
import kobold  # noqa: E402  (labcheck puts tests/ on the path)

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="8" -->.
FILES = ["drivers/input/pcspkr.c"]
ADDS = [r"pcspkr( +\d+ +\d+)?", r"input1", r"event1",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/platform/pcspkr pcspkr",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/platform/pcspkr/input(/input1(/event1)?)?"]

DEV = "/sys/devices/platform/pcspkr"
DRV = "/sys/bus/platform/drivers/pcspkr"
BIND = "echo pcspkr > %s/bind" % DRV
UNBIND = "echo pcspkr > %s/unbind" % DRV
UNBOUND = ["subsystem", "uevent"]  # what the device has with no driver
PIT_TICK_RATE = 1193182
BIND_FAILED = re.compile(r"^(?:echo: write error|kobold: %s/bind): (.*)$" % DRV, re.M)
TROUBLE = re.compile(r"^.*\b(BUG|WARNING)\b.*$", re.M)
SOCKETS = itertools.count()


def machine(s):
    """The kernel the checks share, booted with QEMU's monitor (to read the speaker's
    ports): once, and again only after a failed check. Each check leaves the driver
    bound and the speaker silent."""
    if s.k is None or not s.k.monitor_path:
        s.close()
        sock = os.path.join(tempfile.gettempdir(), "kobold-lab8-%d-%d.sock" % (os.getpid(), next(SOCKETS)))
        s.k = kobold.boot("", monitor=sock)
        s.append, s.dirty = "", False
    return s


def port(s, addr):
    """A byte read from an I/O port by QEMU's monitor, as the hardware has it."""
    out = s.k.monitor("i /b 0x%x" % addr)
    m = re.search(r"\[0x%04x\] = 0x([0-9a-f]{2})" % addr, out)
    expect(m, "QEMU's monitor did not answer `i /b 0x%x`: %r" % (addr, out[-200:]))
    return int(m.group(1), 16)


def pit2(s):
    """PIT channel 2's status (read-back) and its current count (latched)."""
    s.k.monitor("o /b 0x43 0xe8")  # read-back: channel 2's status only
    status = port(s, 0x42)
    s.k.monitor("o /b 0x43 0x80")  # latch channel 2's count
    count = port(s, 0x42) | port(s, 0x42) << 8
    return status, count


def sounding(s):
    """Whether the speaker sounds: port 0x61's bits 0 (channel 2's gate) and 1 (speaker data)."""
    return port(s, 0x61) & 3 == 3


def input_dir(s):
    names = s.ls(DEV + "/input")
    expect(len(names) == 1 and re.fullmatch(r"input\d+", names[0]),
           "ls %s/input printed %s: no input device below pcspkr" % (DEV, names))
    return "%s/input/%s" % (DEV, names[0])


def expect_unbound(s, what):
    expect_eq(s.ls(DEV), UNBOUND, "ls %s %s (left in sysfs)" % (DEV, what))
    expect(not sounding(s), "the speaker still sounds %s" % what)


def bound(s):
    """the pcspkr driver is bound to the pcspkr device: driver links both ways, bind and unbind"""
    machine(s)
    out = s.text("readlink %s/driver" % DEV)
    expect_eq(out, "../../../bus/platform/drivers/pcspkr", "readlink %s/driver" % DEV)
    expect_eq(s.ls(DRV), ["bind", "pcspkr", "unbind"], "ls " + DRV)
    expect_eq(s.text("readlink %s/pcspkr" % DRV), "../../../../devices/platform/pcspkr",
              "readlink %s/pcspkr" % DRV)


bound.points = 2


def input_device(s):
    """probe registers the input device PC Speaker below it: name, phys, id/"""
    machine(s)
    d = input_dir(s)
    expect_eq(s.text("cat %s/name" % d), "PC Speaker", "cat %s/name" % d)
    expect_eq(s.text("cat %s/phys" % d), "isa0061/input0", "cat %s/phys" % d)
    got = [s.text("cat %s/id/%s" % (d, f)) for f in ("bustype", "vendor", "product", "version")]
    expect_eq(got, ["0010", "001f", "0001", "0100"], "cat %s/id/{bustype,vendor,product,version}" % d)
    expect(d.rsplit("/", 1)[1] in s.ls("/sys/class/input"), "/sys/class/input has no %s" % d)


def tone_sounds(s):
    """echo 440 > tone sounds the speaker (port 0x61, PIT channel 2 in mode 3); echo 0 silences it"""
    machine(s)
    expect_eq(s.text("cat %s/tone" % DEV), "0", "cat %s/tone after boot" % DEV)
    for hz in (440, 10000):
        expect_eq(s.text("echo %d > %s/tone" % (hz, DEV)), "", "echo %d > %s/tone" % (hz, DEV))
        expect_eq(s.text("cat %s/tone" % DEV), str(hz), "cat %s/tone" % DEV)
        expect(sounding(s), "after echo %d > tone, port 0x61 reads 0x%02x: bits 0 and 1 "
                            "(gate and speaker) should be set" % (hz, port(s, 0x61)))
        status, count = pit2(s)
        expect(status & 0x3f == 0x36, "PIT channel 2's status is 0x%02x: not mode 3 with a "
                                      "low and a high byte (0xb6 to port 0x43)" % status)
        expect(0 < count <= PIT_TICK_RATE // hz, "PIT channel 2 counts from %d, not from "
               "%d (1193182 / %d Hz)" % (count, PIT_TICK_RATE // hz, hz))
    expect_eq(s.text("echo 0 > %s/tone" % DEV), "", "echo 0 > %s/tone" % DEV)
    expect(not sounding(s), "after echo 0 > tone, port 0x61 reads 0x%02x" % port(s, 0x61))
    expect_eq(s.text("cat %s/tone" % DEV), "0", "cat %s/tone after echo 0" % DEV)


tone_sounds.points = 2


def tone_refused(s):
    """tones out of 21-32766 Hz and words are refused with Invalid argument, the tone unchanged"""
    machine(s)
    s.run("echo 440 > %s/tone" % DEV)
    for bad in ["20", "32767", "-1", "abc", "440x", ""]:
        out = s.text("echo %s > %s/tone" % (bad, DEV))
        expect(out.endswith("Invalid argument"), "echo %s > %s/tone printed %r" % (bad, DEV, out))
    expect_eq(s.text("cat %s/tone" % DEV), "440", "cat %s/tone after the refused writes" % DEV)
    expect(sounding(s), "the refused writes silenced the speaker")
    s.run("echo 0 > %s/tone" % DEV)


def unbind_bind(s):
    """unbind removes tone and the input device and silences the speaker; bind brings them back"""
    machine(s)
    s.run("echo 440 > %s/tone" % DEV)
    expect_eq(s.text(UNBIND), "", UNBIND)
    expect_unbound(s, "after unbind")
    inputs = [n for n in s.ls("/sys/class/input") if n.startswith("input")]
    expect_eq(inputs, ["input0"], "the input devices in /sys/class/input after unbind")
    expect_eq(s.text(UNBIND), "echo: write error: No such device", UNBIND + " again")
    out = s.text(BIND)
    expect(not out or out.startswith("[") and "input: PC Speaker" in out, "%s printed %r" % (BIND, out))
    input_dir(s)
    expect_eq(s.text("cat %s/tone" % DEV), "0", "cat %s/tone after bind" % DEV)
    expect_eq(s.text(BIND), "echo: write error: Device or resource busy", BIND + " again")


def no_leaks(s):
    """10 unbind/bind cycles, with a tone each time, leave memory and kobjects as they were"""
    machine(s)
    input_dir(s)
    before = s.snapshot()
    for i in range(10):
        s.run("echo %d > %s/tone" % (100 + i, DEV))
        s.run(UNBIND)
        out = s.text(BIND)
        expect("error" not in out, "%s (cycle %d) printed: %s" % (BIND, i + 1, out))
    input_dir(s)
    expect_same(before, s.snapshot())


no_leaks.points = 2


def failslab(s, n):
    """`failslab N bind`'s output; a panic or a lost prompt says at which N."""
    try:
        return s.run("failslab %d %s" % (n, BIND))
    except AssertionError as e:
        raise type(e)(at_step(e, "failslab %d %s" % (n, BIND))) from None


def failed_probe_unwinds(s):
    """failslab over every allocation of bind: each failed probe leaves nothing (sysfs, memory, kobjects)"""
    machine(s)
    s.run(UNBIND)
    before = s.snapshot()
    for n in range(1, 300):
        out = failslab(s, n)
        m = TROUBLE.search(out)
        expect(not m, "at `failslab %d %s`:\n%s" % (n, BIND, out.strip()))
        failed = BIND_FAILED.search(out)
        if failed:  # nothing may be left of the probe
            expect(failed.group(1) == "Cannot allocate memory", "at `failslab %d %s` the bind "
                   "failed and printed:\n%s" % (n, BIND, out.strip()))
            expect_eq(s.ls(DEV), UNBOUND, "ls %s after `failslab %d %s` (left in sysfs)" % (DEV, n, BIND))
        else:
            s.run(UNBIND)
        try:
            if s.mem() != before[0]:  # the kobjects only then: listing them takes a while
                expect_same(before, s.snapshot())
        except AssertionError as e:
            raise AssertionError("after `failslab %d %s`:\n%s\n%s" % (
                n, BIND, "\n".join(out.strip().split("\n")[-6:]), e))
        if "nothing failed" in out:
            break
    else:
        expect(False, "bind made more than 300 allocations")
    expect(n > 5, "the walk took only %d steps: does bind probe at all?" % n)
    expect_same(before, s.snapshot())
    s.run(BIND)
    input_dir(s)


failed_probe_unwinds.points = 2


def follows_module(s):
    """rmmod pcspkr unbinds (silent, no driver directory), modprobe binds again; no leak"""
    machine(s)
    before = s.snapshot()
    s.run("echo 440 > %s/tone" % DEV)
    expect_eq(s.text("rmmod pcspkr"), "", "rmmod pcspkr")
    expect_unbound(s, "after rmmod pcspkr")
    expect("pcspkr" not in s.ls("/sys/bus/platform/drivers"), "%s is still there after rmmod" % DRV)
    out = s.text("modprobe pcspkr")
    expect("input: PC Speaker as /devices/platform/pcspkr/input/input" in out and "error" not in out,
           "modprobe pcspkr printed: %s" % out)
    input_dir(s)
    expect_same(before, s.snapshot())


CHECKS = [bound, input_device, tone_sounds, tone_refused, unbind_bind, no_leaks,
          failed_probe_unwinds, follows_module]
TITLE = "Lab 8: a platform driver, pcspkr"

if __name__ == "__main__":
    sys.exit(run(TITLE, CHECKS))
