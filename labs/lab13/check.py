#!/usr/bin/env python3
"""Lab 13 checker: /sbin/hotplug, a shell script that keeps /dev for the kernel's
events (docs/labs/lab13-hotplug-script.md)."""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from labcheck import expect, expect_eq, run  # noqa: E402

# What a solution may change, and the lines it adds to the docs' transcripts: none.
FILES = ["scripts/rootfs/sbin/hotplug"]
ADDS = []
# Built with the kernel when a grader builds a tree for this lab (its checks then find it
# made: a grader's tree is read-only to its checker).
BUILD = ["build/rootfs.cpio"]

TREE = os.getcwd()  # the tree being checked (the checker may be another tree's)
SCRIPT = os.environ.get("LAB13_HOTPLUG") or os.path.join(TREE, FILES[0])
WAIT = float(os.environ.get("LAB13_WAIT", "30"))  # seconds for a state to be reached
_tmp = tempfile.mkdtemp(prefix="lab13-")
atexit.register(shutil.rmtree, _tmp, True)
# /dev as user space owns it: a tmpfs with the console's nodes, udev off.
SETUP = ("sh -c 'mount -t tmpfs none /dev && mknod -m 600 /dev/console c 5 1 && "
         "mknod -m 600 /dev/ttyS0 c 4 64 && mknod -m 666 /dev/null c 1 3'")


def initrd():
    """build/rootfs.cpio (make rootfs) and a cpio with the script as /sbin/hotplug."""
    p = subprocess.run(["make", "-s", "rootfs"], cwd=TREE, capture_output=True, text=True)
    expect(p.returncode == 0, "make rootfs failed:\n" + (p.stdout + p.stderr)[-2000:])
    out = os.path.join(_tmp, "hotplug.cpio")
    entry = "file /sbin/hotplug %s 0755 0 0" % SCRIPT
    with open(out, "wb") as f:
        subprocess.run([sys.executable, os.path.join(TREE, "scripts", "gen_init_cpio.py"), "-"],
                       input=entry.encode(), stdout=f, check=True)
    return "%s,%s" % (os.path.join(TREE, "build", "rootfs.cpio"), out)


def start(s):
    """One boot for every check: udev off, /dev a tmpfs, two disks to plug in."""
    if s.k is not None:
        return
    expect(os.path.isfile(SCRIPT), "no %s: write it (the starter is labs/lab13/hotplug)" % FILES[0])
    args = ["-initrd", initrd(), "-nic", "none"]
    for i in range(2):
        img = os.path.join(_tmp, "hot%d.img" % i)
        with open(img, "wb") as f:
            f.truncate(2 << 20)
        args += ["-drive", "file=%s,if=none,id=hp%d,format=raw" % (img, i)]
    s.boot("udev.enabled=0", qemu_args=args, monitor=True)
    out = [l for l in s.lines(SETUP) if not re.match(r"\[ *\d+\.\d+\] ", l)]  # kernel lines aside
    expect_eq(out, [], SETUP)


def nodes(s, paths):
    """{path: 'block MAJ:MIN MODE' (decimal, octal), 'link TARGET', or None} in one stat: the shell's
    own, which runs no program (busybox's, run at every poll, cost the guest as much CPU
    as the helpers being waited for)."""
    got, path, kind = dict.fromkeys(paths), None, None
    for line in s.run("stat " + " ".join(paths)).splitlines():
        m = re.match(r"  File: (\S+)(?: -> (\S+))?$", line)
        if m:
            path, kind = (m.group(1) if m.group(1) in got else None), None
            if path:
                got[path] = "link " + m.group(2) if m.group(2) else None
            continue
        m = re.search(r"IO Block: \d+ +(.+)$", line)
        if m and path and got[path] is None:
            kind = m.group(1).strip()
            got[path] = kind
            continue
        m = re.search(r"Device type: (\d+),(\d+)$", line)
        if m and path and kind == "block special file":
            got[path] = "block %s:%s" % m.groups()
        m = re.match(r"Access: \((\d+)/", line)
        if m and path and got[path] and got[path].startswith("block "):
            got[path] += " " + m.group(1)
    return got


def node(s, path):
    return nodes(s, [path])[path]


