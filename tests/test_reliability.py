"""test_reliability.py: nothing leaks, bad input is refused, faults are survived.

Memory checks (red zones, poison, lkdtm's triggers), fault injection walks
(failslab over every allocation of modprobe sbd, blkstat and virtio_blk, of
every command that help lists; the boot's: tests/long_failslab_boot.py),
bad input over the serial port, and load/unload cycles with files held open.
Each check compares the kernel's own figures before and after: meminfo's
bytes and objects in use, the kobjects listing, /sys/kernel/uevent_seqnum and
the sysfs tree. KOBOLD_SOAK_CYCLES sets the cycles (make soak: 1000).

The walks compare the memory figures after each failed allocation, and the
kobjects (and for the module walks the sysfs tree: their output is what takes
the time) once at the end of each walk: a kobject or a directory left behind
stays, so the end sees it. KOBOLD_WALK_FULL=1 (make failslab-walk) compares everything after
each allocation, which names the one that leaked, and walks the module loads
of the every-command walk to their end.
"""
import os
import re
import time

import pytest

import kobold

DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"
LOG_LINE = re.compile(r"^\[\s*\d+\.\d+\] ")
SOAK_CYCLES = int(os.environ.get("KOBOLD_SOAK_CYCLES", "50"))
FULL = os.environ.get("KOBOLD_WALK_FULL") == "1"
# make test walks the first WALK_MAX allocations of the loads that the walks
# above already go through to the end; make failslab-walk all of them
WALK_MAX = int(os.environ.get("KOBOLD_WALK_MAX", "1000" if FULL else "24"))
WHERE = "make failslab-walk compares after each allocation and names the one"


def fast(k):
    """pexpect waits 50 ms before each send by default; the UART needs no such pause."""
    k.child.delaybeforesend = None
    return k


def shell_lines(out):
    """What a command printed, without the kernel log lines that came meanwhile."""
    return [l for l in out.strip().split("\n") if l and not LOG_LINE.match(l)]


def state(k):
    """snapshot() and the trees a half-made device would show up in."""
    s = k.snapshot()
    s["tree"] = k.run("tree /sys/class") + k.run("tree /sys/bus") + k.run("tree /sys/devices")
    return s


def memory(k):
    """meminfo's bytes and objects in use: what a failed allocation's leak changes,
    once udevd has handled the events so far (they are handled beside commands)."""
    k.run("udevadm settle")
    mem = dict(re.findall(r"^(\w+):\s+(\d+)$", k.run("meminfo"), re.M))
    return int(mem["BytesInUse"]), int(mem["ObjectsInUse"])


def same(a, b):
    """The keys that differ, ignoring the event number (events are checked apart)."""
    return {key: (a[key], b[key]) for key in a if key != "seqnum" and a[key] != b[key]}


def new_events(k, since):
    """The events after seqnum since, as (action, devpath) from udevadm monitor --journal."""
    now = int(k.run("cat /sys/kernel/uevent_seqnum"))
    if now == since:
        return [], now
    lines = k.run("udevadm monitor --journal").strip().split("\n")[-(now - since):]
    events = [tuple(re.match(r"KERNEL\[[\d.]+\] (\w+)\s+(\S+)", l).groups()) for l in lines]
    return events, now


def assert_balanced(events):
    """Every device announced during a failed load was taken back, in order."""
    live = {}
    for action, path in events:
        live[path] = live.get(path, 0) + (1 if action == "add" else -1)
        assert live[path] in (0, 1), events
    assert all(v == 0 for v in live.values()), events


# -- memory checks --------------------------------------------------------------

def test_meminfo_v_lists_every_live_object_by_site(kernel):
    mem = dict(re.findall(r"^(\w+):\s+(\d+)$", kernel.run("meminfo"), re.M))
    rows = re.findall(r"^\s*(\d+)\s+(\d+)\s+(\S+)$", kernel.run("meminfo -v"), re.M)
    assert sum(int(b) for b, _, _ in rows) == int(mem["BytesInUse"]), rows
    assert sum(int(o) for _, o, _ in rows) == int(mem["ObjectsInUse"]), rows
    sites = [s for _, _, s in rows]
    assert any(s.startswith("sbd_init+") for s in sites), sites
    assert all(re.match(r"[\w.]+\+0x[0-9a-f]+/0x[0-9a-f]+$", s) for s in sites), sites  # .part.0: a clone


def test_meminfo_c_checks_every_object(kernel):
    out = kernel.run("meminfo -c").strip()
    m = re.match(r"kmem_check: (\d+) objects checked, 0 damaged$", out)
    assert m and int(m.group(1)) > 100, out
    assert "usage: meminfo [-v] [-c]" in kernel.run("meminfo -c -v")


def test_lkdtm_lists_its_crash_types(kernel):
    out = kernel.run("cat " + DIRECT).split("\n")
    assert out[0] == "Available crash types:"
    for t in ("NULL_DEREF", "SLAB_LINEAR_OVERFLOW", "WRITE_AFTER_FREE", "READ_AFTER_FREE",
              "SLAB_FREE_DOUBLE"):
        assert t in out
    seq = kernel.run("cat /sys/kernel/uevent_seqnum")
    assert kernel.run("echo BOGUS > " + DIRECT).strip() == "echo: write error: Invalid argument"
    assert kernel.run("cat /sys/kernel/uevent_seqnum") == seq


