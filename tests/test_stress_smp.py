"""test_stress_smp.py: on 2 and 4 CPUs, sysfs reader threads (the readers
command: one per CPU, each read under the big kernel lock) race rmmod and
modprobe of sbd and QEMU's device_add and device_del of a virtio disk. Every
read ends in the value, ENOENT or ENODEV; there is no oops, BUG or WARNING;
memory and kobjects come back to the baseline. KOBOLD_STRESS_ROUNDS sets the
rounds (make stress-smp: 100; make test: 2). Without the lock (readers
nolock) the same race oopses, found at once with injected preemption: the
test shows that too, on one CPU."""
import os
import re
import time

import pytest

import kobold
from test_hotplug import state
from test_virtio import disk, image, qemu_has_slot

ROUNDS = int(os.environ.get("KOBOLD_STRESS_ROUNDS", "2"))
FILES = ["/sys/block/sbd0/size", "/sys/block/sbd0/stat", "/sys/class/block/sbd0/dev",
         "/sys/block/vdb/size", "/sys/block/vdb/stat", "/sys/class/block/vdb/dev"]
BAD = re.compile(r"Oops|BUG|WARNING|PANIC|Call Trace")


def hot_cycle(k, img, i):
    out = k.monitor("drive_add 0 if=none,id=s%d,file=%s,format=raw,file.locking=off" % (i, img))
    out += k.monitor("device_add virtio-blk-pci,drive=s%d,id=st%d,addr=0x6" % (i, i))
    assert "Error" not in out, out[-300:]
    k.run("udevadm settle")
    k.monitor("device_del st%d" % i)
    for _ in range(100):  # the eject, then QEMU finishes device_del
        if not qemu_has_slot(k, 6):
            break
        time.sleep(0.05)
    assert not qemu_has_slot(k, 6), k.transcript()[-3000:]
    k.run("udevadm settle")


@pytest.mark.parametrize("cpus", [2, 4])
def test_sysfs_readers_race_rmmod_and_device_del(boot_with, tmp_path, cpus):
    k = boot_with(qemu_args=disk(image(tmp_path, "a.img", 1), "d0") + ["-smp", str(cpus)],
                  monitor=str(tmp_path / "m.sock"))
    img = image(tmp_path, "h.img", 1)
    hot_cycle(k, img, 0)  # the first add's one-time allocations out of the way
    before = state(k)
    assert k.run("readers start " + " ".join(FILES)) == ""
    for i in range(1, ROUNDS + 1):
        assert k.run("rmmod sbd") == ""
        assert "sbd: 1 disk" in k.run("modprobe sbd")
        hot_cycle(k, img, i)
    out = k.run("readers stop", timeout=60)
    m = re.fullmatch(r"readers: (\d+) reads: (\d+) ok, (\d+) ENOENT, (\d+) ENODEV, 0 other\n", out)
    assert m, out
    assert int(m.group(1)) > 100 and int(m.group(2)) > 0 and int(m.group(3)) > 0, out
    assert not BAD.search(k.transcript()), k.transcript()[-3000:]
    k.run("udevadm settle")
    after = state(k)
    for s in (before, after):  # sbd's objects come back, at the end of the list
        s["kobjects"] = sorted(s["kobjects"].split("\n"))
    assert after == before, {key: (before[key], after[key]) for key in before if after[key] != before[key]}


def test_injected_preemption_finds_the_race_the_lock_closes(boot_with):
    """One CPU: readers preempted inside each sysfs lookup (every other step,
    seed 1) read a directory rmmod frees. That schedule found the race of
    docs/smp.md; sysfs's own lock (sysfs_mutex, 2.6.23's) closes it, so the
    readers survive it without the big lock as with it. Without sysfs_mutex
    the unlocked readers oops in sysfs_find_dirent within a few rounds."""
    inject = "preempt_inject=sysfs_lookup,every=2,seed=1"
    for mode in ("", "nolock "):
        k = boot_with(inject, qemu_args=["-smp", "1"])
        assert "preempt_inject: sysfs_lookup,every=2,seed=1" in k.run("dmesg")
        k.run("readers start " + mode + " ".join(FILES[:3]))
        for _ in range(4):
            k.run("rmmod sbd", timeout=60)
            k.run("modprobe sbd", timeout=60)
        assert re.search(r", 0 other\n$", k.run("readers stop", timeout=60))
        stats = dict((l.split()[0], l.split()[1:]) for l in k.run("preempt_inject").split("\n")[1:] if l)
        assert int(stats["sysfs_lookup"][1]) > 0 and stats["kobject_put"] == ["0", "0"], stats
        assert not BAD.search(k.transcript()), k.transcript()[-3000:]


def test_bad_preempt_inject_option_is_refused_and_off(boot_with):
    k = boot_with("preempt_inject=kobject_get,every=0", qemu_args=["-smp", "1"])
    assert 'preempt_inject: bad option "kobject_get,every=0"' in k.run("dmesg")
    stats = k.run("preempt_inject")
    assert stats.startswith("point") and "kobject_put             0          0" in stats, stats
