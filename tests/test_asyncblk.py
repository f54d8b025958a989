"""test_asyncblk.py: many requests in flight. `blk bench --depth N` through the
asynchronous block API: data written and read at depth 32-64 is right (checked
in the guest with --verify and on the host in the image), the same through dd
depth=64 on /dev/vda and /dev/vdb, --refill's zeros, a ring smaller than
the depth makes submitters wait, an I/O error at depth reaches the caller and
leaves nothing in flight, and Ctrl-C in a deep bench drains and returns.
Behaviour only: the figures are make bench's business."""
import array
import os
import re
import time

import kobold
from test_virtio import cat, disk, image, sh

WORDS = 128  # 32-bit words in a sector


def pattern(first_sector, count):
    """The --verify pattern: word i of sector s holds s * 128 + i."""
    a = array.array("I", range(first_sector * WORDS, (first_sector + count) * WORDS))
    return a.tobytes()


def in_flight(k, name):
    return int(sh(k, "cat /sys/class/block/%s/stat" % name).split()[8])


def test_deep_queues_keep_the_data_right(boot_with, tmp_path):
    stamped = image(tmp_path, "p.img", 8, pattern(0, 8 * 2048))
    blank = image(tmp_path, "z.img", 4)
    small = image(tmp_path, "s.img", 2)
    args = disk(stamped, "d0", "", ",cache=none,aio=threads") + disk(blank, "d1") + \
        disk(small, "d2", ",queue-size=4")
    k = boot_with(qemu_args=args)
    assert sh(k, "cat /sys/class/block/vda/queue/nr_requests").strip() == "256"
    # Random reads at depth 32, each block checked against what the host wrote.
    out = sh(k, "blk bench vda read rand 4 4 --depth 32 --verify")
    assert "depth=32" in out and "1024 blocks checked against the pattern" in out, out
    out = sh(k, "blk bench vda read seq 1024 8 --depth 4 --verify")
    assert "8 blocks checked against the pattern" in out, out
    # The check can fail: a blank disk does not hold the pattern.
    assert "does not hold the pattern" in k.run("blk bench vdb read rand 4 1 --depth 32 --verify")
    # dd depth=64 through /dev: the pattern read from vda into a file, written
    # from it to the blank vdb, and checked there at depth 64.
    out = sh(k, "dd if=/dev/vda of=/tmp/p bs=4k count=1024 depth=64")
    assert "1024+0 records in\n1024+0 records out\n4194304 bytes" in out, out
    out = sh(k, "dd if=/tmp/p of=/dev/vdb bs=4k --depth 64")
    assert "1024+0 records in\n1024+0 records out\n4194304 bytes" in out, out
    out = sh(k, "blk bench vdb read rand 4 4 --depth 64 --verify")
    assert "1024 blocks checked against the pattern" in out, out
    assert "depth=4 needs a block device" in sh(k, "dd if=/tmp/p of=/tmp/q depth=4")
    # Written at depth 64, read back at depth 64 through random offsets.
    out = sh(k, "blk bench vdb write seq 4 4 --depth 64 --verify")
    assert "1024 blocks written with the pattern" in out, out
    out = sh(k, "blk bench vdb read rand 4 4 --depth 64 --verify")
    assert "1024 blocks checked against the pattern" in out, out
    # --refill zeros each block before it goes out, as dd's /dev/zero makes its data:
    # the first MiB of the pattern becomes zeros, the rest stays (checked on the host).
    out = sh(k, "blk bench vdb write seq 64 1 --depth 8 --refill")
    assert re.search(r"vdb write seq bs=64K depth=8: 1048576 bytes in", out), out
    # A ring of 4 descriptors takes 4 requests: the other 60 wait for completions.
    assert sh(k, "cat /sys/class/block/vdc/queue/nr_requests").strip() == "4"
    out = sh(k, "blk bench vdc write rand 64 2 --depth 64 --verify")
    assert "32 blocks written with the pattern" in out, out
    assert "32 blocks written" in sh(k, "blk bench vdc write seq 64 2 --depth 64 --verify")
    out = sh(k, "blk bench vdc read rand 4 1 --depth 64 --verify")
    assert "256 blocks checked against the pattern" in out, out
    for name in ("vda", "vdb", "vdc"):
        assert in_flight(k, name) == 0
    k.send("poweroff\r")
    k.wait_exit()
    with open(blank, "rb") as f:
        assert f.read() == bytes(1 << 20) + pattern(2048, 3 * 2048)