def test_slab_overflow_is_reported_at_the_next_prompt_and_survived(kernel):
    out = kernel.run("echo SLAB_LINEAR_OVERFLOW > " + DIRECT)
    assert re.search(r"BUG: kmalloc: red zone overwritten \(buffer overflow\) in object "
                     r"0x[0-9a-f]+ \(1024 bytes, kmalloc-2k\)", out), out
    assert "first bad byte at offset 1024: 0x78" in out, out
    assert re.search(r"allocated at lkdtm_SLAB_LINEAR_OVERFLOW\+0x[0-9a-f]+/", out), out
    assert re.search(r"from direct_store\+", out), out
    assert re.search(r"Call Trace:\n.*\[<[0-9a-f]{8}>\] kmem_check\+", out, re.S), out
    assert "FIX kmalloc-2k: red zones restored" in out
    # reported once, then repaired: the next checks are clean and the kernel goes on
    assert kernel.run("meminfo -c").strip().endswith(", 0 damaged")
    assert "BUG" not in kernel.run("echo still here")
    assert kernel.run("cat /sys/class/sbd/sbd0/version").strip() == "1.0"


def test_write_after_free_is_reported_with_both_sites(kernel):
    out = kernel.run("echo WRITE_AFTER_FREE > " + DIRECT)
    assert re.search(r"BUG: kmalloc: write after free in object 0x[0-9a-f]+ \(1024 bytes", out), out
    assert "first bad byte at offset 512: 0xf0" in out, out
    assert re.search(r"allocated at lkdtm_WRITE_AFTER_FREE\+", out), out
    assert re.search(r"freed at lkdtm_WRITE_AFTER_FREE\+", out), out
    assert "FIX kmalloc-2k: poison restored" in out
    assert kernel.run("meminfo -c").strip().endswith(", 0 damaged")
    kernel.run("rmmod sbd")
    kernel.run("modprobe sbd")  # reuses freed objects: their poison is checked again
    assert "BUG" not in kernel.run("ls /sys/class/sbd")


def test_read_after_free_sees_poison_and_double_free_is_refused(kernel):
    before = kernel.snapshot()
    assert "memory correctly poisoned (0x6b6b6b6b)" in kernel.run("echo READ_AFTER_FREE > " + DIRECT)
    out = kernel.run("echo SLAB_FREE_DOUBLE > " + DIRECT)
    assert re.search(r"BUG: kfree\(0x[0-9a-f]+\): double free", out), out
    assert re.search(r"first freed at lkdtm_SLAB_FREE_DOUBLE\+", out), out
    assert re.search(r"\] lkdtm_SLAB_FREE_DOUBLE\+", out), out
    assert kernel.snapshot() == before  # the second kfree changed nothing


def test_overflow_at_boot_is_found_at_the_first_prompt(boot_with):
    k = boot_with("lkdtm.crash=SLAB_LINEAR_OVERFLOW")
    text = k.transcript()
    assert re.search(r"red zone overwritten.*allocated at lkdtm_SLAB_LINEAR_OVERFLOW\+.*"
                     r"from lkdtm_run\+", text, re.S), text
    assert text.index("red zone overwritten") < text.index("kobold:/# ")
    assert k.run("echo alive").strip() == "alive"


# -- fault injection ------------------------------------------------------------

def test_failslab_command_and_its_errors(kernel):
    k = fast(kernel)
    assert k.run("failslab").split("\n")[:2] == ["off", "injected: 0"]
    k.run("failslab 3")
    assert k.run("failslab").startswith("armed: allocation 3 from now fails")
    k.run("failslab off")
    assert k.run("failslab").startswith("off")
    for bad in ("0", "-1", "x", "99999999999"):
        assert k.run("failslab " + bad).strip() == \
            "failslab: invalid count '%s' (want N >= 1, or off)" % bad
    assert k.run("failslab 2 nosuch").strip() == "failslab: nosuch: command not found"
    assert k.run("failslab 5 echo hi").split("\n")[:2] == \
        ["hi", "failslab: echo made fewer than 5 allocations: nothing failed"]
    assert k.run("failslab").startswith("off")
    mem = dict(re.findall(r"^(\w+):\s+(\d+)$", k.run("meminfo"), re.M))
    assert mem["Failures"] == "0"


def test_failslab_nth_on_the_command_line(boot_with):
    """failslab.nth= counts the boot thread's allocations (the threads beside it
    vary from boot to boot): the boot thread, become ttyS0's shell, counts on."""
    far = 1000000
    k = fast(boot_with("failslab.nth=%d" % far))
    left = int(re.match(r"armed: allocation (\d+) from now fails", k.run("failslab")).group(1))
    k.close()
    used = far - left  # the boot thread's allocations to the first command's answer
    # Armed at parse time, before the first allocation. The count varies by a
    # few from boot to boot (the boot thread handles some of the boot's events
    # itself, as udevadm settle does, and events/0 the others), hence the margins.
    k = fast(boot_with("failslab.nth=%d" % (used + 40)))
    m = re.match(r"armed: allocation (\d+) from now fails\n", k.run("failslab"))
    assert m and 0 < int(m.group(1)) <= 80, m
    # one of the last allocations of the boot fails: reported, and the boot goes on
    k = fast(boot_with("failslab.nth=%d" % (used - 40)))
    assert "FAULT_INJECTION: forcing a failure" in k.transcript()
    assert k.run("failslab").split("\n")[:2] == ["off", "injected: 1"]
    assert k.run("echo alive").strip() == "alive"


