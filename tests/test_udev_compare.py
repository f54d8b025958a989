"""test_udev_compare.py: Kobold's `udevadm test` against what systemd 252's
udevadm printed for the same rules on the same disk (recorded by
`make udev-compare --record` in tests/udev_compare/linux-252.json, from
Debian 12's udev package in Debian's Linux): every case agrees, but for the
differences kept on purpose (docs/differences.md), which are checked as such."""
import json
import os
import re

import pytest

import udev_kobold
from udev_compare import cases, results

HERE = os.path.dirname(os.path.abspath(__file__))
RECORD = os.path.join(HERE, "udev_compare", "linux-252.json")


@pytest.fixture(scope="module")
def kobold_outputs(tmp_path_factory):
    return udev_kobold.run_cases(str(tmp_path_factory.mktemp("udev-compare")))


def test_the_record_is_systemds_and_covers_every_case():
    with open(RECORD) as f:
        rec = json.load(f)
    assert rec["udevadm"] == "252"
    assert sorted(rec["cases"]) == sorted(n for n, _, _ in cases.CASES)
    assert len(cases.CASES) >= 50
    for name, c in rec["cases"].items():  # udevadm test's own banner, in each
        assert "This program is for debugging only" in c["output"], name


@pytest.mark.parametrize("name,dev", [(n, d) for n, d, _ in cases.CASES])
def test_kobold_agrees_with_systemd(kobold_outputs, name, dev):
    with open(RECORD) as f:
        linux = results.reduce(json.load(f)["cases"][name]["output"])
    kobold = results.reduce(kobold_outputs[name])
    diff = results.differences(linux, kobold)
    kept = udev_kobold.KEPT.get(name, ())
    assert set(diff) <= set(kept), "\n".join(
        "%s:\n  systemd 252: %r\n  Kobold:      %r" % (f, l, k) for f, (l, k) in diff.items())
    for field in kept:  # a kept difference is Kobold's refusal, named with file and line
        assert any(e.startswith(results.RULES + ":") for e in kobold[field]), kobold


def test_too_many_rules_keep_the_built_in_ones(tmp_path):
    """A file of 10,000 rules sorting first: the overflow is refused with file
    and line, and the built-in rules (loaded first) still make the disk's links."""
    k = udev_kobold.boot(str(tmp_path))
    try:
        k.run("rm %s" % " ".join("%s/%s" % (udev_kobold.RULES_D, m) for m in udev_kobold.MASK))
        off, size = k.where["rules-10000"]
        assert "copied" in k.run("dd if=/dev/vdb of=%s/10-many.rules bs=%d skip=%d count=1"
                                 % (udev_kobold.RULES_D, size, off // size))
        k.run("udevadm control --reload")
        out = k.run("dmesg")  # booted with loglevel=3: the error is in the log
        assert re.search(r"udevd: /etc/udev/rules.d/10-many.rules:\d+ Too many rules \(1024 at "
                         r"most\), ignoring the rest of the file\n", out), out
        out = k.run("udevadm test /sys/class/block/vda")
        assert "\nR=1\n" in out, out  # the file's first rule kept
        assert "DEVLINKS=/dev/disk/by-id/virtio-kobold-disk /dev/disk/by-path/pci-0000:00:04.0" \
            in out, out
        k.run("rm -r /dev/disk")
        k.run("udevadm trigger --subsystem-match=block")
        k.run("udevadm settle")
        assert k.run("readlink /dev/disk/by-id/virtio-kobold-disk") == "../../vda\n"
        assert k.run("echo ok") == "ok\n"
    finally:
        k.close()


def test_bad_rules_at_run_time_are_named_and_the_rest_work(tmp_path):
    """A NUL byte, a GOTO loop and a write to a read-only attribute, in the
    rules udevd runs on a real event: each named with file and line, the good
    rules still applied, and the shell answers after."""
    k = udev_kobold.boot(str(tmp_path))
    try:
        for name in ("nul-byte", "goto-loop"):
            off, size = k.where[name]
            assert "copied" in k.run("dd if=/dev/vdb of=%s/20-%s.rules bs=%d skip=%d count=1"
                                     % (udev_kobold.RULES_D, name, size, off // size))
        k.run("echo 'KERNEL==\"sbd0\", SUBSYSTEM==\"block\", ATTR{dev}=\"1:1\", "
              "SYMLINK+=\"sbd-seen\"' > "
              "%s/30-ro.rules" % udev_kobold.RULES_D)
        k.run("udevadm control --reload")
        k.run("rmmod sbd")
        k.run("modprobe sbd")
        k.run("udevadm settle")
        log = k.run("dmesg")
        for line in ["/etc/udev/rules.d/20-nul-byte.rules:2 Invalid key/value pair, ignoring.",
                     "/etc/udev/rules.d/20-goto-loop.rules:2: GOTO=\"a\" has no matching label, "
                     "ignoring",
                     "/etc/udev/rules.d/30-ro.rules:1 Failed to write "
                     "ATTR{/sys/class/block/sbd0/dev}, ignoring: Permission denied"]:
            assert "udevd: " + line + "\n" in log, log[-3000:]
        assert k.run("cat /sys/class/block/sbd0/dev").endswith(":0\n")
        assert k.run("readlink /dev/sbd-seen") == "sbd0\n"  # the rule went on
        assert k.run("echo ok") == "ok\n"
    finally:
        k.close()
