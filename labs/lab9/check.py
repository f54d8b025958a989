#!/usr/bin/env python3
"""Lab 9 checker: kfan's suspend and resume, in the PM core's order (docs/labs/lab9-power-management.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="9" -->.
FILES = ["drivers/misc/kfan.c"]
ADDS = [r"kfan(-fan\.\d)?( +\d+ +\d+)?",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/platform/kfan(/kfan-fan\.\d)? kfan(-fan)?",
        r"\[ *\d+\.\d+\] trace: kfan_chip (power o(n|ff)|fan\d \d+ rpm)"]

APPEND = "suspend.pm_test_delay=0"
CTL = "/sys/devices/platform/kfan"
SPEEDS = {0: 1200, 1: 3000}
BUSY = "echo: write error: Device or resource busy"
STEP = re.compile(r"trace: (?:device_(suspend|resume) /devices/platform/(?:kfan/)?(kfan(?:-fan\.\d)?)\b"
                  r"|kfan_chip ([^\r\n]*))")


def fan(i):
    """The fan by the bus's link: found wherever it is in the tree."""
    return "/sys/bus/platform/devices/kfan-fan.%d" % i


def speeds(s):
    return [s.text("cat %s/speed" % fan(i)) for i in SPEEDS]


def suspend(s):
    """echo mem > /sys/power/state under pm_test "devices", traced: (what echo said, the
    steps: ("suspend"|"resume", device) and ("chip", what the chip was told))."""
    s.run("echo devices > /sys/power/pm_test")
    s.run("trace on")
    out = s.run("echo mem > /sys/power/state")
    s.run("trace off")
    steps = [(m.group(1), m.group(2)) if m.group(1) else ("chip", m.group(3).strip())
             for m in STEP.finditer(out)]
    errors = [l for l in out.split("\n") if l.startswith("echo:")]
    return errors, steps


def pm_run(s):
    """The suspend of the kernel as booted, the fans at 1200 and 3000 rpm: done once, kept."""
    if getattr(s, "pm_result", None) is None:
        s.fresh(APPEND)
        for i, rpm in SPEEDS.items():
            s.run("echo %d > %s/speed" % (rpm, fan(i)))
        errors, steps = suspend(s)
        s.pm_result = (errors, steps, speeds(s))
    return s.pm_result


def show(steps):
    return "\n  ".join("%s %s" % st for st in steps) or "(nothing)"


def halves(s):
    errors, steps, _ = pm_run(s)
    expect(not errors, "echo mem > /sys/power/state printed:\n%s\nthe steps were:\n  %s"
           % ("\n".join(errors), show(steps)))
    cut = next((i for i, st in enumerate(steps) if st[0] == "resume"), len(steps))
    return steps[:cut], steps[cut:]


def fans_below_controller(s):
    """the fans kfan-fan.0 and kfan-fan.1 are below the controller, /sys/devices/platform/kfan"""
    s.fresh(APPEND)
    names = s.ls(CTL)
    expect("kfan-fan.0" in names and "kfan-fan.1" in names, "ls %s: %s (a fan's parent is the "
           "controller it is attached to)" % (CTL, " ".join(names)))
    for i in SPEEDS:
        path = "%s/kfan-fan.%d" % (CTL, i)
        expect_eq(s.text("readlink %s/driver" % path), "../../../../bus/platform/drivers/kfan-fan",
                  "readlink %s/driver" % path)


def speeds_kept(s):
    """each fan's speed keeps what is written (0-10000 rpm); 10001 and words are refused"""
    s.fresh(APPEND)
    for i, rpm in SPEEDS.items():
        expect_eq(s.text("echo %d > %s/speed" % (rpm, fan(i))), "", "echo %d > %s/speed" % (rpm, fan(i)))
    expect_eq(speeds(s), [str(v) for v in SPEEDS.values()], "the fans' speeds")
    for bad in ["10001", "fast", "-1"]:
        out = s.text("echo %s > %s/speed" % (bad, fan(0)))
        expect(out.endswith("Invalid argument"), "echo %s > %s/speed printed %r" % (bad, fan(0), out))
    expect_eq(speeds(s), [str(v) for v in SPEEDS.values()], "the speeds after the refused writes")