def walk(k, load, unload, error):
    """Fails allocation 1, 2, ... of `load` until it makes no more; returns the records.

    A failed load must print `error` and leave memory as it was; the events it
    sent must cancel out. A load that survives its failure must say what it
    did without (a warning line), and unload to the same memory. At the end
    the kobjects and the sysfs tree must be as before too (after each step
    with KOBOLD_WALK_FULL=1).
    """
    base = state(k)
    base_memory = base["BytesInUse"], base["ObjectsInUse"]
    seq = base["seqnum"]
    records = []

    def unchanged():
        return same(base, state(k)) == {} if FULL else memory(k) == base_memory

    for n in range(1, 1000):
        out = k.run("failslab %d %s" % (n, load))
        if "nothing failed" in out:
            assert shell_lines(out) == ["failslab: %s made fewer than %d allocations: nothing failed"
                                        % (load.split()[0], n)], out
            k.run(unload)
            assert same(base, state(k)) == {}, WHERE
            return records
        m = re.search(r"FAULT_INJECTION: forcing a failure: kmalloc\(\d+\)\n.*?  at (\S+)\+", out, re.S)
        assert m, out
        assert "WARNING" not in out and "BUG" not in out, out
        if shell_lines(out):
            assert shell_lines(out) == [error], out
            assert unchanged(), "allocation %d (%s):\n%s" % (n, m.group(1), out)
            events, seq = new_events(k, seq)
            assert_balanced(events)
            records.append((n, m.group(1), "refused", len(events)))
        else:
            # Absorbed, and said: an event not sent, a hotplug helper not run, ...
            said = r"failed|not sent|could not|no serial|no memory|no shell|Cannot allocate memory"
            assert re.search(said, out.split(m.group(0))[1]), out
            unloaded = k.run(unload)
            assert "WARNING" not in unloaded and "BUG" not in unloaded, unloaded
            assert unchanged(), "allocation %d (%s):\n%s" % (n, m.group(1), out)
            seq = int(k.run("cat /sys/kernel/uevent_seqnum"))
            records.append((n, m.group(1), "degraded", 0))
    raise AssertionError("the walk did not end")


def test_failslab_walk_modprobe_sbd(boot_with):
    k = fast(boot_with())
    k.run("rmmod sbd")
    records = walk(k, "modprobe sbd nr=2 size=64", "rmmod sbd",
                   "modprobe: ERROR: could not insert 'sbd': Cannot allocate memory")
    refused = [r for r in records if r[2] == "refused"]
    # A /dev node that cannot be made is logged and the disk stays, as with Linux's devtmpfs;
    # so does an event udevd cannot queue (the kernel's side is whole, udev misses it), and
    # one whose hotplug helper cannot be started (logged, as 2.6's kobject_hotplug went on).
    node_sites = {"ramfs_new_inode", "udevd_listen", "call_usermodehelper"}
    assert len(records) >= 40, records
    assert len(refused) >= len([r for r in records if r[1] not in node_sites]) * 3 // 4, records
    assert {"sbd_init", "alloc_disk", "sysfs_create_dir", "sysfs_new_dirent"} <= \
        {r[1] for r in records}, records
    # Another module's class interface may fail its add without failing the disk (logged):
    # a lab's (lab 3's blkinfo_add allocates) as well as blkstat's.
    others = {l.split()[0] + "_add" for l in k.run("lsmod").split("\n")[1:] if l.strip()} - {"sbd_add"}
    degraded = {r[1] for r in records if r[2] == "degraded"} - others
    assert degraded <= {"kobject_hotplug", "sysfs_new_dirent"} | node_sites, records
    assert shell_lines(k.run("modprobe sbd")) == [] and "sbd0" in k.run("ls /sys/class/block")


def test_failslab_walk_modprobe_blkstat(boot_with):
    k = fast(boot_with("sbd.nr=3 sbd.size=64"))
    k.run("rmmod blkstat")
    records = walk(k, "modprobe blkstat", "rmmod blkstat",
                   "modprobe: ERROR: could not insert 'blkstat': Cannot allocate memory")
    assert len(records) == 6 and all(r[2] == "refused" for r in records), records
    k.run("modprobe blkstat")
    assert all("stat" in k.run("ls /sys/class/block/sbd%d" % i).split() for i in range(3))


@pytest.fixture
def virtio_disk(tmp_path):
    path = tmp_path / "vd.img"
    with open(path, "wb") as f:
        f.truncate(1024 * 1024)
    return ["-drive", "file=%s,if=none,id=vd0,format=raw" % path,
            "-device", "virtio-blk-pci,drive=vd0,serial=KOBOLD-REL"]


# The panics of the boot (kernel/main.c) for the parts it cannot do without, as
# 2.6's boot panics when an early allocation (alloc_bootmem) fails.
ESSENTIAL = re.compile(r"PANIC: .*(sched_init: no memory for the idle thread|kthreadd: no memory|"
                       r"(the device model|the VFS|the block layer) could not start)")
# Without ttyS0's line or its shell the boot goes on, its shell on the screen (tty0) or
# none on ttyS0 at all, as 2.6's init ran on with whatever console it had.
NO_SERIAL_SHELL = r"no ttyS0: the boot shell is on \w+|Warning: unable to open an initial console\."
# [\w.]: GCC's clones have dots in their names (device_create_vargs.part.0).
FORCED = re.compile(r"forcing a failure: kmalloc\(\d+\)\n[^\n]*? at ([\w.]+)\+(?:.*\n)[^\n]*from ([\w.]+)")


