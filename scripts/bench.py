#!/usr/bin/python3
"""bench.py: `make bench`. Boot time, virtio-blk and sbd throughput, and the device
model at scale, side by side with Debian's Linux reading the same disk in the same
QEMU and with the host reading the image file itself. Reads with N requests in
flight (depth rows): Kobold's `blk bench --depth N`, and for Linux and the host
one process with N requests in flight through Linux's native AIO
(user/aioread.c, as fio's libaio engine). From user space (user rows), the same static
i386 aioread on Kobold, on Linux and on the host, and user/sysbench's system-call costs
on both kernels (issue 26's benchmark). Prints one table and writes
build/bench/results.csv and throughput.png."""
import csv
import os
import re
import statistics
import subprocess
import sys
import time

import pexpect

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, os.path.join(HERE, "bench"))
import kobold  # noqa: E402
import linux_guest  # noqa: E402

OUT = os.path.join(ROOT, "build", "bench")
DISK = os.path.join(OUT, "disk.img")
DISK_MIB = 256  # room for 32 readers of 64 KiB blocks on ranges of their own
BOOTS = int(os.environ.get("BENCH_BOOTS", "5"))
# (label, kind, request KiB, total MiB): kind is seq or rand
IO_ROWS = [("1M", "seq", 1024, 64), ("64K", "seq", 64, 32), ("4K", "seq", 4, 8),
           ("4K", "rand", 4, 4)]
# Reads with N in flight: (kind, request KiB, total MiB) at each depth.
DEPTHS = [1, 4, 16, 32]
# Enough per reader at depth 32 (128 and 64 reads) that starting a process is not the figure.
DEPTH_ROWS = [("seq", 4, 16), ("rand", 4, 16), ("seq", 64, 128), ("rand", 64, 128),
              ("seq", 1024, 256)]
# The depth rows again with -smp 2 (virtio-blk num-queues 2, a queue and a vector per CPU).
SMP_DEPTH_ROWS = [("seq", 4, 16), ("rand", 4, 16), ("seq", 64, 128)]
DEVMODEL_N = [100, 1000, 10000, 100000]
USER_BIN = os.path.join(ROOT, "build", "user")
AIOREAD = os.path.join(USER_BIN, "aioread")
SYSBENCH = os.path.join(USER_BIN, "sysbench")
ROOTFS = os.path.join(ROOT, "build", "rootfs.cpio")
# From user space, aioread on both kernels: (kind, request KiB, total MiB) at each depth.
USER_ROWS = [("seq", 4, 16), ("seq", 64, 128), ("seq", 1024, 256)]
DISK_ARGS = ["-drive", "file=%s,if=none,id=bench,format=raw,cache=none,aio=threads" % DISK,
             "-device", "virtio-blk-pci,drive=bench"]
# Linux reads a copy while Kobold runs beside it (paired depth rows): the same data and
# options, a file of its own for QEMU's image lock.
LINUX_DISK = os.path.join(OUT, "disk-linux.img")
LINUX_DISK_ARGS = [a.replace(DISK, LINUX_DISK) for a in DISK_ARGS]

rows = []  # dicts: group, name, kobold, linux, host, unit


def add(group, name, value, unit, linux=None):
    rows.append({"group": group, "name": name, "kobold": value, "linux": linux, "host": None,
                 "unit": unit})


def depth_name(kind, kib, depth):
    return "read %s %dK depth %d" % (kind, kib, depth)