def fans_stop_first(s):
    """in the suspend, each fan's suspend stops it (0 rpm), all before the controller's suspend"""
    down, _ = halves(s)
    where = {st: i for i, st in enumerate(down)}
    ctl = where.get(("suspend", "kfan"), len(down))
    for i in SPEEDS:
        me = where.get(("suspend", "kfan-fan.%d" % i))
        expect(me is not None and me < ctl, "kfan-fan.%d was not suspended before the "
               "controller:\n  %s" % (i, show(down)))
        expect(me + 1 < len(down) and down[me + 1] == ("chip", "fan%d 0 rpm" % i),
               "kfan-fan.%d's suspend did not stop it (chip: fan%d 0 rpm):\n  %s" % (i, i, show(down)))
    fans_stop_first.down = down


fans_stop_first.points = 2


def chip_power(s):
    """the controller's suspend powers the chip off, last; its resume powers it on, first"""
    down, up = halves(s)
    expect_eq(down[-2:], [("suspend", "kfan"), ("chip", "power off")], "the end of the suspend "
              "(the steps:\n  %s\n)" % show(down))
    expect_eq(up[:2], [("resume", "kfan"), ("chip", "power on")], "the start of the resume "
              "(the steps:\n  %s\n)" % show(up))


chip_power.points = 2


def speeds_restored(s):
    """each fan's resume sets its speed again, after the chip is on; the speeds read as before"""
    _, up = halves(s)
    where = {st: i for i, st in enumerate(up)}
    for i, rpm in SPEEDS.items():
        me = where.get(("resume", "kfan-fan.%d" % i))
        expect(me is not None and me + 1 < len(up) and up[me + 1] == ("chip", "fan%d %d rpm" % (i, rpm)),
               "kfan-fan.%d's resume did not set it to %d rpm (chip: fan%d %d rpm):\n  %s"
               % (i, rpm, i, rpm, show(up)))
    expect_eq(pm_run(s)[2], [str(v) for v in SPEEDS.values()], "the speeds after the suspend")


speeds_restored.points = 2


def failed_suspend_undone(s):
    """with stuck=0, fan0's suspend fails (Device or resource busy); fan1 resumes; the speeds are kept"""
    s.fresh(APPEND)
    s.run("rmmod kfan")
    out = s.text("modprobe kfan stuck=0")
    expect(not out, "modprobe kfan stuck=0 printed: %s" % out)
    for i, rpm in SPEEDS.items():
        s.run("echo %d > %s/speed" % (rpm, fan(i)))
    errors, steps = suspend(s)
    expect_eq(errors, [BUSY], "echo mem > /sys/power/state with a fan that will not stop "
              "(the steps:\n  %s\n)" % show(steps))
    expect(("suspend", "kfan") not in steps, "the controller was suspended after a fan's "
           "suspend failed:\n  %s" % show(steps))
    expect(("resume", "kfan-fan.1") in steps and ("chip", "fan1 %d rpm" % SPEEDS[1]) in steps,
           "kfan-fan.1 was suspended, so the PM core resumes it, and its resume sets it to %d rpm "
           "again:\n  %s" % (SPEEDS[1], show(steps)))
    expect_eq(speeds(s), [str(v) for v in SPEEDS.values()], "the speeds after the failed suspend")
    s.run("rmmod kfan")
    s.run("modprobe kfan stuck=-1")
    errors, steps = suspend(s)
    expect(not errors, "after modprobe kfan stuck=-1, echo mem > /sys/power/state printed: %s" % errors)


failed_suspend_undone.points = 3


def no_leaks(s):
    """10 suspends and 10 rmmod/modprobe cycles leave memory and kobjects as they were"""
    s.fresh(APPEND)
    drivers = s.ls("/sys/bus/platform/drivers")
    expect("kfan" in drivers and "kfan-fan" in drivers, "ls /sys/bus/platform/drivers: %s "
           "(is kfan loaded?)" % " ".join(drivers))
    s.run("echo devices > /sys/power/pm_test")
    before = s.snapshot()
    for i in range(10):
        out = s.text("echo mem > /sys/power/state")
        expect("error" not in out, "echo mem > /sys/power/state (cycle %d) printed: %s" % (i + 1, out))
        s.run("rmmod kfan")
        s.run("modprobe kfan")
    expect_same(before, s.snapshot())


CHECKS = [fans_below_controller, speeds_kept, fans_stop_first, chip_power, speeds_restored,
          failed_suspend_undone, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 9: power management, kfan", CHECKS))