def failslab_boot(n, qemu_args):
    """A boot with failslab.nth=n: it stops with the panic of a part it cannot do
    without ("panic"), or reaches the prompt with no BUG or WARNING, before and
    after kobjects walks every live kobject and meminfo -c checks every object,
    the failure seen ("failed") or still to come ("done": the boot made fewer); or,
    ttyS0's line or shell not made, its shell elsewhere and no BUG or WARNING said
    ("elsewhere": the serial port has no shell to check more through)."""
    k = kobold.Kobold("failslab.nth=%d" % n, qemu_args=qemu_args)
    try:
        try:
            if k.expect([kobold.PROMPT, NO_SERIAL_SHELL]) == 1:
                text = k.transcript()
                assert "BUG" not in text and "WARNING" not in text, text[-3000:]
                return "elsewhere"
        except kobold.KernelPanic:
            assert ESSENTIAL.search(k.transcript()), k.transcript()[-3000:]
            return "panic"
        text = k.transcript()
        m = FORCED.search(text)
        if m and m.group(2) in ("time_init", "serial8250_probe", "i8042_probe"):
            assert re.search(r"\] \w+: no interrupt: ", text), text[-3000:]  # said, not silent
        done = fast(k).run("failslab").startswith("armed")
        assert m or done, "failslab.nth=%d: no failure seen:\n%s" % (n, text[-3000:])
        if done:
            k.run("failslab off")  # the walk's end: the checks below must not fail instead
        classes = shell_lines(k.run("ls /sys/class"))
        for c in ("tty", "rtc", "input", "misc"):  # each tried, whatever became of the others
            assert c in classes or "%s: class not registered" % c in text, \
                "failslab.nth=%d: no /sys/class/%s and no word why:\n%s" % (n, c, text[-3000:])
        out = k.run("kobjects") + k.run("meminfo -c")
        text = k.transcript()
        assert "BUG" not in text and "WARNING" not in text, "failslab.nth=%d:\n%s" % (n, text[-3000:])
        assert out.startswith("REFS STATE") and out.strip().endswith(", 0 damaged"), out
        return "done" if done else "failed"
    finally:
        k.close()


def test_failslab_boot_sample(virtio_disk):
    """make failslab-boot's check on a boot past its end and on four boots of its
    walk that it once failed (where they were when found; they move as the boot
    changes): the idle thread's panic (2), a failure in a GCC clone,
    device_create_vargs.part.0 (122), ttyS0's tty (190: once the shell's panic, now
    the boot shell on tty0), and the rtc class (299: rtc_cmos's registration oopsed
    on the class's ERR_PTR, and the input and misc classes were not tried after it)."""
    for n in (2, 122, 190, 299):
        assert failslab_boot(n, virtio_disk) in ("panic", "failed", "elsewhere"), n
    assert failslab_boot(100000, virtio_disk) == "done"  # the walk's end


def test_failslab_walk_virtio_blk_probe(boot_with, virtio_disk):
    k = fast(boot_with(qemu_args=virtio_disk))
    assert "vda" in k.run("ls /sys/class/block"), k.transcript()
    k.run("rmmod virtio_blk")
    records = walk(k, "modprobe virtio_blk", "rmmod virtio_blk",
                   "modprobe: ERROR: could not insert 'virtio_blk': Cannot allocate memory")
    assert len(records) >= 10, records
    k.run("modprobe virtio_blk")
    assert k.run("cat /sys/class/block/vda/serial").strip() == "KOBOLD-REL"


def test_failslab_walk_virtio_console_probe(boot_with, tmp_path):
    """Every allocation of virtio_console's probe (the tty, the queues, the buffers, the
    /dev node) fails in turn: each failure unwinds to where it started, and the console
    works once the module loads whole."""
    sock = str(tmp_path / "hvc.sock")
    k = fast(boot_with(qemu_args=[
        "-chardev", "socket,id=hvc0,path=%s,server=on,wait=off" % sock,
        "-device", "virtio-serial-pci", "-device", "virtconsole,chardev=hvc0"]))
    assert "hvc0" in k.run("ls /sys/class/tty"), k.transcript()
    k.run("rmmod virtio_console")
    records = walk(k, "modprobe virtio_console", "rmmod virtio_console",
                   "modprobe: ERROR: could not insert 'virtio_console': Cannot allocate memory")
    assert len(records) >= 10, records
    k.run("modprobe virtio_console")
    assert k.run("ls -l /dev/hvc0") == "crw-------    229,   0 /dev/hvc0\n"


# -- the failslab walk over every command ---------------------------------------

# Commands the walk leaves out, and why. Every other command in `help` is walked.
WALK_EXCLUDED = {
    "poweroff": "ends the machine: nothing is left to compare",
    "reboot": "ends the machine: nothing is left to compare",
    "failslab": "the walker itself: failslab N failslab M ... only re-arms the count",
}
# Lines that make test walks only up to allocation WALK_MAX (make failslab-walk:
# to the end): the module loads, walked to the end by the walks above, and the
# long readers, whose later allocations read one more attribute or directory
# through the sites their first ones reach (checked below).
BOUNDED = ("modprobe ", "udevadm info -a ", "tree ")
# Writes to lkdtm's DIRECT are left out too: they damage memory on purpose, and
# a `BUG` is what they are for (test_slab_overflow_... and the others above).
SBD = "sbd nr=2 size=64"
RTC_DRV = "/sys/bus/platform/drivers/rtc_cmos"
RTC_REBIND = ("echo rtc_cmos > %s/unbind" % RTC_DRV, "echo rtc_cmos > %s/bind" % RTC_DRV)