def test_depth_is_checked(kernel):
    for bad in ("0", "129", "x", ""):
        out = kernel.run("blk bench sbd0 read seq 4 1 --depth %s" % bad)
        assert re.search(r"blk: invalid depth '%s' \(1-128\)" % re.escape(bad), out), out
    out = kernel.run("blk bench sbd0 read rand 4 1 --depth 128 --verify")
    assert "does not hold the pattern" in out   # a RAM disk starts zeroed
    for bad in ("read seq 4 1 --refill", "write seq 4 1 --refill --verify"):
        out = kernel.run("blk bench sbd0 " + bad)
        assert "blk: --refill makes the data of writes; not with reads or --verify" in out, out
    out = kernel.run("blk bench sbd0 write rand 4 1 --depth 16")
    assert re.search(r"sbd0 write rand bs=4K depth=16: 1048576 bytes in [\d.]+ ms", out), out


def test_an_error_at_depth_reaches_the_caller(boot_with, tmp_path):
    conf = tmp_path / "blkdebug.conf"
    conf.write_text('[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "808"\n')
    img = image(tmp_path, "e.img", 1, pattern(0, 2048))
    k = boot_with(qemu_args=["-drive", "file=blkdebug:%s:%s,if=none,id=d0,format=raw" % (conf, img),
                             "-device", "virtio-blk-pci,drive=d0"])
    out = k.run("blk bench vda read seq 4 1 --depth 32 --verify")
    assert "blk: vda: Input/output error" in out, out
    assert in_flight(k, "vda") == 0
    # Every time, and only there: the sectors around it read fine.
    assert "blk: vda: Input/output error" in k.run("blk bench vda read rand 4 1 --depth 32")
    assert in_flight(k, "vda") == 0
    # dd at depth 32 stops at the first block that failed, as coreutils' dd does, with
    # the blocks before it written out: the bad one is 4 KiB block 101, or one before it
    # that QEMU merged into the same host request (virtio-blk merges adjacent requests).
    out = sh(k, "dd if=/dev/vda of=/dev/null bs=4k depth=32")
    m = re.search(r"^dd: error reading '/dev/vda': Input/output error\n(\d+)\+0 records in\n"
                  r"(\d+)\+0 records out\n(\d+) bytes", out, re.M)
    assert m and 101 - 32 < int(m.group(1)) <= 101, out
    assert int(m.group(2)) == int(m.group(1)) and int(m.group(3)) == int(m.group(1)) * 4096, out
    assert in_flight(k, "vda") == 0
    assert "blk: vda: Input/output error" in k.run("blk read vda 808")
    assert "|" in sh(k, "blk read vda 807") and "|" in sh(k, "blk read vda 809")
    assert sh(k, "blk write vda 0 still writable") == ""
    assert "|still writable" in sh(k, "blk read vda 0")


def test_ctrl_c_stops_a_deep_bench_and_drains(boot_with, tmp_path):
    img = image(tmp_path, "c.img", 64)
    k = boot_with(qemu_args=disk(img, "d0"))
    k.send("blk bench vda read rand 4 4096 --depth 32\r")
    time.sleep(1.5)
    k.send("\x03")
    k.wait_prompt()
    assert "^C" in k.output()
    assert "IOPS" not in k.output()
    assert in_flight(k, "vda") == 0
    assert "depth=32" in sh(k, "blk bench vda read seq 4 1 --depth 32")


def interrupts(k):
    """{handler names: (irq, count summed over the CPUs, controller)} from /proc/interrupts."""
    out = sh(k, "cat /proc/interrupts")
    lines = out.rstrip("\n").split("\n")
    assert re.fullmatch(r" {11}(CPU\d+ *)+", lines[0]), lines
    assert re.match(r"^ERR: +\d+$", lines[-1]), lines
    rows = {}
    for line in lines[1:-1]:
        if re.match(r"^(NMI|LOC):( +\d+)+ *$", line):  # 2.6 i386's per-CPU rows, no line's
            continue
        m = re.match(r"^ *(\d+):((?: +\d+)+) +(\S+)  (.+)$", line)
        assert m, line
        rows[m.group(4)] = (int(m.group(1)), sum(map(int, m.group(2).split())), m.group(3))
    return rows


