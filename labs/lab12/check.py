#!/usr/bin/env python3
"""Lab 12 checker: kbus, a bus of your own with devices added through its attributes (docs/labs/lab12-bus.md)."""
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, expect_same, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts
# marked <!-- check: labs="12" -->.
FILES = ["drivers/misc/kbus.c"]
ADDS = [r"kbus( +\d+ +\d+)?",
        r"\[ *\d+\.\d+\] trace: device_(suspend|resume) /devices/kbus(/\S+)?"]

BUS = "/sys/bus/kbus"
EXISTS = "echo: write error: File exists"
INVALID = "echo: write error: Invalid argument"
NODEV = "echo: write error: No such device"


def add(s, name, kind):
    return s.text('echo "%s %s" > %s/add' % (name, kind, BUS))


def delete(s, name):
    return s.text("echo %s > %s/del" % (name, BUS))


def devices(s):
    return s.ls(BUS + "/devices")


def start(s):
    """The booted kernel with kbus loaded and no device on the bus (the checks share one boot)."""
    if s.k is None:
        s.fresh()
    for name in devices(s):
        delete(s, name)
    expect_eq(devices(s), [], "ls %s/devices after deleting every device" % BUS)


def misc_node(s, name):
    """(major, minor) of /dev/NAME, or None."""
    out = s.text("ls -l /dev/" + name)
    m = re.fullmatch(r"c[-rw]{9} +(\d+), +(\d+) /dev/%s" % name, out)
    return m and (m.group(1), m.group(2))


def bus_registered(s):
    """/sys/bus/kbus has add, del, devices and drivers; kbus_misc is its driver; /sys/devices/kbus is there"""
    s.fresh()
    expect("kbus" in s.ls("/sys/bus"), "ls /sys/bus: %s (no kbus: is the bus registered?)" % s.ls("/sys/bus"))
    got = s.lines("ls -l " + BUS)
    for want in ["--w------- add", "--w------- del", "dr-xr-xr-x devices", "dr-xr-xr-x drivers"]:
        expect(want in got, "ls -l %s has no line %r:\n%s" % (BUS, want, "\n".join(got)))
    expect_eq(s.ls(BUS + "/drivers"), ["kbus_misc"], "ls %s/drivers" % BUS)
    expect("kbus" in s.ls("/sys/devices"), "ls /sys/devices: no kbus (the devices' parent)")


def add_binds(s):
    """echo "foo misc" > add: the device under /sys/devices/kbus, type misc, bound to kbus_misc, /dev/foo reads foo"""
    start(s)
    out = add(s, "foo", "misc")
    expect_eq(out, "", 'echo "foo misc" > %s/add' % BUS)
    expect_eq(s.lines("ls -l %s/devices" % BUS), ["lrwxrwxrwx foo -> ../../../devices/kbus/foo"],
              "ls -l %s/devices" % BUS)
    expect_eq(s.text("cat %s/devices/foo/type" % BUS), "misc", "cat %s/devices/foo/type" % BUS)
    expect_eq(s.text("readlink %s/devices/foo/driver" % BUS), "../../../bus/kbus/drivers/kbus_misc",
              "readlink %s/devices/foo/driver (bound by match and probe)" % BUS)
    node = misc_node(s, "foo")
    expect(node and node[0] == "10", "ls -l /dev/foo: %s (not a misc device, major 10)" % s.text("ls -l /dev/foo"))
    expect_eq(s.text("readlink /sys/class/misc/foo"), "../../devices/kbus/foo/misc/foo",
              "readlink /sys/class/misc/foo (the misc device's parent is the kbus device)")
    expect_eq(s.text("cat /dev/foo"), "foo", "cat /dev/foo")
    delete(s, "foo")


add_binds.points = 3


def match_by_type(s):
    """a device of another type ("bar other") is on the bus but bound to no driver, and has no /dev/bar"""
    start(s)
    add(s, "foo", "misc")
    expect_eq(add(s, "bar", "other"), "", 'echo "bar other" > %s/add' % BUS)
    expect_eq(devices(s), ["bar", "foo"], "ls %s/devices" % BUS)
    expect_eq(s.text("cat %s/devices/bar/type" % BUS), "other", "cat %s/devices/bar/type" % BUS)
    expect("driver" not in s.ls(BUS + "/devices/bar"),
           "%s/devices/bar has a driver link: match must compare the types" % BUS)
    bound = [n for n in s.ls(BUS + "/drivers/kbus_misc") if n not in ("bind", "unbind", "module")]
    expect_eq(bound, ["foo"], "the devices in %s/drivers/kbus_misc" % BUS)
    expect(misc_node(s, "bar") is None, "ls -l /dev/bar: %s (no driver should drive it)" % s.text("ls -l /dev/bar"))
    delete(s, "foo")
    delete(s, "bar")


match_by_type.points = 2