def walk_cases(vda_pci):
    """command -> [(setup lines, the line walked, lines that restore the baseline)]."""
    pci = "/sys/bus/pci/devices/" + vda_pci
    ro, version = "/sys/class/sbd/sbd1/ro", "/sys/class/sbd/sbd0/version"
    replug = ("echo 1 > %s/remove" % pci, "echo 1 > /sys/bus/pci/rescan")  # a failed probe too
    return {
        "help": [((), "help", ())],
        "readers": [((), "readers start /sys/class/sbd/sbd0/dev", ("readers stop",))],
        "echo": [((), "echo hi there", ()),
                 ((), "echo data > /tmp/f", ("rm -f /tmp/f",)),
                 ((), "echo 1 > " + ro, ("echo 0 > " + ro,)),
                 ((), "echo change > /sys/class/block/vda/uevent", ()),
                 ((), "echo add > /sys/class/sbd/sbd0/uevent", ()),
                 ((), "echo 1 > %s/remove" % pci, replug),
                 (("echo 1 > %s/remove" % pci,), "echo 1 > /sys/bus/pci/rescan", replug),
                 # a probe through bind: rtc_cmos registers rtc0 (its number is reused).
                 # Unbind then bind restores it: a failed driver link only warns, as 2.6's.
                 ((), "echo rtc_cmos > %s/unbind" % RTC_DRV, RTC_REBIND),
                 (("echo rtc_cmos > %s/unbind" % RTC_DRV,), "echo rtc_cmos > %s/bind" % RTC_DRV,
                  RTC_REBIND)],
        "dmesg": [((), "dmesg", ())],
        "meminfo": [((), "meminfo", ()), ((), "meminfo -v", ()), ((), "meminfo -c", ())],
        "open": [((), "open " + ro, ("close 3",))],
        "read": [(("open " + version,), "read 3", ("close 3",))],
        "write": [(("open " + ro,), "write 3 1", ("echo 0 > " + ro, "close 3"))],
        "close": [(("open " + ro,), "close 3", ("close 3",))],
        "fds": [(("open " + ro,), "fds", ("close 3",))],
        "ls": [((), "ls -l /sys/class/block/vda", ()), ((), "ls /sys/bus/pci/devices", ())],
        "cd": [((), "cd /sys/class/block", ("cd /",))],
        "pwd": [((), "pwd", ())],
        "cat": [((), "cat /sys/class/block/vda/size /sys/class/block/sbd0/stat " + DIRECT, ())],
        "tree": [((), "tree /sys/class/block", ())],
        "readlink": [((), "readlink /sys/class/block/vda/device", ()),
                     ((), "readlink -f /sys/class/block/vda/device/block:vda", ())],
        # not plain `udevadm monitor`: it follows events until Ctrl-C
        "udevadm": [((), "udevadm info /sys/class/block/vda", ()),
                    # the journal's own events only: the whole journal is long by then
                    ((), "udevadm monitor --journal -p -s cpu", ()),
                    ((), "udevadm info -a /sys/class/block/vda", ()),
                    ((), "udevadm info -a %s" % pci, ())],
        "kobjects": [((), "kobjects", ())],
        "trace": [((), "trace on", ("trace off",))],
        "lsmod": [((), "lsmod", ())],
        "modprobe": [(("rmmod blkstat",), "modprobe blkstat", ("rmmod blkstat", "modprobe blkstat")),
                     (("rmmod sbd",), "modprobe " + SBD, ("rmmod sbd", "modprobe " + SBD)),
                     (("rmmod virtio_blk",), "modprobe virtio_blk",
                      ("rmmod virtio_blk", "modprobe virtio_blk"))],
        "rmmod": [((), "rmmod blkstat", ("modprobe blkstat",)),
                  ((), "rmmod sbd", ("modprobe " + SBD,)),
                  ((), "rmmod virtio_blk", ("modprobe virtio_blk",))],
        "lsblk": [((), "lsblk", ())],
        "lspci": [((), "lspci", ()), ((), "lspci -n", ())],
        "bench": [((), "bench devmodel 3", ())],
        "blk": [((), "blk read vda 0 2", ()), ((), "blk write sbd1 1 hello", ()),
                ((), "blk flush vda", ()), ((), "blk bench sbd0 write rand 64 1", ()),
                ((), "blk read /dev/vda 0 1", ())],
        # the file commands: each failure must leave the files and the memory as they were
        "mkdir": [((), "mkdir -p /tmp/w/x", ("rm -rf /tmp/w",))],
        "rmdir": [(("mkdir /tmp/w",), "rmdir /tmp/w", ("rm -rf /tmp/w",))],
        "touch": [((), "touch /tmp/t", ("rm -f /tmp/t",))],
        "rm": [(("mkdir -p /tmp/w/x", "touch /tmp/w/x/f"), "rm -r /tmp/w", ("rm -rf /tmp/w",))],
        "mv": [(("touch /tmp/a",), "mv /tmp/a /tmp/b", ("rm -f /tmp/a /tmp/b",))],
        "ln": [((), "ln -s /sys/class /tmp/l", ("rm -f /tmp/l",))],
        "mknod": [((), "mknod /tmp/n c 1 3", ("rm -f /tmp/n",))],
        "stat": [((), "stat /dev/vda /sys/class/block/vda/dev /tmp", ())],
        "mount": [((), "mount", ()), ((), "mount -t tmpfs none /mnt", ("umount /mnt",))],
        "umount": [(("mount -t tmpfs none /mnt",), "umount /mnt", ("umount /mnt",))],
        "df": [((), "df", ())],
        "dd": [((), "dd if=/dev/vda of=/tmp/d bs=4k count=2", ("rm -f /tmp/d",)),
               ((), "dd if=/dev/zero of=/dev/null count=3", ())],
        "hexdump": [((), "hexdump -C -n 64 /dev/vda", ())],
        "blockdev": [((), "blockdev --rereadpt vda", ()), ((), "blockdev --getsz vda", ())],
    }


