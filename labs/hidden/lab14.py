"""Lab 14's hidden checks (the teacher's copy only, as labs/solutions/): a driver
without .owner in its file_operations, or one that raises or counts an interrupt
more than once per operation, fails them."""
import re

from labcheck import expect, expect_eq

DEV = "/dev/edu"


def start(s):
    import importlib.util
    import os
    import sys
    check = sys.modules.get("__main__")
    if not hasattr(check, "ready"):  # loaded by a grader: the checker's module by path
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lab14", "check.py")
        spec = importlib.util.spec_from_file_location("lab14_check", path)
        check = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(check)
    return check.ready(s), check


def open_node_pins_the_module(s):
    """rmmod edu is refused while the shell holds /dev/edu open, and works after close"""
    s, check = start(s)
    m = re.match(r"fd (\d+)", s.text("open " + DEV))
    expect(m, "open %s did not print fd N" % DEV)
    expect_eq(s.text("rmmod edu"), "rmmod: ERROR: Module edu is in use", "rmmod edu with /dev/edu open")
    s.run("close " + m.group(1))
    expect_eq(s.text("rmmod edu"), "", "rmmod edu after close")
    out = s.text("modprobe edu")
    expect(out == "" or re.fullmatch(r"\[ *[\d.]+\] edu \S+: version 1\.0", out), "modprobe edu printed: %s" % out)


def one_interrupt_per_operation(s):
    """10 factorials raise exactly 10 interrupts on edu's line, each read back right"""
    s, check = start(s)
    before = check.irq_count(s)
    for n in range(3, 13):
        expect_eq(s.text("echo %d > %s; cat %s" % (n, DEV, DEV)), str(__import__("math").factorial(n)),
                  "echo %d > %s; cat %s" % (n, DEV, DEV))
    expect_eq(check.irq_count(s) - before, 10, "interrupts on edu's line for 10 factorials")


CHECKS = [open_node_pins_the_module, one_interrupt_per_operation]
