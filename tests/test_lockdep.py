"""test_lockdep.py: the lock validator watches a whole boot and the device
model's busiest paths (modprobe and rmmod, bind and unbind, a QEMU hot-add
and hot-remove, udev's trigger) and stays quiet: every lock is taken in the
order docs/locking.md gives, and with interrupts off wherever an interrupt
handler also takes it. One QEMU boot; then the boot option that
turns lockdep off."""
import re
import time

from test_virtio import disk, image, qemu_has_slot, sh

REPORTS = ("possible circular locking dependency", "possible recursive locking",
           "bad unlock balance", "inconsistent lock state", "BUG: spinlock", "BUG: sleeping function")


def stats(k):
    """/proc/lockdep_stats as numbers: classes, dependencies, debug_locks."""
    out = sh(k, "cat /proc/lockdep_stats")
    return [int(n) for n in re.findall(r"^ [a-z _-]+:\s+(\d+)", out, re.M)]


def test_the_device_model_takes_its_locks_in_order(boot_with, tmp_path):
    mon = str(tmp_path / "mon.sock")
    args = disk(image(tmp_path, "a.img", 1), "d0")
    args += ["-drive", "file=%s,if=none,id=hp0,format=raw" % image(tmp_path, "h0.img", 2)]
    k = boot_with(qemu_args=args, monitor=mon)
    classes, deps, on = stats(k)
    assert on == 1 and classes > 10 and deps > 10, (classes, deps, on)

    for mod in ("virtio_blk", "sbd", "blkstat"):
        assert sh(k, "rmmod %s" % mod) == ""
        assert sh(k, "modprobe %s" % mod) == ""
    assert "vda" in sh(k, "lsblk")
    drv = "/sys/bus/virtio/drivers/virtio_blk"
    assert sh(k, "echo virtio0 > %s/unbind" % drv) == ""
    assert sh(k, "echo virtio0 > %s/bind" % drv) == ""

    k.monitor("device_add virtio-blk-pci,drive=hp0,id=hot0,addr=0x6")
    k.expect(r"\[vdb\] \d+ 512-byte logical blocks.*\n")
    assert sh(k, "udevadm trigger") == ""
    assert sh(k, "udevadm settle") == ""
    k.monitor("device_del hot0")
    for _ in range(100):
        if not qemu_has_slot(k, 6):
            break
        time.sleep(0.05)
    assert not qemu_has_slot(k, 6)

    log = sh(k, "dmesg")
    for report in REPORTS:
        assert report not in log, log[log.find(report) - 400:]
    classes2, deps2, on = stats(k)
    assert on == 1 and classes2 >= classes and deps2 > deps, (classes2, deps2, on)


def test_debug_locks_0_turns_the_validator_off(boot_with):
    k = boot_with("debug_locks=0")
    assert sh(k, "modprobe blkstat; rmmod blkstat; modprobe blkstat") == ""
    classes, deps, on = stats(k)
    assert (classes, deps, on) == (0, 0, 0)