def help_commands(k):
    """The command names `help` lists, as the shell prints them now."""
    names = [m.group(1) for m in re.finditer(r"^\s*([a-z][\w-]*)\b", k.run("help"), re.M)]
    assert {"help", "echo", "failslab", "kobjects"} <= set(names), names
    return sorted(set(names))


def walk_state(k):
    """snapshot() without the event number, the kobjects in a fixed order (a
    module loaded again registers its objects later than the rest)."""
    s = k.snapshot()
    del s["seqnum"]
    s["kobjects"] = sorted(s["kobjects"].strip().split("\n"))
    return s


def walk_diff(base, after):
    """What differs, in a few lines: the figures, and the kobjects gone or new."""
    lines = ["%s: %s -> %s" % (key, base[key], after[key])
             for key in ("BytesInUse", "ObjectsInUse") if base[key] != after[key]]
    lines += ["gone: " + l for l in sorted(set(base["kobjects"]) - set(after["kobjects"]))]
    lines += ["new:  " + l for l in sorted(set(after["kobjects"]) - set(base["kobjects"]))]
    return "\n".join(lines)


def run_lines(k, lines):
    for line in lines:
        out = k.run(line)
        assert "BUG" not in out and "WARNING" not in out, (line, out)


def walk_line(k, base, setup, line, restore, max_n):
    """failslab N LINE for N = 1, 2, ... until nothing fails (or max_n); after
    each, the baseline is restored and nothing reported a BUG. Returns the
    number of allocations walked and the sites that failed."""
    name = line.split()[0]
    sites = set()
    for n in range(1, max_n + 1):
        run_lines(k, setup)
        out = k.run("failslab %d %s" % (n, line), timeout=60)
        run_lines(k, restore)
        assert "BUG" not in out and "WARNING" not in out, "%s, allocation %d:\n%s" % (line, n, out)
        if FULL:
            after = walk_state(k)
            assert after == base, "%s, allocation %d left:\n%s\n%s" % (line, n, walk_diff(base, after), out)
        else:
            after = memory(k)
            assert after == (base["BytesInUse"], base["ObjectsInUse"]), \
                "%s, allocation %d left %s:\n%s" % (line, n, after, out)
        if "%s made fewer than %d allocations: nothing failed" % (name, n) in out:
            break
        m = re.search(r"FAULT_INJECTION: forcing a failure: kmalloc\(\d+\)\n[^\n]*? at (\w+)", out)
        assert m, "%s, allocation %d: no fault and no end:\n%s" % (line, n, out)
        sites.add(m.group(1))
    else:
        n = max_n + 1
    after = walk_state(k)  # a kobject or a directory left behind stays: seen here
    assert after == base, "%s left:\n%s\n%s" % (line, walk_diff(base, after), WHERE)
    return n - 1, sites


def failslab_walk(k, bounded, max_n):
    """Walks every command in help (but WALK_EXCLUDED), the lines that start
    with one of bounded only up to allocation max_n; returns
    {line: (allocations, sites)}."""
    vda_pci = k.run("readlink -f /sys/class/block/vda/device").strip().split("/")[-2]
    assert re.match(r"0000:00:[0-9a-f]{2}\.\d$", vda_pci), vda_pci
    cases = walk_cases(vda_pci)
    commands = [c for c in help_commands(k) if c not in WALK_EXCLUDED]
    # a command help lists that the table does not know is walked with no arguments
    plan = [case for c in commands for case in cases.get(c, [((), c, ())])]
    for setup, line, restore in list(plan):  # warm up: what a first run keeps is not a leak
        run_lines(k, setup)
        out = k.run(line)
        run_lines(k, restore)
        assert "BUG" not in out and "WARNING" not in out, (line, out)
        if line.split()[0] not in cases and "%s: command not found" % line in out:
            plan.remove((setup, line, restore))  # a word of help's text, not a command
    base = walk_state(k)
    walked = {}
    for setup, line, restore in plan:
        start = time.time()
        n, sites = walk_line(k, base, setup, line, restore,
                             max_n if line.startswith(bounded) else 1000)
        walked[line] = (n, sites, time.time() - start)
    return walked