def line_of(rows, name):
    """The row whose handler list names name (INTx lines may be shared)."""
    found = [v for k, v in rows.items() if name in k.split(", ")]
    assert len(found) == 1, (name, rows)
    return found[0]


def test_msix_and_intx_each_count_on_their_own_vector(boot_with, tmp_path):
    args = disk(image(tmp_path, "m.img", 4), "d0", ",addr=0x4") + \
        disk(image(tmp_path, "i.img", 4), "d1", ",addr=0x5,vectors=0") + \
        disk(image(tmp_path, "l.img", 4), "d2", ",addr=0x6,disable-modern=on")
    k = boot_with(qemu_args=args)
    rows = interrupts(k)
    assert line_of(rows, "timer")[0] == 0 and line_of(rows, "timer")[2] == "IO-APIC-edge"
    assert line_of(rows, "cascade")[:1] == (2,)
    # vda: MSI-X, a vector for the config change and one for the queue.
    assert line_of(rows, "virtio0-config")[2] == "PCI-MSI-X"
    assert line_of(rows, "virtio0-requests")[2] == "PCI-MSI-X"
    # vdb (no MSI-X table) and vdc (legacy interface) fall back to INTx.
    assert not [n for n in rows if n.startswith(("virtio1-", "virtio2-"))], rows
    assert line_of(rows, "0000:00:05.0")[2] == "IO-APIC-level"	# INTx through the I/O APIC
    assert "[vdc] 8192 512-byte logical blocks, legacy transport" in k.run("dmesg")
    for name, moves, still in (("vda", "virtio0-requests", "0000:00:04.0"),
                               ("vdb", "0000:00:05.0", "virtio0-requests"),
                               ("vdc", "0000:00:06.0", "virtio0-requests")):
        before = interrupts(k)
        out = sh(k, "blk bench %s write rand 4 1 --depth 8 --verify" % name)
        assert "256 blocks written" in out, out
        out = sh(k, "blk bench %s read rand 4 1 --depth 8 --verify" % name)
        assert "256 blocks checked" in out, out
        after = interrupts(k)
        assert line_of(after, moves)[1] > line_of(before, moves)[1], (name, before, after)
        assert line_of(after, still)[1] == line_of(before, still)[1], (name, before, after)
    # After rmmod the vectors are gone; modprobe asks for them again.
    assert sh(k, "rmmod virtio_blk") == ""
    assert "virtio0-requests" not in sh(k, "cat /proc/interrupts")
    assert sh(k, "modprobe virtio_blk") == ""
    assert line_of(interrupts(k), "virtio0-requests")[2] == "PCI-MSI-X"


def test_rmmod_with_reads_in_flight_ends_each_once(tmp_path):
    # QEMU lets 5 reads a second through: the 32 are still in the device at rmmod.
    img = image(tmp_path, "t.img", 1)
    status, out = kobold.run_to_exit(
        "test=virtblk_inflight loglevel=3", timeout=120,
        qemu_args=["-drive", "file=%s,if=none,id=d0,format=raw,throttling.iops-total=5" % img,
                   "-device", "virtio-blk-pci,drive=d0"])
    cases = kobold.parse_ktap(out)
    assert cases.get("virtblk_inflight.rmmod_with_reads_in_flight", (False, out[-3000:]))[0], out[-3000:]
    assert re.search(r"# \d+ of 32 reads ended by the removal", out), out[-3000:]
    assert status == kobold.EXIT_SUCCESS, out[-3000:]


