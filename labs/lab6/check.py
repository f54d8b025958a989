#!/usr/bin/env python3
"""Lab 6 checker: kthermo ported from class_device to struct device (docs/labs/lab6-porting.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402
import kobold  # noqa: E402  (labcheck puts tests/ on the path)

# What a solution may change (scripts/grade-class reports any other file), and the
# lines it adds to the docs' transcripts marked <!-- check: labs="6" -->.
FILES = ["drivers/misc/kthermo.c"]
ADDS = [r"kthermo( +\d+ +\d+)?",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/virtual/kthermo/zone\d"]

CLS = "/sys/class/kthermo"
VIRT = "/sys/devices/virtual/kthermo"
INVALID = "echo: write error: Invalid argument"
OLD_API = ["class_device", "CLASS_DEVICE_ATTR", "class_set_devdata", "class_get_devdata",
           "add_hotplug_env_var", "kobject_hotplug", "class_register", ".hotplug"]
NEW_API = ["DEVICE_ATTR_RW", "DEVICE_ATTR_RO", "ATTRIBUTE_GROUPS", "add_uevent_var"]


def source():
    """drivers/misc/kthermo.c of the tree this kernel was built from, or None."""
    d = os.path.dirname(os.path.abspath(kobold.KERNEL))
    while True:
        path = os.path.join(d, *FILES[0].split("/"))
        if os.path.isfile(path):
            with open(path) as f:
                return f.read()
        if os.path.dirname(d) == d:
            return None
        d = os.path.dirname(d)


def code_only(text):
    """The C without its comments, so that a comment naming the old API is fine."""
    return re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)


def event_block(s, action, devpath):
    """The variables of the last `action` event for devpath in udevadm monitor --journal -p."""
    out = s.run("udevadm monitor --journal -p")
    blocks = [b for b in out.split("\n\n")
              if re.search(r"^KERNEL\[[^]]*\] %s +%s " % (action, re.escape(devpath)), b, re.M)]
    expect(blocks, "udevadm monitor --journal -p has no %s event for %s (events now go by the "
                   "device's own path)" % (action, devpath))
    return blocks[-1].split("\n")[1:]


def kthermo_objects(s):
    return [l for l in s.lines("kobjects") if "kthermo" in l or re.search(r"\bzone\d", l)]


def links_into_devices(s):
    """/sys/class/kthermo/zone0 and zone1 are links to /sys/devices/virtual/kthermo/zoneN"""
    s.fresh()
    lines = s.lines("ls -l " + CLS)
    want = ["lrwxrwxrwx zone%d -> ../../devices/virtual/kthermo/zone%d" % (i, i) for i in (0, 1)]
    expect_eq(lines, want, "ls -l %s (a class device is a directory there; a struct device "
                           "with a class, a link)" % CLS)
    expect_eq(s.ls(VIRT), ["zone0", "zone1"], "ls " + VIRT)
    expect_eq(s.text("readlink %s/zone0/subsystem" % VIRT), "../../../../class/kthermo",
              "readlink %s/zone0/subsystem" % VIRT)


links_into_devices.points = 2


def same_attributes(s):
    """each zone has type and temp (-r--r--r--) and trip (-rw-r--r--), with the old values"""
    s.fresh()
    for i in (0, 1):
        lines = s.lines("ls -l %s/zone%d" % (VIRT, i))
        for want in ["-r--r--r-- type", "-r--r--r-- temp", "-rw-r--r-- trip", "-rw-r--r-- uevent"]:
            expect(want in lines, "ls -l %s/zone%d lacks %r:\n%s" % (VIRT, i, want, "\n".join(lines)))
        expect_eq(s.text("cat %s/zone%d/type" % (CLS, i)), "kthermo", "cat zone%d/type" % i)
        expect_eq(s.text("cat %s/zone%d/temp" % (CLS, i)), str(40000 + 1000 * i), "cat zone%d/temp" % i)
        expect_eq(s.text("cat %s/zone%d/trip" % (CLS, i)), "90000", "cat zone%d/trip" % i)


def trip_store(s):
    """echo 85000 > trip stores it; 150001, -1 and abc fail with Invalid argument"""
    s.fresh()
    expect_eq(s.text("echo 85000 > %s/zone0/trip" % CLS), "", "echo 85000 > zone0/trip")
    expect_eq(s.text("cat %s/zone0/trip" % VIRT), "85000", "cat zone0/trip")
    for bad in ["150001", "-1", "abc"]:
        expect_eq(s.text("echo %s > %s/zone0/trip" % (bad, CLS)), INVALID, "echo %s > trip" % bad)
    expect_eq(s.text("cat %s/zone0/trip" % CLS), "85000", "trip after the refused writes")
    expect_eq(s.text("cat %s/zone1/trip" % CLS), "90000", "zone1's trip")


def same_event_vars(s):
    """add events at the new DEVPATH carry SUBSYSTEM=kthermo, THERMO_ZONE and THERMO_TRIP"""
    s.fresh()
    for i in (0, 1):
        path = "/devices/virtual/kthermo/zone%d" % i
        env = event_block(s, "add", path)
        for key in ["DEVPATH=" + path, "SUBSYSTEM=kthermo", "THERMO_ZONE=zone%d" % i,
                    "THERMO_TRIP=90000"]:
            expect(key in env, "add event of zone%d lacks %s:\n%s" % (i, key, "\n".join(env)))
    expect_eq(s.lines("cat %s/zone0/uevent" % CLS), ["THERMO_ZONE=zone0", "THERMO_TRIP=90000"],
              "cat zone0/uevent")


same_event_vars.points = 2


def change_event(s):
    """a new trip sends a change event with the new THERMO_TRIP"""
    s.fresh()
    s.run("echo 70000 > %s/zone1/trip" % CLS)
    env = event_block(s, "change", "/devices/virtual/kthermo/zone1")
    expect("THERMO_TRIP=70000" in env, "change event:\n" + "\n".join(env))


def old_api_gone(s):
    """drivers/misc/kthermo.c uses DEVICE_ATTR_RO/RW, ATTRIBUTE_GROUPS, add_uevent_var and no class_device API"""
    text = source()
    expect(text is not None, "drivers/misc/kthermo.c is missing: copy labs/lab6/kthermo.c there first")
    code = code_only(text)
    old = [w for w in OLD_API if w in code]
    expect(not old, "drivers/misc/kthermo.c still uses the article's API: %s" % ", ".join(old))
    new = [w for w in NEW_API if w not in code]
    expect(not new, "drivers/misc/kthermo.c does not use %s" % ", ".join(new))


old_api_gone.points = 2


def released_on_rmmod(s):
    """rmmod kthermo removes the class, the zones and /sys/devices/virtual/kthermo"""
    s.fresh()
    expect("kthermo" in s.ls("/sys/class"), "before rmmod, /sys/class has no kthermo: the module did not load")
    s.run("rmmod kthermo")
    expect("kthermo" not in s.ls("/sys/class"), "/sys/class/kthermo is still there")
    expect("kthermo" not in s.ls("/sys/devices/virtual"), VIRT + " is still there")
    expect(not kthermo_objects(s), "kobjects still lists:\n" + "\n".join(kthermo_objects(s)))


def no_leaks_100_cycles(s):
    """100 rmmod/modprobe cycles leave memory and kobjects as they were"""
    s.fresh()
    s.run("rmmod kthermo")
    s.run("modprobe kthermo")
    before = s.snapshot()
    for i in range(100):
        if i % 10 == 0:
            s.run("echo %d > %s/zone0/trip" % (1000 * i, CLS))
        s.run("rmmod kthermo")
        out = s.text("modprobe kthermo")
        expect(out == "", "modprobe kthermo (cycle %d) printed: %s" % (i + 1, out))
    after = s.snapshot()
    expect_same(before, after)


no_leaks_100_cycles.points = 2


def bad_parameter(s):
    """modprobe kthermo nr=9 fails with Invalid argument and leaves nothing behind"""
    s.fresh()
    s.run("rmmod kthermo")
    before = s.snapshot()
    out = s.text("modprobe kthermo nr=9")
    expect(out.endswith("could not insert 'kthermo': Invalid argument"), "modprobe kthermo nr=9 printed: " + out)
    expect_same(before, s.snapshot())


CHECKS = [links_into_devices, same_attributes, trip_store, same_event_vars, change_event,
          old_api_gone, released_on_rmmod, no_leaks_100_cycles, bad_parameter]

if __name__ == "__main__":
    sys.exit(run("Lab 6: porting kthermo from class_device to struct device", CHECKS))