def test_failslab_walk_every_command(boot_with, virtio_disk):
    """Every command in help, allocation 1, 2, ... failing until none does: no
    BUG, and the baseline back after each. The three module loads walked to
    the end above, and the long readers (BOUNDED), stop at WALK_MAX here
    (make failslab-walk: at the end)."""
    k = fast(boot_with("sbd.nr=2 sbd.size=64", qemu_args=virtio_disk))
    start = time.time()
    walked = failslab_walk(k, BOUNDED, WALK_MAX)
    for line, (n, sites, seconds) in sorted(walked.items()):
        print("%4d %5.1fs %-50s %s" % (n, seconds, line, " ".join(sorted(sites))))
    print("%d lines, %d allocations failed in %.1f s" %
          (len(walked), sum(w[0] for w in walked.values()), time.time() - start))
    # the regression: a class device freed with kfree after a failed register
    assert walked["bench devmodel 3"][0] >= 10, walked
    # sysfs stores are reached through the redirection, and so is a probe
    assert "sysfs_write" in walked["echo 1 > /sys/class/sbd/sbd1/ro"][1], walked
    assert "kobject_hotplug" in walked["echo change > /sys/class/block/vda/uevent"][1], walked
    rescan = walked["echo 1 > /sys/bus/pci/rescan"][1]
    assert {"pci_scan_bus", "virtio_pci_probe", "virtblk_probe", "vp_setup_vq"} <= rescan, walked
    # the bounded readers reach every site their whole walk does
    reader = {"cmd_udevadm_info", "sh_vprintf", "sysfs_get_inode", "sysfs_open", "sysfs_read"}
    assert reader <= walked["udevadm info -a /sys/class/block/vda"][1], walked
    pci = next(l for l in walked if l.startswith("udevadm info -a /sys/bus/pci/"))
    assert reader | {"walk_component"} <= walked[pci][1], walked
    assert {"cmd_tree", "sysfs_get_inode", "tree_walk", "__vfs_open_path", "vfs_readdir"} <= \
        walked["tree /sys/class/block"][1], walked
    assert all(w[0] < 1000 for w in walked.values()), walked  # every walk came to its end


def test_failslab_covers_the_redirection_of_its_command(kernel):
    k = fast(kernel)
    ro = "/sys/class/sbd/sbd0/ro"
    before = state(k)
    # the redirection's allocations: an inode for each of class, sbd, sbd0 and ro on the
    # way, the open file, sysfs's open file, then sysfs_write's page (the 7th)
    out = k.run("failslab 7 echo 1 > " + ro)
    assert re.search(r"forcing a failure: kmalloc\(\d+\)\n.* at sysfs_write\+", out), out
    assert shell_lines(out) == ["echo: write error: Cannot allocate memory"], out
    assert k.run("cat " + ro).strip() == "0"
    out = k.run("failslab 8 echo 1 > " + ro)
    assert shell_lines(out) == ["failslab: echo made fewer than 8 allocations: nothing failed"], out
    assert k.run("cat " + ro).strip() == "1"
    k.run("echo 0 > " + ro)
    assert k.run("failslab").split("\n")[:2] == ["off", "injected: 1"]
    assert same(before, state(k)) == {}


# -- bad input ------------------------------------------------------------------

def assert_unchanged(k, before):
    assert same(before, state(k)) == {}
    assert k.snapshot()["seqnum"] == before["seqnum"]


def test_control_bytes_escapes_and_binary_change_nothing(kernel):
    k = fast(kernel)
    before = state(k)
    fd = k.child.child_fd
    every_byte = bytes(b for b in range(256) if b not in (0x03, 0x0a, 0x0d, 0x1b))
    os.write(fd, b"echo " + every_byte[:200] + b"\r")
    k.wait_prompt()
    os.write(fd, every_byte[200:] + b"\x1b[1;5A\x1b[200~\x1b]0;title\x07\x1bP\x1b[\x1bO\r")
    k.wait_prompt()
    os.write(fd, b"\x1b" * 50 + b"[" * 50 + b"\x15\r")
    k.wait_prompt()
    assert "PANIC" not in k.transcript()
    assert k.run("echo alive").strip() == "alive"
    assert_unchanged(k, before)


def test_longest_line_is_taken_one_more_is_refused(kernel):
    k = fast(kernel)
    before = state(k)
    line = "echo " + "a" * (1023 - 5)
    assert k.run(line).strip() == "a" * 1018
    out = k.run(line + "b")
    assert out.strip().endswith("kobold: line too long (at most 1023 characters)"), out[-200:]
    k.send("echo " + "z" * 5000 + "\recho after\r")
    k.wait_prompt()
    k.wait_prompt()
    assert "after" in k.output()
    assert_unchanged(k, before)


def test_paths_with_many_dot_dots(kernel):
    k = fast(kernel)
    before = state(k)
    ups = "../" * 300
    assert k.run("cat /sys/class/" + ups + "sys/kernel/uevent_seqnum").strip() == \
        str(before["seqnum"])
    k.run("cd /sys/class/sbd/sbd0")
    k.run("cd " + ups)
    assert k.cwd() == "/"
    assert k.run("ls " + "/.." * 300).split() == ["dev", "etc", "mnt", "proc", "sys", "tmp"]
    out = k.run("cat /sys/" + "x" * 300)
    assert out.strip() in ("cat: /sys/%s: File name too long" % ("x" * 300),
                           "cat: /sys/%s: No such file or directory" % ("x" * 300)), out
    out = k.run("cd /sys/" + "nope/../" * 100)
    assert out.strip().endswith("No such file or directory"), out
    assert k.cwd() == "/"
    assert_unchanged(k, before)


