"""test_lab13.py: lab 13's checker (labs/lab13/check.py) fails wrong /sbin/hotplug
scripts, each at the check its mistake breaks: one that never removes a node, one that
gives every disk minor 0, one that leaves the nodes' mode to the umask. (test_labs.py runs it on the starter and on the reference
solution, labs/solutions/lab13.patch.)"""
import os
import re
import subprocess
import sys

import pytest

import kobold

ROOT = kobold.ROOT


def solution_script():
    text = open(os.path.join(ROOT, "labs", "solutions", "lab13.patch")).read()
    return "".join(l[1:] + "\n" for l in text.split("\n") if l.startswith("+") and not l.startswith("+++"))


def lab13(tmp_path, script):
    path = tmp_path / "hotplug"
    path.write_text(script)
    env = dict(os.environ, LAB13_HOTPLUG=str(path), LABCHECK_STOP_AT_FAIL="1", NO_COLOR="1",
               LAB13_WAIT="8",  # the state a wrong script never reaches: no need to wait long
               LABCHECK_HIDDEN=str(tmp_path), KOBOLD_KERNEL=kobold.KERNEL)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "labs", "lab13", "check.py")], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout


@pytest.mark.parametrize("mistake, wrong, right, fails", [
    ("never removes", 'rm -f "/dev/$DEVNAME"', ":", "rmmod sbd takes every node"),
    ("minor 0 for all", 'mknod -m 600 "/dev/$DEVNAME" b "$MAJOR" "$MINOR"',
     'mknod -m 600 "/dev/$DEVNAME" b "$MAJOR" 0', "modprobe sbd nr=3"),
    ("mode left to the umask", 'mknod -m 600 "/dev/$DEVNAME"', 'mknod "/dev/$DEVNAME"', "modprobe sbd nr=3"),
], ids=["no-remove", "one-minor", "no-mode"])
def test_lab13_checker_fails_a_wrong_script(tmp_path, mistake, wrong, right, fails):
    good = solution_script()
    assert wrong in good
    status, out = lab13(tmp_path, good.replace(wrong, right))
    assert status == 1, out
    assert re.search(r"FAIL  " + re.escape(fails), out), out
