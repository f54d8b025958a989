"""test_gdb_concurrency.py: the gdb session of the tutorial's section 8, run in batch
mode as tests/test_gdb.py runs docs/gdb.md's: two CPUs (`info threads`), the boot
stopped in virtio_blk's probe with the device's dev->sem and its parent's held, and
both let go, the device's first, after the probe."""
import os
import re
import shutil
import tempfile

import kobold
from test_gdb import GdbVM, gdb_installed, strings  # noqa: F401 (a fixture)

DOC = os.path.join(kobold.ROOT, "docs", "tutorial.md")

# The session, command for command as the tutorial shows it.
PROBE = """break virtblk_probe
continue
bt
info threads
set $dev = &vdev->dev
p $dev->bus_id
p $dev->sem.count
p $dev->parent->bus_id
p $dev->parent->sem.count
delete
tbreak up if sem == &$dev->sem
continue
bt 3
p $dev->sem.count
tbreak up if sem == &$dev->parent->sem
continue
p $dev->sem.count
p $dev->parent->sem.count
detach
"""

FRAME = re.compile(r"^#(\d+)\s+(?:0x[0-9a-f]+ in )?(\S+) \(", re.M)
COUNT = re.compile(r"^\$(\d+) = (-?\d+)$", re.M)


def test_the_tutorials_session_is_this_one():
    """Every (gdb) command of section 8 is one of PROBE's, in the same order."""
    text = open(DOC).read()
    section = text.split("## 8. ", 1)[1].split("\n## ", 1)[0]
    shown = [l[len("(gdb) "):] for l in section.split("\n") if l.startswith("(gdb) ")]
    assert shown == [c for c in PROBE.strip().split("\n") if c != "detach"], shown


def test_dev_sem_around_probe_on_two_cpus(gdb_installed):  # noqa: F811
    d = tempfile.mkdtemp(prefix="kobold-gdb-smp-")
    img = os.path.join(d, "disk.img")
    with open(img, "wb") as f:
        f.truncate(1 << 20)
    vm = GdbVM(kobold.KERNEL, ["-smp", "2", "-drive", "file=%s,if=none,id=d0,format=raw" % img,
                               "-device", "virtio-blk-pci,drive=d0"])
    try:
        out = vm.gdb(PROBE)
        stop = out.split("hit Breakpoint 1, ", 1)[1]
        frames = [m.group(2) for m in FRAME.finditer(stop.split("Id   Target Id")[0])]
        assert frames[0] == "virtblk_probe", out
        for caller in ("virtio_dev_probe", "driver_probe_device", "driver_attach", "virtio_blk_init"):
            assert caller in frames, (caller, out)
        threads = re.findall(r"^(\*| ) +(\d) +Thread \S+ \(CPU#(\d) \[(\w+) *\]\) (\S+)", out, re.M)
        assert sorted(t[2] for t in threads) == ["0", "1"], out
        assert [t[4] for t in threads if t[0] == "*"] == ["virtblk_probe"], out
        names = strings(out)
        assert names[0] == "virtio0" and re.match(r"0000:00:\w\w\.\d(\\000)*$", names[1]), out
        counts = {int(n): int(v) for n, v in COUNT.findall(out)}
        # At the probe: the device's and its parent's held. At the device's up: still
        # held. At the parent's: the device's free, the parent's still held.
        assert [counts[n] for n in (2, 4, 5, 6, 7)] == [0, 0, 0, 1, 0], out
        after_probe = out.split("Temporary breakpoint 2, ", 1)[1]
        assert [m.group(2) for m in FRAME.finditer(after_probe)][:2] == ["up", "device_sem_up"], out
        vm.vm.wait_prompt()
        assert vm.vm.run("readlink /sys/bus/virtio/devices/virtio0/driver").strip() == \
            "../../../../bus/virtio/drivers/virtio_blk"
    finally:
        vm.close()
        shutil.rmtree(d, ignore_errors=True)