def test_oversized_writes_to_attributes_are_refused(boot_with):
    k = fast(boot_with("sbd.nr=8"))
    before = state(k)
    assert len(k.run("tree /sys")) > 4096
    # the whole output goes to store() 4095 bytes at a time, which refuses the first
    assert k.run("tree /sys > /sys/class/sbd/sbd0/ro").strip() == \
        "tree: write error: Invalid argument"
    for cmd in ("help", "udevadm info -a /sys/class/block/sbd0", "kobjects"):
        out = k.run(cmd + " > /sys/class/sbd/sbd0/ro").strip()
        assert out == "%s: write error: Invalid argument" % cmd.split()[0], out
    assert k.run("cat /sys/class/sbd/sbd0/ro").strip() == "0"
    k.run("open /sys/class/sbd/sbd0/ro")
    out = k.run("write 3 " + " ".join(["1" * 30] * 30))
    assert out.strip() == "write: /sys/class/sbd/sbd0/ro: Invalid argument", out
    k.run("close 3")
    assert k.run("cat /sys/class/sbd/sbd0/ro").strip() == "0"
    assert_unchanged(k, before)


def test_unknown_fds_devices_and_out_of_range_sectors(kernel):
    k = fast(kernel)
    k.run('blk write sbd0 8191 "last sector"')
    before = state(k)
    for fd in ("0", "2", "3", "18", "19", "99", "-1", "4294967299", "0x3", ""):
        for cmd in ("read", "close"):
            out = k.run("%s %s" % (cmd, fd)).strip()
            assert out in ("%s: %s: Bad file descriptor" % (cmd, fd), "usage: %s FD" % cmd), out
    assert k.run("write 7 x").strip() == "write: 7: Bad file descriptor"
    for dev in ("sbd9", "vdz", "nosuch", "../sbd0", "sbd0/"):
        assert k.run("blk read %s 0" % dev).strip() == "blk: %s: No such device" % dev
    for args, err in (("read sbd0 8192", "blk: sbd0: Invalid argument"),
                      ("read sbd0 8191 2", "blk: sbd0: Invalid argument"),
                      ("read sbd0 18446744073709551615", "blk: sbd0: Invalid argument"),
                      ("read sbd0 18446744073709551616", "blk: invalid sector '18446744073709551616'"),
                      ("read sbd0 8191 4294967297", "blk: sbd0: Invalid argument"),
                      ("read sbd0 1 0", "blk: sbd0: Invalid argument"),
                      ("read sbd0 -1", "blk: invalid sector '-1'"),
                      ("write sbd0 8192 x", "blk: sbd0: Invalid argument"),
                      ("write sbd0 18446744073709551615 x", "blk: sbd0: Invalid argument")):
        assert k.run("blk " + args).strip() == err, args
    assert "|last sector" in k.run("blk read sbd0 8191")
    for path in ("/sys/nope", "/sys/class/block/vdq", "/sys/class/sbd/sbd0/version/x"):
        assert "udevadm" in k.run("udevadm info " + path) or "No such" in k.run("udevadm info " + path)
    assert_unchanged(k, before)


# -- load -----------------------------------------------------------------------

def cycle_script(virtio):
    """One load/unload cycle of every module, files held open across it. A file
    pins its own module (sbd's ro), so each is closed before its module goes;
    files of the core (size) or of another module (blkstat's stat) outlive the disk."""
    opened = ["/sys/class/sbd/sbd0/ro", "/sys/class/block/sbd0/stat", "/sys/class/block/sbd0/size"]
    if virtio:
        opened.append("/sys/class/block/vda/size")
    lines = ["open " + p for p in opened]
    lines += ["close 3", "rmmod sbd", "read 4", "read 5", "close 4", "rmmod blkstat"]
    lines += (["rmmod virtio_blk"] if virtio else [])
    lines += (["modprobe virtio_blk"] if virtio else []) + ["modprobe blkstat", "modprobe sbd"]
    lines += ["close %d" % (5 + i) for i in range(len(opened) - 2)]
    return lines


def run_cycles(k, lines, cycles):
    """Types a whole cycle at once (the console buffers it), then waits for its prompts."""
    text = "\r".join(lines) + "\r"
    assert len(text) < 1000  # the console's input ring holds 1024 bytes
    for i in range(cycles):
        k.send(text)
        for _ in lines:
            k.wait_prompt()
        out = k.output()
        if i == 0:
            first = k.child.before
        assert "ERROR" not in out and "BUG" not in out and "WARNING" not in out, out
    return first


def test_load_unload_cycles_with_open_files(boot_with, virtio_disk):
    k = fast(boot_with(qemu_args=virtio_disk))
    virtio = "vda" in k.run("ls /sys/class/block")
    lines = cycle_script(virtio)
    transcript = len(k.transcript())
    run_cycles(k, lines, 1)  # warm up: the first cycle may fill slab pages
    cycle = k.transcript()[transcript:]
    assert "read: /sys/class/block/sbd0/stat: No such device" in cycle, cycle
    assert "read: /sys/class/block/sbd0/size: No such device" in cycle, cycle
    before = state(k)
    start = time.time()
    run_cycles(k, lines, SOAK_CYCLES)
    elapsed = time.time() - start
    after = state(k)
    assert same(before, after) == {}
    assert k.run("fds") == ""
    assert k.run("meminfo -c").strip().endswith(", 0 damaged")
    print("%d cycles of %d commands in %.1f s" % (SOAK_CYCLES, len(lines), elapsed))
