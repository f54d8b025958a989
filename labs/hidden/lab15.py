"""Lab 15's hidden checks: keys typed while count is read, and rmmod in a burst of keys."""
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lab15"))
from check import COUNT, count, machine, wait_count  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq  # noqa: E402


def trouble(s):
    return [l for l in s.lines("dmesg") if "BUG" in l or "WARNING" in l or "Oops" in l]


def typed_while_read(s):
    """20 keys, each typed between two reads of count: it never goes down, ends 20 up, no BUG"""
    machine(s)
    before, seen = count(s), []
    for _ in range(20):
        s.k.monitor("sendkey c 10")
        seen.append(count(s))
    time.sleep(0.05)
    expect(seen == sorted(seen), "count went down while keys were typed: %s" % seen)
    expect_eq(wait_count(s, before + 20) - before, 20, "the presses counted of 20")
    expect(not trouble(s), "dmesg:\n" + "\n".join(trouble(s)[:10]))


def keyboard_quiet(s, limit=3.0):
    """Waits until the keyboard's interrupts stop (every key of a burst delivered: a press
    still on its way when kbdcount loads again would count there)."""
    end, last = time.time() + limit, None
    while time.time() < end:
        now = [l for l in s.lines("cat /proc/interrupts") if l.split()[-1:] == ["i8042"]]
        if now == last:
            return
        last = now
        time.sleep(0.2)


def rmmod_in_a_burst(s):
    """rmmod kbdcount at once after 10 keys: no BUG, and it loads again at 0"""
    machine(s)
    for _ in range(10):
        s.k.monitor("sendkey d 10")
    s.run("rmmod kbdcount")
    time.sleep(0.1)
    expect_eq(s.text("echo alive"), "alive", "the shell after rmmod in a burst of keys")
    expect(not trouble(s), "dmesg:\n" + "\n".join(trouble(s)[:10]))
    keyboard_quiet(s)
    s.run("modprobe kbdcount")
    expect_eq(s.text("cat " + COUNT), "0", "cat %s loaded again" % COUNT)


CHECKS = [typed_while_read, rmmod_in_a_burst]