def wait(s, what, cond, timeout=None):
    """Polls until cond() (the helpers run beside the shell); its last value."""
    end = time.time() + (timeout or WAIT)
    while True:
        got = cond()
        if got or time.time() > end:
            return got
        time.sleep(0.2)


def settle(s):
    """Waits for the helpers running to end: a remove's helper still running would race the
    next add's for the same name (docs/labs/lab13-hotplug-script.md, question 1)."""
    wait(s, "helpers", lambda: "hotplug" not in s.text("ps"))


def sbd_state(s, nr):
    want = {}
    for i in range(nr):
        want["/dev/sbd%d" % i] = "block 254:%d 0600" % i
        want["/dev/disk/by-version/sbd%d-1.0" % i] = "link ../../sbd%d" % i
    return want


def state_is(s, want, gone=()):
    got = nodes(s, list(want) + list(gone))
    return all(got[p] == want[p] for p in want) and all(got[p] is None for p in gone)


def script_runs(s):
    """/sbin/hotplug is a shell script the kernel can run (#!/bin/sh, executable)"""
    start(s)
    expect_eq(s.text("cat /proc/sys/kernel/hotplug"), "/sbin/hotplug", "cat /proc/sys/kernel/hotplug")
    first = s.text("head -n 1 /sbin/hotplug")
    expect_eq(first, "#!/bin/sh", "the first line of /sbin/hotplug")


def sbd_nodes(s):
    """modprobe sbd nr=3: /dev/sbd0..2 block nodes 254:0..2, mode 600, and by-version links to them"""
    start(s)
    s.run("rmmod sbd")
    settle(s)
    s.run("modprobe sbd nr=3")
    want = sbd_state(s, 3)
    wait(s, "nodes", lambda: state_is(s, want))
    expect_eq(nodes(s, list(want)), want, "the nodes and links after modprobe sbd nr=3 ({path: what stat shows})")


sbd_nodes.points = 3


def sbd_removed(s):
    """rmmod sbd takes every node and link away; modprobe sbd nr=1 makes sbd0's alone"""
    start(s)
    s.run("rmmod sbd")
    every = list(sbd_state(s, 3))
    wait(s, "removal", lambda: state_is(s, {}, every))
    left = [p for p, v in nodes(s, every).items() if v is not None]
    expect_eq(left, [], "nodes and links left after rmmod sbd")
    s.run("modprobe sbd nr=1")
    want = sbd_state(s, 1)
    wait(s, "nodes", lambda: state_is(s, want, every[2:]))
    expect_eq(nodes(s, every), dict({p: None for p in every}, **want),
              "the nodes and links after rmmod sbd; modprobe sbd nr=1")


sbd_removed.points = 2


def hot_disk(s):
    """QEMU's device_add: /dev/vda (253:0), no by-version link; device_del: gone"""
    start(s)
    s.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    wait(s, "vda", lambda: node(s, "/dev/vda") == "block 253:0 0600")
    expect_eq(node(s, "/dev/vda"), "block 253:0 0600", "/dev/vda after device_add")
    links = s.ls("/dev/disk/by-version")
    expect(not any("vda" in l for l in links), "ls /dev/disk/by-version: %s (sbd's only)" % links)
    s.monitor("device_del hot0")
    wait(s, "no vda", lambda: node(s, "/dev/vda") is None)
    expect_eq(node(s, "/dev/vda"), None, "/dev/vda after device_del")


hot_disk.points = 2


def nothing_left(s):
    """no helper still running and no zombie once the events are handled"""
    start(s)
    wait(s, "helpers", lambda: "hotplug" not in s.text("ps"))
    expect("hotplug" not in s.text("ps"), "a helper still runs:\n" + s.text("ps"))
    stats = s.text("sh -c 'cat /proc/[0-9]*/stat'")
    z = [l for l in stats.splitlines() if re.match(r"\d+ \(.*\) Z ", l)]
    expect_eq(z, [], "zombies in /proc/*/stat")


CHECKS = [script_runs, sbd_nodes, sbd_removed, hot_disk, nothing_left]

if __name__ == "__main__":
    sys.exit(run("Lab 13: a hotplug script", CHECKS))
