#!/usr/bin/env python3
"""Lab 4 checker: kled, a class of your own with release and hotplug (docs/labs/lab4-own-class.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="4" -->.
FILES = ["drivers/misc/kled.c"]
ADDS = [r"kled( +\d+ +\d+)?"]

LED0 = "/sys/class/kled/led0"
INVALID = "echo: write error: Invalid argument"


def event_block(s, action, devpath):
    """The variables of the last `action` event for devpath in udevadm monitor --journal -p."""
    out = s.run("udevadm monitor --journal -p")
    blocks = [b for b in out.split("\n\n")
              if re.search(r"^KERNEL\[[^]]*\] %s +%s " % (action, re.escape(devpath)), b, re.M)]
    expect(blocks, "udevadm monitor --journal -p has no %s event for %s" % (action, devpath))
    return blocks[-1].split("\n")[1:]


def kled_objects(s):
    return [l for l in s.lines("kobjects") if re.search(r"\bled\d|kled", l)]


def class_exists(s):
    """the kled class is registered: /sys/class/kled holds led0 and led1"""
    s.fresh()
    expect_eq(s.ls("/sys/class/kled"), ["led0", "led1"], "ls /sys/class/kled")


def brightness_file(s):
    """each LED has brightness (-rw-r--r--) that reads 0 after boot"""
    s.fresh()
    lines = s.lines("ls -l " + LED0)
    expect("-rw-r--r-- brightness" in lines, "ls -l %s printed:\n%s" % (LED0, "\n".join(lines)))
    expect_eq(s.text("cat %s/brightness" % LED0), "0", "cat brightness")


def brightness_store(s):
    """echo 128 > brightness stores it; 256, -1 and abc fail with Invalid argument"""
    s.fresh()
    expect_eq(s.text("echo 128 > %s/brightness" % LED0), "", "echo 128 > brightness")
    expect_eq(s.text("cat %s/brightness" % LED0), "128", "cat brightness")
    for bad in ["256", "-1", "abc"]:
        expect_eq(s.text("echo %s > %s/brightness" % (bad, LED0)), INVALID, "echo %s > brightness" % bad)
    expect_eq(s.text("cat %s/brightness" % LED0), "128", "brightness after the refused writes")
    expect_eq(s.text("cat /sys/class/kled/led1/brightness"), "0", "led1's brightness")


def add_event_vars(s):
    """add events carry LED_NAME and LED_BRIGHTNESS (udevadm monitor --journal -p, udevadm info)"""
    s.fresh()
    for i in (0, 1):
        env = event_block(s, "add", "/class/kled/led%d" % i)
        for key in ["SUBSYSTEM=kled", "LED_NAME=led%d" % i, "LED_BRIGHTNESS=0"]:
            expect(key in env, "add event of led%d lacks %s:\n%s" % (i, key, "\n".join(env)))
    info = [l for l in s.lines("udevadm info %s" % LED0) if l.startswith("E: LED_")]
    expect_eq(info, ["E: LED_NAME=led0", "E: LED_BRIGHTNESS=0"], "udevadm info")


def change_event(s):
    """a new brightness sends a change event with the new LED_BRIGHTNESS"""
    s.fresh()
    s.run("echo 42 > %s/brightness" % LED0)
    env = event_block(s, "change", "/class/kled/led0")
    expect("LED_BRIGHTNESS=42" in env, "change event:\n" + "\n".join(env))


def refcount_balanced(s):
    """writing brightness leaves led0's reference count at 1 (kobjects)"""
    s.fresh()
    for v in (1, 2, 3):
        s.run("echo %d > %s/brightness" % (v, LED0))
    s.run("cat %s/brightness" % LED0)
    rows = [l for l in kled_objects(s) if l.endswith("/class/kled/led0")]
    expect(rows and rows[0].split()[0] == "1",
           "kobjects shows for led0: %s (the count should be 1)" % rows)


refcount_balanced.points = 4


def release_runs(s):
    """rmmod kled releases every LED and the class; their memory comes back"""
    s.fresh()
    s.run("rmmod kled")
    s.run("modprobe kled")
    before = s.mem()
    s.run("echo 7 > %s/brightness" % LED0)
    s.run("trace on")
    out = s.run("rmmod kled")
    s.run("trace off")
    released = re.findall(r"trace: kobject_release (\S+)", out)
    for name in ["led0", "led1", "kled"]:
        expect(name in released, "rmmod kled released only %s (not %s)" % (released, name))
    expect(not kled_objects(s), "kobjects still lists:\n" + "\n".join(kled_objects(s)))
    expect(s.ls("/sys/class/kled") == [] and "kled" not in s.ls("/sys/class"), "/sys/class/kled is still there")
    s.run("modprobe kled")
    s.run("rmmod kled")
    after = s.mem()
    s.run("modprobe kled")
    expect(after[0] <= before[0] - 32, "bytes in use after rmmod (%d) are not below those with kled "
           "loaded (%d): the LEDs were not freed" % (after[0], before[0]))


release_runs.points = 2


def no_leaks(s):
    """modprobe/rmmod cycles (nr=2, nr=5) leave memory and kobjects as they were"""
    s.fresh()
    s.run("rmmod kled")
    s.run("modprobe kled")
    before = s.snapshot()
    for _ in range(3):
        s.run("echo 9 > %s/brightness" % LED0)
        s.run("rmmod kled")
        s.run("modprobe kled nr=5")
        s.run("echo 9 > /sys/class/kled/led4/brightness")
        s.run("rmmod kled")
        s.run("modprobe kled")
    after = s.snapshot()
    expect_same(before, after)


def open_file_holds(s):
    """an open brightness pins kled (rmmod refuses); an open uevent (kled_class has no owner) keeps led0 alive after rmmod; release runs at close"""
    s.fresh()
    expect_eq(s.text("open %s/brightness" % LED0), "fd 3", "open brightness")
    expect_eq(s.text("rmmod kled"), "rmmod: ERROR: Module kled is in use", "rmmod kled with brightness open")
    s.run("close 3")
    expect_eq(s.text("open %s/uevent" % LED0), "fd 3", "open uevent")
    s.run("rmmod kled")
    # a class device's uevent is write-only (2.6.15-2.6.25): the fd is for writing
    expect_eq(s.text("write 3 add"), "write: %s/uevent: No such device" % LED0,
              "write 3 after rmmod")
    s.run("trace on")
    out = s.run("close 3")
    s.run("trace off")
    expect("kobject_release led0" in out, "close 3 printed:\n" + out)
    expect(not kled_objects(s), "kobjects still lists:\n" + "\n".join(kled_objects(s)))


open_file_holds.points = 2


def bad_parameter(s):
    """modprobe kled nr=9 fails with Invalid argument and leaves nothing behind"""
    s.fresh()
    s.run("rmmod kled")
    before = s.snapshot()
    out = s.text("modprobe kled nr=9")
    expect(out.endswith("could not insert 'kled': Invalid argument"), "modprobe kled nr=9 printed: " + out)
    expect_same(before, s.snapshot())


CHECKS = [class_exists, brightness_file, brightness_store, add_event_vars, change_event,
          refcount_balanced, release_runs, no_leaks, open_file_holds, bad_parameter]

if __name__ == "__main__":
    sys.exit(run("Lab 4: a class of your own (kled), its release and hotplug", CHECKS))