def del_removes(s):
    """echo foo > del removes the device, its /dev/foo and its misc device; the other device stays"""
    start(s)
    add(s, "foo", "misc")
    add(s, "bar", "other")
    expect_eq(delete(s, "foo"), "", "echo foo > %s/del" % BUS)
    expect_eq(devices(s), ["bar"], "ls %s/devices after deleting foo" % BUS)
    expect(misc_node(s, "foo") is None, "ls -l /dev/foo after deleting foo: %s" % s.text("ls -l /dev/foo"))
    expect("foo" not in s.ls("/sys/class/misc"), "/sys/class/misc/foo is still there after deleting foo "
                                                 "(the driver's remove must deregister it)")
    expect("foo" not in s.ls("/sys/devices/kbus"), "/sys/devices/kbus/foo is still there after deleting foo")
    expect_eq(delete(s, "bar"), "", "echo bar > %s/del" % BUS)
    expect_eq(devices(s), [], "ls %s/devices after deleting bar" % BUS)


del_removes.points = 2


def events(s):
    """udevadm monitor shows add and remove of each kbus device, and of foo's misc device; the uevent has KBUS_TYPE"""
    start(s)
    add(s, "foo", "misc")
    add(s, "bar", "other")
    uevent = s.lines("cat %s/devices/foo/uevent" % BUS)
    expect("KBUS_TYPE=misc" in uevent, "cat %s/devices/foo/uevent:\n%s\n(no KBUS_TYPE=misc: the bus's "
                                       "hotplug adds it)" % (BUS, "\n".join(uevent)))
    delete(s, "foo")
    delete(s, "bar")
    bus = s.lines("udevadm monitor --journal -s kbus")
    misc = s.lines("udevadm monitor --journal -s misc")
    for what, lines in [("add      /devices/kbus/foo (kbus)", bus), ("add      /devices/kbus/bar (kbus)", bus),
                        ("remove   /devices/kbus/foo (kbus)", bus), ("remove   /devices/kbus/bar (kbus)", bus),
                        ("add      /devices/kbus/foo/misc/foo (misc)", misc),
                        ("remove   /devices/kbus/foo/misc/foo (misc)", misc)]:
        expect(any(l.endswith("] " + what) for l in lines), "udevadm monitor --journal shows no\n  %s\nin:\n%s"
               % (what, "\n".join(lines[-8:])))


def bad_input(s):
    """add refuses a taken name, a missing type, a '/', a 20-character name, a 16-character type; del an unknown
    name; nothing changes"""
    start(s)
    add(s, "foo", "misc")
    tries = [('echo "foo misc" > %s/add' % BUS, EXISTS), ('echo "foo other" > %s/add' % BUS, EXISTS),
             ('echo "alone" > %s/add' % BUS, INVALID), ('echo "a/b misc" > %s/add' % BUS, INVALID),
             ('echo "%s misc" > %s/add' % ("n" * 20, BUS), INVALID), ('echo " misc" > %s/add' % BUS, INVALID),
             ('echo "t %s" > %s/add' % ("m" * 16, BUS), INVALID),
             ("echo nosuch > %s/del" % BUS, NODEV)]
    for command, want in tries:
        expect_eq(s.text(command), want, command)
        expect_eq(devices(s), ["foo"], "ls %s/devices after %s" % (BUS, command))
    expect_eq(s.text("cat /dev/foo"), "foo", "cat /dev/foo after the refused writes")
    delete(s, "foo")


def no_leaks(s):
    """10 rounds of add, cat and del, then rmmod kbus with devices on it and modprobe: memory and kobjects back"""
    start(s)
    before = s.snapshot()
    for _ in range(10):
        add(s, "foo", "misc")
        add(s, "bar", "other")
        s.run("cat /dev/foo")
        delete(s, "foo")
        delete(s, "bar")
    expect_same(before, s.snapshot())
    add(s, "foo", "misc")
    add(s, "bar", "other")
    expect_eq(s.text("cat /dev/foo"), "foo", "cat /dev/foo after 10 rounds")
    expect_eq(devices(s), ["bar", "foo"], "ls %s/devices before rmmod kbus" % BUS)
    out = s.text("rmmod kbus")
    expect_eq(out, "", "rmmod kbus with foo and bar on the bus (after cat /dev/foo)")
    expect("kbus" not in s.ls("/sys/bus"), "/sys/bus/kbus is still there after rmmod kbus")
    expect(misc_node(s, "foo") is None, "/dev/foo is still there after rmmod kbus")
    expect_eq(s.text("modprobe kbus"), "", "modprobe kbus")
    expect_eq(devices(s), [], "ls %s/devices after rmmod and modprobe" % BUS)
    expect_same(before, s.snapshot())


no_leaks.points = 2


CHECKS = [bus_registered, add_binds, match_by_type, del_removes, events, bad_input, no_leaks]

if __name__ == "__main__":
    sys.exit(run("Lab 12: write a bus", CHECKS))
