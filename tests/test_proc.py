"""test_proc.py: the files of /proc beside interrupts (cpuinfo, meminfo, uptime,
version, cmdline, mounts, filesystems), in Linux's formats and agreeing with what
the shell's own commands say. One QEMU boot for the whole file."""
import re
import time

import pytest

import kobold

APPEND = "sbd.nr=2 loglevel=5"
LOG_LINE = re.compile(r"^\[\s*\d+\.\d+\] ")


def sh(k, command):
    """Runs a command; its output without kernel log lines printed meanwhile."""
    out = k.run(command)
    return "".join(l + "\n" for l in out.split("\n") if l and not LOG_LINE.match(l))


@pytest.fixture(scope="module")
def vm():
    k = kobold.boot(APPEND)
    yield k
    k.close()


def keyed(text, sep):
    return {m.group(1): m.group(2) for m in re.finditer(r"^([^:\n]+?)\s*%s\s*(.*)$" % sep, text, re.M)}


def test_proc_lists_its_files(vm):
    names = sh(vm, "ls /proc").split()
    assert [n for n in names if not n.isdigit()] == [
        "cmdline", "cpuinfo", "filesystems", "interrupts", "iomem", "ioports", "irq", "loadavg", "lockdep_stats",
        "meminfo", "mounts", "self", "stat", "sys", "uptime", "version", "vmallocinfo"]
    assert {"1", "2"} <= {n for n in names if n.isdigit()}  # a directory per process


def test_cpuinfo_has_linux_2_6_i386_fields_for_the_boot_cpu(vm):
    text = vm.run("cat /proc/cpuinfo")
    blocks = [b for b in text.split("\n\n") if b.strip()]
    assert len(blocks) == 1, text  # one CPU: -smp 1
    names = [l.split("\t")[0] for l in blocks[0].split("\n")]
    assert names == ["processor", "vendor_id", "cpu family", "model", "model name", "stepping",
                     "cpu MHz", "fdiv_bug", "hlt_bug", "f00f_bug", "coma_bug", "fpu",
                     "fpu_exception", "cpuid level", "wp", "flags", "bogomips"], blocks[0]
    f = keyed(blocks[0], ":")
    assert f["processor"] == "0"
    assert f["vendor_id"] == "GenuineIntel" and f["model name"] == "QEMU Virtual CPU version 2.5+"
    assert {"fpu", "tsc", "apic", "cx8"} <= set(f["flags"].split())
    mhz, bogomips = float(f["cpu MHz"]), float(f["bogomips"])
    assert mhz > 100 and abs(bogomips - 2 * mhz) < 0.1


def test_meminfo_agrees_with_the_allocators(vm):
    mem = {k: int(v.split()[0]) for k, v in keyed(vm.run("cat /proc/meminfo"), ":").items()}
    assert list(mem)[:2] == ["MemTotal", "MemFree"]
    assert re.search(r"^MemTotal: {5}[ \d]{8} kB$", vm.run("cat /proc/meminfo"), re.M)
    own = {k: int(v) for k, v in keyed(sh(vm, "meminfo"), ":").items()}
    assert mem["MemTotal"] == own["PagesTotal"] * 4
    assert abs(mem["MemFree"] - own["PagesFree"] * 4) <= 64  # a few pages: the reads' snapshots
    assert abs(mem["Slab"] - own["BytesInUse"] // 1024) <= 64
    assert mem["SwapTotal"] == 0 and mem["Cached"] == 0


def test_uptime_counts_up_and_the_idle_time_with_it(vm):
    first = [float(x) for x in vm.run("cat /proc/uptime").split()]
    time.sleep(0.5)  # the kernel sits at its prompt: the CPU halts
    second = [float(x) for x in vm.run("cat /proc/uptime").split()]
    assert re.fullmatch(r"\d+\.\d\d \d+\.\d\d\n", vm.run("cat /proc/uptime"))
    assert second[0] > first[0] and second[1] > first[1]
    assert 0 < second[1] <= second[0]


def proc_stat(k):
    """/proc/stat as {name: [numbers]}."""
    return {l.split()[0]: [int(x) for x in l.split()[1:]] for l in sh(k, "cat /proc/stat").splitlines()}


def test_stat_has_2_6_12s_lines_and_they_add_up(vm):
    """The CPUs' eight kinds of time, summed and then one line per CPU; the interrupts
    in all and per IRQ; the idle CPU's time goes to idle."""
    first = proc_stat(vm)
    assert list(first) == ["cpu", "cpu0", "intr", "ctxt", "btime", "processes", "procs_running",
                           "procs_blocked"], first
    assert len(first["cpu"]) == len(first["cpu0"]) == 8 and first["cpu"] == first["cpu0"]
    assert first["intr"][0] == sum(first["intr"][1:]) and first["intr"][1] > 0  # the PIT's IRQ 0
    assert abs(first["btime"][0] - time.time()) < 86400  # QEMU's CMOS clock is the host's
    time.sleep(0.5)  # the kernel sits at its prompt: the CPU halts
    second = proc_stat(vm)
    idle = second["cpu0"][3] - first["cpu0"][3]
    assert 20 <= idle <= 100, (first, second)  # in USER_HZ (100): most of half a second
    assert second["cpu0"][0] == first["cpu0"][0]  # no process ran: no user time
    assert second["ctxt"][0] > first["ctxt"][0] and second["btime"] == first["btime"]


def test_version_and_cmdline(vm):
    assert re.fullmatch(r"Kobold version 0\.1 \(gcc version [^)]+\) #1\n", vm.run("cat /proc/version"))
    assert vm.run("cat /proc/cmdline").endswith(" " + APPEND + "\n")


def test_mounts_follow_mount_and_umount(vm):
    def proc_mounts():
        return vm.run("cat /proc/mounts").splitlines()

    def from_mount():
        return ["%s %s %s rw 0 0" % m.groups() for m in
                re.finditer(r"^(\S+) on (\S+) type (\S+) \(rw\)$", sh(vm, "mount"), re.M)]

    assert proc_mounts() == from_mount() and proc_mounts()[0] == "rootfs / rootfs rw 0 0"
    assert sh(vm, "mount -t tmpfs none /mnt") == ""
    assert proc_mounts()[-1] == "none /mnt tmpfs rw 0 0" and proc_mounts() == from_mount()
    assert sh(vm, "umount /mnt") == ""
    assert "none /mnt tmpfs rw 0 0" not in proc_mounts()


def test_filesystems_lists_each_registered_type(vm):
    lines = vm.run("cat /proc/filesystems").splitlines()
    assert all(l.startswith("nodev\t") for l in lines), lines
    assert sorted(l.split("\t")[1] for l in lines) == ["devtmpfs", "proc", "rootfs", "sysfs", "tmpfs"]