def build_aioread():
    """The static i386 AIO reader (user/aioread.c, make user) for the depth rows on
    Linux, on the host and on Kobold; None if it cannot be built."""
    p = subprocess.run(["make", "-s", "user"], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(AIOREAD):
        print("make user: %s (no depth rows for Linux and the host)" % p.stderr.strip()[-200:])
        return None
    return AIOREAD


def make_disk():
    """A disk full of data: reads of a sparse file's holes would cost the host nothing."""
    os.makedirs(OUT, exist_ok=True)
    with open(DISK, "wb") as f, open(LINUX_DISK, "wb") as g:
        for _ in range(DISK_MIB):
            chunk = os.urandom(1024 * 1024)
            f.write(chunk)
            g.write(chunk)
        for h in (f, g):
            h.flush()
            os.fsync(h.fileno())


def boot_seconds(grub):
    """Host time from starting QEMU to the first prompt, median of BOOTS boots."""
    times, inside = [], []
    for _ in range(BOOTS):
        t0 = time.monotonic()
        k = kobold.Kobold("", grub=grub)
        try:
            k.wait_prompt()
            times.append(time.monotonic() - t0)
            m = re.search(r"Boot to the prompt took (\d+) us", k.run("dmesg"))
            if m:
                inside.append(int(m.group(1)) / 1e6)
        finally:
            k.close()
    return statistics.median(times), (statistics.median(inside) if inside else None)


def kobold_io(k, disk, op, kind, kib, mib, depth=1):
    out = k.run("blk bench %s %s %s %d %d --depth %d" % (disk, op, kind, kib, mib, depth),
                timeout=600)
    m = re.search(r"([\d.]+) MiB/s, (\d+) IOPS", out)
    if not m:
        raise RuntimeError("blk bench: " + out.strip())
    return float(m.group(1)), int(m.group(2))


DD_RATE = re.compile(r"^(\d+) bytes .*copied, ([\d.e-]+) s, ", re.M)


def kobold_dd(k, operands):
    """MiB/s of a dd through a /dev node, from its summary line (bytes and seconds)."""
    out = k.run("dd " + operands, timeout=600)
    m = DD_RATE.search(out)
    if not m or float(m.group(2)) == 0:
        raise RuntimeError("dd: " + out.strip())
    return int(m.group(1)) / float(m.group(2)) / (1 << 20)


DD_ROUNDS = int(os.environ.get("BENCH_DD_ROUNDS", "15"))
# dd through /dev/vda beside blk bench: (label, KiB, MiB, depth)
DD_ROWS = [("1M", 1024, 256, 1), ("4K", 4, 8, 1), ("4K", 4, 64, 32), ("64K", 64, 128, 32)]
if os.environ.get("BENCH_DD_ROWS"):  # e.g. "0,1": only those
    DD_ROWS = [DD_ROWS[int(i)] for i in os.environ["BENCH_DD_ROWS"].split(",")]


def dd_pair(k, op, kib, mib, depth, nodes):
    """Median MiB/s of blk bench and of dd doing the same transfer, run in turns, and
    the median of each round's ratio. A dd write makes its data (it reads /dev/zero into
    its buffer for every block), so writes are also set against blk bench --refill,
    which zeros each block before writing it: the same work without the VFS."""
    count = mib * 1024 // kib
    dev, other = "/dev/vda", nodes["null" if op == "read" else "zero"]
    src, dst = (dev, other) if op == "read" else (other, dev)
    runs = {"blk": lambda: kobold_io(k, "vda", op, "seq", kib, mib, depth)[0],
            "dd": lambda: kobold_dd(k, "if=%s of=%s bs=%dk count=%d%s" % (
                src, dst, kib, count, " depth=%d" % depth if depth > 1 else ""))}
    if op == "write":
        runs["refill"] = lambda: kobold_io(k, "vda", op, "seq --refill", kib, mib, depth)[0]
    got = {name: [] for name in runs}
    for i in range(DD_ROUNDS):  # in turns, a different one first each round (the host caches)
        names = list(runs)
        names = names[i % len(names):] + names[:i % len(names)]
        for name in names:
            got[name].append(runs[name]())
    if os.environ.get("BENCH_DD_VERBOSE"):
        print("%s %dK depth %d: %s" % (op, kib, depth, got))
    # The ratio within each round (run back to back, under the same load), then the median.
    ratios = {name: statistics.median(d / b for b, d in zip(got[name], got["dd"]))
              for name in got if name != "dd"}
    return {name: statistics.median(v) for name, v in got.items()}, ratios


def bench_dd(k):
    """dd through /dev/vda beside blk bench, same size, direction and depth, run in turns:
    the VFS and block-node cost on top of the block layer."""
    have = k.run("ls /dev").split()
    nodes = {}
    for node, dev in (("null", "1 3"), ("zero", "1 5")):
        nodes[node] = "/dev/" + node
        if node not in have:  # a kernel whose mem class makes no nodes: make them by hand
            nodes[node] = "/tmp/" + node
            k.run("mknod /tmp/%s c %s" % (node, dev))
    for label, kib, mib, depth in DD_ROWS:
        for op in ("read", "write"):
            if depth > 1 and op == "write":
                continue
            name = "%s seq %s%s" % (op, label, " depth %d" % depth if depth > 1 else "")
            rates, ratios = dd_pair(k, op, kib, mib, depth, nodes)
            add("dd", "blk bench " + name, rates["blk"], "MiB/s")
            if "refill" in rates:
                add("dd", "blk bench --refill " + name, rates["refill"], "MiB/s")
            add("dd", "dd " + name, rates["dd"], "MiB/s")
            add("dd", "dd/blk " + name, round(100.0 * ratios["blk"], 1), "%")
            if "refill" in ratios:
                add("dd", "dd/blk --refill " + name, round(100.0 * ratios["refill"], 1), "%")


def verify_data(k, cpus=1):
    """After the depth rows: the pattern written over the disk at depth 32, read back and
    checked at every depth, 4 KiB and 64 KiB, sequential and random (blk bench --verify)."""
    out = k.run("blk bench vda write seq 64 %d --depth 32 --verify" % DISK_MIB, timeout=600)
    if "written with the pattern" not in out:
        raise RuntimeError("data check, write: " + out.strip())
    checked = 0
    for kind in ("seq", "rand"):
        for kib in (4, 64):
            for depth in DEPTHS:
                mib = 4 if kib == 4 else 32
                out = k.run("blk bench vda read %s %d %d --depth %d --verify" % (kind, kib, mib, depth),
                            timeout=600)
                if "checked against the pattern" not in out:
                    raise RuntimeError("data check: " + out.strip())
                checked += mib * 1024 // kib
    add("verify", "blocks read back and checked%s" % (", -smp %d" % cpus if cpus > 1 else ""),
        checked, "blocks")


def bench_kobold_smp_depth():
    """Some depth rows on 2 CPUs: the disk gets a request queue and an MSI-X vector per
    CPU; the bench thread submits from one of them."""
    k = kobold.boot("loglevel=3 sbd.nr=0", qemu_args=DISK_ARGS + ["-m", "512M", "-smp", "2"])
    try:
        queues = k.run("cat /proc/interrupts").count("-req.")
        add("depth", "request queues, -smp 2", queues, "queues")
        for kind, kib, mib in SMP_DEPTH_ROWS:
            for depth in DEPTHS:
                _, iops = kobold_io(k, "vda", "read", kind, kib, mib, depth)
                add("depth", depth_name(kind, kib, depth) + ", -smp 2", iops, "IOPS")
        verify_data(k, 2)
    finally:
        k.close()


def bench_kobold_disks():
    k = kobold.boot("loglevel=3 sbd.size=65536", qemu_args=DISK_ARGS + ["-m", "512M"])
    try:
        have_vda = "vda" in k.run("lsblk")
        for label, kind, kib, mib in IO_ROWS:
            for op in ("read", "write"):
                if have_vda:
                    mbs, iops = kobold_io(k, "vda", op, kind, kib, mib)
                    add("virtio-blk", "%s %s %s" % (op, kind, label), mbs, "MiB/s")
                    add("virtio-blk", "%s %s %s" % (op, kind, label), iops, "IOPS")
                mbs, iops = kobold_io(k, "sbd0", op, kind, kib, mib)
                add("sbd", "%s %s %s" % (op, kind, label), mbs, "MiB/s")
        linux = start_linux()
        try:
            for i, (kind, kib, mib) in enumerate(DEPTH_ROWS if have_vda else []):
                for j, depth in enumerate(DEPTHS):
                    # Each row on both kernels back to back, a different one first in turn:
                    # the host's load moves within minutes, the ratio is taken within seconds.
                    runs = [lambda: kobold_io(k, "vda", "read", kind, kib, mib, depth)[1],
                            lambda: linux_depth_one(linux, kind, kib, mib, depth)]
                    first = (i + j) % 2 if linux else 0
                    got = [None, None]
                    for n in (first, 1 - first):
                        if n == 0 or linux:
                            got[n] = runs[n]()
                    add("depth", depth_name(kind, kib, depth), got[0], "IOPS", linux=got[1])
        finally:
            stop_linux(linux)
        if have_vda:
            verify_data(k)
        if not have_vda:
            add("virtio-blk", "no virtio disk found", None, "")
        elif DD_ROUNDS:  # BENCH_DD_ROUNDS=0: no dd rows
            bench_dd(k)
    finally:
        k.close()


def user_cpio():
    """build/rootfs.cpio (busybox) and an archive with aioread and sysbench in /usr/bin:
    the -initrd list for a Kobold boot with user space; None if they cannot be built."""
    p = subprocess.run(["make", "-s", "rootfs", "user"], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        print("make rootfs user: %s (no user rows)" % (p.stdout + p.stderr).strip()[-300:])
        return None
    entries = ["dir /usr 0755 0 0", "dir /usr/bin 0755 0 0"] + [
        "file /usr/bin/%s %s 0755 0 0" % (os.path.basename(p), p) for p in (AIOREAD, SYSBENCH)]
    out = os.path.join(OUT, "user.cpio")
    with open(out, "wb") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_init_cpio.py"), "-"],
                       input="\n".join(entries).encode(), stdout=f, check=True)
    return "%s,%s" % (ROOTFS, out)


def linux_cmd(c, cmd, timeout=900):
    """What a command printed in the Linux guest (its /init runs one a line)."""
    c.sendline(cmd)
    c.expect("KOBOLD-BENCH-END", timeout=timeout)
    return c.before.replace("\r", "")


def aioread_iops(out, kib, mib):
    m = re.search(r"^NS=(\d+)$", out, re.M)
    if not m:
        raise RuntimeError("aioread: " + out.strip()[-300:])
    return int(mib * 1024 // kib / (int(m.group(1)) / 1e9))


def aioread_cmd(prog, kind, kib, mib, depth):
    return "%s /dev/vda %d %d %d %s" % (prog, kib, mib * 1024 // kib, depth, kind)


SYSBENCH_LINE = re.compile(r"^(\w+) \d+ (\d+) ns/op$", re.M)


def sysbench_ns(out):
    got = dict((m.group(1), int(m.group(2))) for m in SYSBENCH_LINE.finditer(out))
    if len(got) < 5:
        raise RuntimeError("sysbench: " + out.strip()[-500:])
    return got


def bench_user():
    """From user space: aioread (one process, native AIO, O_DIRECT) at each depth and size
    on Kobold and on Linux in the same QEMU, paired row by row; then sysbench on both."""
    images = user_cpio()
    if not images:
        return
    k = kobold.boot("loglevel=3 sbd.nr=0", qemu_args=DISK_ARGS + ["-m", "512M", "-initrd", images])
    linux = start_linux()
    try:
        for i, (kind, kib, mib) in enumerate(USER_ROWS):
            for j, depth in enumerate(DEPTHS):
                runs = [lambda: aioread_iops(k.run(aioread_cmd("aioread", kind, kib, mib, depth),
                                                   timeout=600), kib, mib),
                        lambda: aioread_iops(linux_cmd(linux, aioread_cmd("/bin/aioread", kind, kib,
                                                                          mib, depth)), kib, mib)]
                got = [None, None]
                for n in ((i + j) % 2, 1 - (i + j) % 2):
                    if n == 0 or linux:
                        got[n] = runs[n]()
                add("user-aio", depth_name(kind, kib, depth), got[0], "IOPS", linux=got[1])
        kob = sysbench_ns(k.run("sysbench", timeout=900))
        lin = sysbench_ns(linux_cmd(linux, "/bin/sysbench")) if linux else {}
        for name, ns in kob.items():
            add("syscalls", name, ns, "ns/op", linux=lin.get(name))
    finally:
        stop_linux(linux)
        k.close()


def linux_depth_one(c, kind, kib, mib, depth):
    """IOPS of one process with depth requests in flight (Linux AIO, O_DIRECT), as
    fio's libaio engine measures it."""
    ios = mib * 1024 // kib
    c.sendline("/bin/aioread /dev/vda %d %d %d %s" % (kib, ios, depth, kind))
    c.expect(r"NS=(\d+)\r")
    ns = int(c.match.group(1))
    c.expect("KOBOLD-BENCH-END")
    return int(ios / (ns / 1e9))


def spawn_linux(disk_args):
    """Debian's Linux in the same QEMU, at its prompt; raises linux_guest.Unavailable."""
    aioread = build_aioread()
    if not aioread:
        raise linux_guest.Unavailable("no aioread")
    programs = {"bin/aioread": aioread, "bin/sysbench": SYSBENCH}
    return linux_guest.boot(os.path.join(OUT, "linux"), programs, disk_args)


def start_linux():
    """The Linux guest for the paired depth rows, on its copy of the disk; None if it
    cannot be had (the depth rows then have no Linux figure)."""
    try:
        return spawn_linux(LINUX_DISK_ARGS)
    except (linux_guest.Unavailable, pexpect.ExceptionPexpect, OSError) as e:
        print("Linux column unavailable for the depth rows: %s" % e)
        return None


def stop_linux(c):
    if c:
        c.sendline("done")
        c.close(force=True)


def linux_reads():
    """MiB/s and IOPS of dd iflag=direct in a Debian Linux guest, by row label."""
    c = spawn_linux(DISK_ARGS)
    results = {}
    try:
        for label, kind, kib, mib in IO_ROWS:
            if kind != "seq":
                continue
            count = mib * 1024 // kib
            # busybox's date has no %N; the timer list gives the clock in ns.
            now = "$(grep -m1 'now at' /proc/timer_list | cut -d' ' -f3)"
            c.sendline("s=%s; dd if=/dev/vda of=/dev/null bs=%dk count=%d iflag=direct "
                       "2>/dev/null; e=%s; echo NS=$((e - s))" % (now, kib, count, now))
            c.expect(r"NS=(\d+)\r")
            ns = int(c.match.group(1))
            c.expect("KOBOLD-BENCH-END")
            results["read seq " + label] = (mib / (ns / 1e9), int(count / (ns / 1e9)))
        c.sendline("done")
        c.expect(pexpect.EOF)
    finally:
        c.close(force=True)
    return results


def bench_devmodel():
    k = kobold.boot("loglevel=3 sbd.nr=0", qemu_args=["-m", "512M"])
    try:
        for n in DEVMODEL_N:
            out = k.run("bench devmodel %d" % n, timeout=900)
            for op, ns in re.findall(r"devmodel (\w+)\s+N=\d+\s+\d+ us total\s+(\d+) ns/op", out):
                add("devmodel", "%s N=%d" % (op, n), int(ns), "ns/op")
        add("console", "Ctrl-C to prompt (median)", ctrl_c_ms(k), "ms")
    finally:
        k.close()


def bench_sched():
    """Context switch: the shell and a kernel thread ping-pong a completion."""
    k = kobold.boot("loglevel=3 sbd.nr=0")
    try:
        out = k.run("bench switch 100000", timeout=900)
        m = re.search(r"context switch\s+N=\d+\s+\d+ us total\s+(\d+) ns/switch", out)
        if not m:
            raise RuntimeError("bench switch: " + out.strip())
        add("sched", "context switch (completion ping-pong)", int(m.group(1)), "ns")
    finally:
        k.close()


def bench_smp():
    """The device model bench on 1, 2 and 4 CPUs, and the IPI round trip."""
    for cpus in (1, 2, 4):
        k = kobold.boot("loglevel=3 sbd.nr=0", qemu_args=["-m", "512M", "-smp", str(cpus)])
        try:
            out = k.run("bench devmodel 10000", timeout=900)
            for op, ns in re.findall(r"devmodel (\w+)\s+N=\d+\s+\d+ us total\s+(\d+) ns/op", out):
                add("devmodel", "%s N=10000, -smp %d" % (op, cpus), int(ns), "ns/op")
            if cpus > 1:
                out = k.run("bench ipi 20000", timeout=900)
                m = re.search(r"ipi round trip\s+N=\d+\s+\d+ us total\s+(\d+) ns/op", out)
                if not m:
                    raise RuntimeError("bench ipi: " + out.strip())
                add("smp", "IPI round trip, -smp %d" % cpus, int(m.group(1)), "ns")
        finally:
            k.close()


def ctrl_c_ms(k, runs=5):
    """Host time from Ctrl-C during a large `bench devmodel` to the next prompt."""
    times = []
    k.child.delaybeforesend = None  # pexpect's default 50 ms pause would count
    for _ in range(runs):
        k.send("bench devmodel 100000\r")
        k.expect(r"bench devmodel 100000\r*\n")
        time.sleep(1.0)  # tens of thousands registered: a second of undo waits
        t0 = time.monotonic()
        k.child.send("\x03")
        k.wait_prompt()
        times.append((time.monotonic() - t0) * 1000)
    return round(statistics.median(times), 1)


def attach_linux():
    try:
        lin = linux_reads()
    except (linux_guest.Unavailable, pexpect.ExceptionPexpect, OSError) as e:
        print("Linux column unavailable: %s" % e)
        return
    for r in rows:
        if r["group"] == "virtio-blk" and r["name"] in lin:
            r["linux"] = lin[r["name"]][0 if r["unit"] == "MiB/s" else 1]


def host_seconds(cmds):
    """Runs the commands at once (each a list), waits for all; the elapsed seconds."""
    t0 = time.monotonic()
    procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for c in cmds]
    if any(p.wait() for p in procs):
        raise OSError("%s failed" % " ".join(cmds[0]))
    return time.monotonic() - t0


def host_dd(kib, count, depth):
    """depth parallel dd iflag=direct readers on the image, as in the guest."""
    stride = DISK_MIB * 1024 // kib // depth
    return host_seconds([["dd", "if=" + DISK, "of=/dev/null", "bs=%dk" % kib, "count=%d" % count,
                          "skip=%d" % (i * stride), "iflag=direct"] for i in range(depth)])


def host_reads():
    """The host reading the image file itself: the limit for a guest. By row name."""
    results = {}
    for label, kind, kib, mib in IO_ROWS:
        if kind == "seq":
            count = mib * 1024 // kib
            sec = host_dd(kib, count, 1)
            results["read seq " + label] = (mib / sec, int(count / sec))
    aioread = build_aioread()
    for kind, kib, mib in (DEPTH_ROWS + [r for r in USER_ROWS if r not in DEPTH_ROWS]
                           if aioread else []):
        for depth in DEPTHS:
            ios = mib * 1024 // kib
            out = subprocess.run([aioread, DISK, str(kib), str(ios), str(depth), kind],
                                 capture_output=True, text=True, check=True).stdout
            sec = int(re.search(r"NS=(\d+)", out).group(1)) / 1e9
            results[depth_name(kind, kib, depth)] = (None, int(ios / sec))
    return results


def attach_host():
    try:
        host = host_reads()
    except (OSError, subprocess.CalledProcessError) as e:
        print("host column unavailable: %s" % e)
        return
    for r in rows:
        if r["group"] in ("virtio-blk", "depth", "user-aio") and r["name"] in host:
            r["host"] = host[r["name"]][0 if r["unit"] == "MiB/s" else 1]


def fmt(v, unit=""):
    if v is None:
        return "-"
    if unit == "s":
        return "%.3f" % v
    return "%.1f" % v if isinstance(v, float) else str(v)


def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "-"


def print_table():
    width = max([30] + [len(r["name"]) for r in rows])
    head = "%-11s %-" + str(width) + "s %10s %10s %10s %8s %8s  %s"
    print(head % ("group", "row", "Kobold", "Linux", "host", "K/Linux", "K/host", "unit"))
    for r in rows:
        print(head % (r["group"], r["name"], fmt(r["kobold"], r["unit"]),
                      fmt(r["linux"], r["unit"]), fmt(r["host"], r["unit"]),
                      ratio(r["kobold"], r["linux"]), ratio(r["kobold"], r["host"]), r["unit"]))


def write_csv():
    with open(os.path.join(OUT, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["group", "row", "kobold", "linux", "host", "unit"])
        for r in rows:
            w.writerow([r["group"], r["name"], r["kobold"], r["linux"], r["host"], r["unit"]])


def plot():
    """Throughput against request size (sequential reads), Kobold and Linux."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot (apt-get install python3-matplotlib)")
        return
    sizes = [(label, kib) for label, kind, kib, _ in IO_ROWS if kind == "seq"]
    fig, ax = plt.subplots(figsize=(6, 4))
    for who, key in (("Kobold", "kobold"), ("Linux", "linux")):
        pts = [(kib, r[key]) for label, kib in sizes for r in rows
               if r["group"] == "virtio-blk" and r["name"] == "read seq " + label
               and r["unit"] == "MiB/s" and r[key]]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=who)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("request size (KiB)")
    ax.set_ylabel("sequential read (MiB/s)")
    ax.set_title("virtio-blk, cache=none, same QEMU")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(OUT, "throughput.png"))


def bench_grading():
    """grade-class on a simulated class (scripts/classgen.py): BENCH_GRADE_STUDENTS students
    (2) handing in every lab (BENCH_GRADE_LABS, a comma-separated list, to time some; BENCH_GRADE_JOBS
    student-labs at a time, grade-class's --jobs), each
    file of each student distinct, so no build or check is shared; the wall time, the CPU
    time and both per student-lab (make grade-bench: the class of 120, alone on the machine)."""
    import json
    import shutil
    import tempfile
    n = int(os.environ.get("BENCH_GRADE_STUDENTS", "2"))
    labs = os.environ.get("BENCH_GRADE_LABS", "")
    work = tempfile.mkdtemp(prefix="kobold-bench-grade-")
    try:
        subprocess.run([sys.executable, os.path.join(HERE, "classgen.py"), os.path.join(work, "class"), str(n)]
                       + (["--labs", labs] if labs else []), check=True, stdout=subprocess.DEVNULL)
        load0 = os.getloadavg()[0]
        r = subprocess.run([sys.executable, os.path.join(HERE, "grade-class"), os.path.join(work, "class"),
                            "--out", os.path.join(work, "g")] + (["--labs", labs] if labs else [])
                           + (["--jobs", os.environ["BENCH_GRADE_JOBS"]] if os.environ.get("BENCH_GRADE_JOBS") else []),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode:
            print("grade-class failed:\n" + r.stdout[-2000:])
            return
        with open(os.path.join(work, "g.json")) as f:
            data = json.load(f)
        print("\n".join(l for l in r.stdout.split("\n") if l.startswith(("per student-lab:", "files compiled:"))))
        per = max(data["student_labs"], 1)
        nlabs = data["student_labs"] // n
        not_ok = [(row["student"], row["lab"], row["status"]) for row in data["rows"] if row["status"] != "ok"
                  or row["points"] != row["possible"]]
        print("grading: %d students x %d labs, %d jobs: %.0f s wall (%.0f s of it the starting tree's), %.0f s CPU, "
              "load average %.1f to %.1f%s"
              % (n, nlabs, data["jobs"], data["seconds"], data["start_seconds"], data["cpu_seconds"], load0,
                 os.getloadavg()[0],
                 "; not full marks: %s" % not_ok[:6] if not_ok else ""))
        add("grading", "grade-class, wall s (%d x %d labs, %d jobs)" % (n, nlabs, data["jobs"]),
            data["seconds"], "s")
        add("grading", "grade-class, CPU s", data["cpu_seconds"], "s")
        add("grading", "grade-class, s per student-lab (wall)", data["seconds"] / per, "s")
        # Wall seconds move with the host's load; CPU seconds less so (the part that
        # bounds a class on this machine: CPU s / cores per student-lab at best).
        add("grading", "grade-class, CPU s per student-lab", data["cpu_seconds"] / per, "s")
        prof = data["profile"]
        for key, what in (("link", "copying its tree"), ("make", "in make"), ("checkers", "in the checker"),
                          ("boot", "booting (in the checker)"), ("make_cpu", "of CPU in make"),
                          ("checker_cpu", "of CPU in the checker and QEMU")):
            add("grading", "  s per student-lab %s, summed over jobs" % what, prof[key] / per, "s")
        by_lab = {}
        for row in data["rows"]:
            by_lab.setdefault(row["lab"], []).append(row["cpu"]["make"] + row["cpu"]["checker"])
        for lab in sorted(by_lab):
            add("grading", "  CPU s of lab %d (make, checker and QEMU)" % lab,
                sum(by_lab[lab]) / len(by_lab[lab]), "s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parts = os.environ.get("BENCH_PARTS", "boot,disks,user,devmodel,sched,smp,grading").split(",")
    load0 = os.getloadavg()[0]
    if set(parts) & {"boot", "disks", "user", "devmodel", "sched", "smp"}:
        make_disk()
    if "boot" in parts:
        kt, kin = boot_seconds(grub=False)
        add("boot", "-kernel, host (median)", kt, "s")
        add("boot", "-kernel, in kernel", kin, "s")
        gt, _ = boot_seconds(grub=True)
        add("boot", "GRUB, host (median)", gt, "s")
    if "disks" in parts:
        bench_kobold_disks()
        bench_kobold_smp_depth()
        attach_linux()
    if "user" in parts:
        bench_user()
    if "disks" in parts or "user" in parts:
        attach_host()
    if "devmodel" in parts:
        bench_devmodel()
    if "sched" in parts:
        bench_sched()
    if "smp" in parts:
        bench_smp()
    if "grading" in parts:
        bench_grading()
    print_table()
    print("host load average (1 min): %.1f at the start, %.1f at the end, on %d CPUs"
          % (load0, os.getloadavg()[0], os.cpu_count()))
    os.makedirs(OUT, exist_ok=True)
    write_csv()
    if "disks" in parts:
        plot()
    print("wrote %s/results.csv%s" % (os.path.relpath(OUT, ROOT), " and throughput.png" if "disks" in parts else ""))


if __name__ == "__main__":
    main()
