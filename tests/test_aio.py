"""test_aio.py: O_DIRECT and Linux's native AIO system calls from user space, in one
boot with a scratch disk as /dev/vda: user/aiotests (each expectation Linux's; its run on
Debian's Linux is make aiotests-linux) checks the errors and the data at depths 1 to 32
and sizes 4 KiB to 1 MiB; busybox dd iflag=direct reads the disk; and memory comes back
to its level after io_destroy and after a process exits with requests in flight."""
import os
import re

import pytest

import kobold

ROOT = kobold.ROOT
BUILD = os.path.dirname(kobold.KERNEL)
ROOTFS = os.path.join(ROOT, "build", "rootfs.cpio")
DISK_MIB = 16


@pytest.fixture(scope="module")
def k(tmp_path_factory):
    kobold.build_user()
    tmp = tmp_path_factory.mktemp("aio")
    entries = ["dir /usr 0755 0 0", "dir /usr/bin 0755 0 0"]
    for prog in ("aiotests", "aioread"):
        entries.append("file /usr/bin/%s %s 0755 0 0" % (prog, os.path.join(BUILD, "user", prog)))
    cpio = tmp / "aio.cpio"
    kobold.cpio(cpio, entries)
    disk = tmp / "scratch.img"
    with open(disk, "wb") as f:
        f.truncate(DISK_MIB << 20)
    k = kobold.boot("sbd.nr=0", qemu_args=[
        "-m", "256M", "-initrd", "%s,%s" % (ROOTFS, cpio),
        "-drive", "file=%s,if=none,id=scratch,format=raw" % disk,
        "-device", "virtio-blk-pci,drive=scratch"])
    yield k
    k.close()


def mem_free_kb(k):
    return int(re.search(r"^MemFree:\s+(\d+) kB", k.run("cat /proc/meminfo"), re.M).group(1))


def test_aiotests_as_on_linux(k):
    out = k.run("aiotests /dev/vda", timeout=300)
    fails = [l for l in out.split("\n") if l.startswith("FAIL")]
    assert not fails, out
    assert re.search(r"^aiotests: (\d+) passed, 0 failed$", out, re.M), out


def test_busybox_dd_iflag_direct(k):
    out = k.run("busybox dd if=/dev/vda of=/dev/null bs=1M iflag=direct", timeout=60)
    assert "%d+0 records in\n%d+0 records out" % (DISK_MIB, DISK_MIB) in out, out
    # An unaligned size: busybox clears O_DIRECT (F_SETFL) at the EINVAL and reads again.
    out = k.run("busybox dd if=/dev/vda of=/dev/null bs=1000 count=1 iflag=direct")
    assert "1+0 records in\n1+0 records out" in out, out


def test_aioread_reads_at_depth(k):
    out = k.run("aioread /dev/vda 4 512 32 rand")
    assert re.search(r"^NS=\d+$", out, re.M), out


def test_nothing_left_behind(k):
    k.run("aiotests /dev/vda destroy_with_events_unreaped exit_with_requests_in_flight")
    before, free = k.snapshot(), mem_free_kb(k)
    out = k.run("aiotests /dev/vda setup_errors full_and_efault destroy_with_events_unreaped "
                "exit_with_requests_in_flight write_depth_32", timeout=120)
    assert "5 passed, 0 failed" in out, out
    after = k.snapshot()
    assert before["BytesInUse"] == after["BytesInUse"], (before, after)
    assert before["ObjectsInUse"] == after["ObjectsInUse"], (before, after)
    assert mem_free_kb(k) == free


def read_stat(k):
    """/sys/block/vda/stat's read I/Os and read merges (fields 1 and 2)."""
    fields = k.run("cat /sys/block/vda/stat").split()
    return int(fields[0]), int(fields[1])


@pytest.mark.parametrize("cmd", ["blk bench vda read seq 4 1 --depth 32",
                                 "aioread /dev/vda 4 256 32 seq"])
def test_stat_counts_merges(k, cmd):
    """256 reads of 4 KiB in a row, 32 at once: those that rode in another's transfer
    (virtio_blk's back merge) are counted in merges, the rest in I/Os, as Linux."""
    ios0, merges0 = read_stat(k)
    out = k.run(cmd, timeout=60)
    assert "IOPS" in out or "NS=" in out, out
    ios, merges = read_stat(k)
    assert ios - ios0 + merges - merges0 == 256, (ios0, merges0, ios, merges)
    assert merges > merges0, (ios0, merges0, ios, merges)
