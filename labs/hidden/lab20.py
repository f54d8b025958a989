"""Lab 20's hidden checks (the teacher's copy only, as labs/solutions/): a driver
without .owner, or whose write ignores *pos, fails them."""
import re

from labcheck import expect, expect_eq


def start(s):
    if s.k is None:
        s.fresh()


def open_node_pins_the_module(s):
    """rmmod scull is refused while the shell holds /dev/scull open, and works after close"""
    start(s)
    m = re.match(r"fd (\d+)", s.text("open /dev/scull"))
    expect(m, "open /dev/scull did not print fd N")
    expect_eq(s.text("rmmod scull"), "rmmod: ERROR: Module scull is in use", "rmmod scull with the node open")
    s.run("close " + m.group(1))
    expect_eq(s.text("rmmod scull"), "", "rmmod scull after close")
    expect_eq(s.text("modprobe scull"), "", "modprobe scull")


def writes_follow_the_offset(s):
    """two writes through one open file land one after the other"""
    start(s)
    s.run("echo > /dev/scull")
    m = re.match(r"fd (\d+)", s.text("open /dev/scull"))
    expect(m, "open /dev/scull did not print fd N")
    s.run("write %s abc" % m.group(1))
    s.run("write %s def" % m.group(1))
    s.run("close " + m.group(1))
    got = s.text("cat /dev/scull")
    expect(got.replace("\n", "").startswith("abc") and "def" in got and got.index("def") > got.index("abc"),
           "cat /dev/scull after writing abc then def through one fd: %r" % got)


CHECKS = [open_node_pins_the_module, writes_follow_the_offset]