def test_event_idx_never_stalls(boot_with, tmp_path):
    """The event index (on by default for disks): kicks and interrupts suppressed by
    index, on MSI-X and INTx. A lost kick or interrupt leaves a bench waiting for good:
    each run must end within its timeout. KOBOLD_EVENT_IDX_CYCLES (make
    stress-event-idx: 2,000) runs it longer."""
    cycles = int(os.environ.get("KOBOLD_EVENT_IDX_CYCLES", "5"))
    args = disk(image(tmp_path, "x.img", 8), "d0", ",addr=0x4") + \
        disk(image(tmp_path, "y.img", 8), "d1", ",addr=0x5,vectors=0")
    k = boot_with("loglevel=3", qemu_args=args)
    for name in ("virtio0", "virtio1"):  # bit 29 of the negotiated features
        assert cat(k, "/sys/bus/virtio/devices/%s/features" % name)[29] == "1"
    runs = ["blk bench %s read rand 4 1 --depth 64", "blk bench %s write seq 4 1 --depth 64",
            "blk bench %s read seq 4 1 --depth 1"]
    start = time.time()
    for i in range(cycles):
        for dev in ("vda", "vdb"):
            for run in runs:
                out = k.run(run % dev, timeout=30)
                assert "IOPS" in out, (i, run % dev, out)
    for dev in ("vda", "vdb"):
        assert in_flight(k, dev) == 0
        out = sh(k, "blk bench %s write rand 4 1 --depth 64 --verify" % dev)
        assert "256 blocks written with the pattern" in out, out
        out = sh(k, "blk bench %s read rand 4 1 --depth 64 --verify" % dev)
        assert "256 blocks checked against the pattern" in out, out
    print("event_idx: %d cycles in %.1f s" % (cycles, time.time() - start))


def test_queues_batches_and_polling_keep_the_data_right(boot_with, tmp_path):
    """Two CPUs, a disk with two request queues (VIRTIO_BLK_F_MQ), each with its MSI-X
    vector; requests submitted in batches (one notification a batch) and, with
    queue/io_poll, completions polled: the data written at depth 32 reads back right at
    every depth, sequential and random, with and without polling, and on the host."""
    img = image(tmp_path, "q.img", 8)
    args = disk(img, "d0", ",num-queues=2", ",cache=none,aio=threads") + ["-smp", "2"]
    k = boot_with("loglevel=3", qemu_args=args)
    rows = sh(k, "cat /proc/interrupts")
    for cpu, q in enumerate(("virtio0-req.0", "virtio0-req.1")):
        m = re.search(r"^ *(\d+):.*PCI-MSI-X\s+%s\n" % re.escape(q), rows, re.M)
        assert m, rows
        # queue i's vector goes to CPU i, and its smp_affinity says so; MSI-X lines stay put
        affinity = "/proc/irq/%s/smp_affinity" % m.group(1)
        assert cat(k, affinity) == "%02x" % (1 << cpu)
        assert sh(k, "echo 3 > " + affinity) == "echo: write error: Input/output error\n"
    features = cat(k, "/sys/bus/virtio/devices/virtio0/features")
    assert features[12] == "1" and features[29] == "1", features  # MQ, EVENT_IDX
    out = sh(k, "blk bench vda write seq 4 8 --depth 32 --verify")
    assert "2048 blocks written with the pattern" in out, out
    poll = "/sys/class/block/vda/queue/io_poll"
    for polled in ("0", "1"):
        if polled == "1":
            assert sh(k, "echo 1 > " + poll) == ""
        assert cat(k, poll) == polled
        for kind in ("seq", "rand"):
            for kib, mib in ((4, 1), (64, 4)):
                for depth in (1, 4, 16, 32):
                    out = sh(k, "blk bench vda read %s %d %d --depth %d --verify"
                             % (kind, kib, mib, depth))
                    blocks = mib * 1024 // kib
                    assert "%d blocks checked against the pattern" % blocks in out, \
                        (polled, kind, kib, depth, out)
        # The synchronous path (dd: blk_rw, blk_wait) polls too.
        out = sh(k, "dd if=/dev/vda of=/dev/null bs=64k count=64")
        assert "64+0 records out" in out, out
    # Bad input changes nothing; a driver that cannot poll refuses it, as Linux's.
    assert "Invalid argument" in k.run("echo x > " + poll)
    assert cat(k, poll) == "1"
    assert sh(k, "echo 0 > " + poll) == "" and cat(k, poll) == "0"
    assert in_flight(k, "vda") == 0
    # The event index's fence and its alternatives, timed (docs/performance.md).
    out = sh(k, "bench fence 1000")
    for what in ("mfence", "lock addl", "inb 0x80", "virtio status"):
        assert re.search(r"fence %s +N=1000 +\d+ us total +\d+ ns/op" % what, out), out
    k.send("poweroff\r")
    k.wait_exit()
    with open(img, "rb") as f:
        assert f.read(8 << 20) == pattern(0, 8 * 2048)
