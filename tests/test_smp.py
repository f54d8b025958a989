"""test_smp.py: the other CPUs. With -smp N the boot CPU finds N-1 more in the ACPI
MADT and starts each (INIT, STARTUP, STARTUP); they show in /sys/devices/system/cpu,
/proc/cpuinfo and /proc/interrupts, and the online file takes one down and up;
/proc/irq/N/smp_affinity sends a line to another CPU."""
import re

import pytest

import kobold

LOG_LINE = re.compile(r"^\[\s*\d+\.\d+\] ")
CPU = "/sys/devices/system/cpu"


def sh(k, command):
    """Runs a command; its output without kernel log lines printed meanwhile."""
    out = k.run(command)
    return "".join(l + "\n" for l in out.split("\n") if l and not LOG_LINE.match(l))


def cpuinfo_processors(k):
    return re.findall(r"^processor\t: (\d+)$", k.run("cat /proc/cpuinfo"), re.M)


def interrupts_header(k):
    return k.run("cat /proc/interrupts").split("\n")[0].split()


@pytest.fixture(scope="module")
def four():
    k = kobold.boot("", qemu_args=["-smp", "4"])
    yield k
    k.close()


def test_four_cpus_come_up_and_show_everywhere(four):
    log = four.run("dmesg")
    for cpu in (1, 2, 3):
        assert "Booting processor %d/%d eip 8000" % (cpu, cpu) in log
        assert re.search(r"CPU%d: GenuineIntel QEMU Virtual CPU version \S+ stepping 03" % cpu, log)
    assert re.search(r"Total of 4 processors activated \(\d+\.\d\d BogoMIPS\)\.", log)
    assert "Brought up 4 CPUs" in log
    assert sh(four, "ls " + CPU).split() == ["cpu0", "cpu1", "cpu2", "cpu3"]
    assert cpuinfo_processors(four) == ["0", "1", "2", "3"]
    assert interrupts_header(four) == ["CPU0", "CPU1", "CPU2", "CPU3"]
    timer = [l for l in four.run("cat /proc/interrupts").split("\n") if l.startswith("  0:")][0]
    counts = [int(x) for x in timer.split()[1:5]]
    assert counts[0] > 0 and counts[1:] == [0, 0, 0]  # every line is routed to CPU 0
    rows = lambda: {l[:4]: l[5:] for l in four.run("cat /proc/interrupts").split("\n")}
    first = rows()
    assert first["NMI:"] == "%10d " % 0 * 4 and first["ERR:"] == "%10d" % 0  # 2.6 i386's rows
    loc = [int(x) for x in first["LOC:"].split()]  # each CPU's own APIC timer, at HZ
    assert len(loc) == 4 and min(loc) > 0, first
    four.run("sleep 1")
    later = [int(x) for x in rows()["LOC:"].split()]
    assert all(b - a >= 50 for a, b in zip(loc, later)), (loc, later)
    assert list(rows())[-4:] == ["NMI:", "LOC:", "ERR:", ""]


def test_cpu0_has_no_online_file_and_the_others_have_one(four):
    assert sh(four, "ls %s/cpu0" % CPU) == ""
    assert sh(four, "ls -l %s/cpu2" % CPU) == "-rw------- online\n"
    assert sh(four, "cat %s/cpu2/online" % CPU) == "1\n"


def test_a_cpu_goes_offline_and_comes_back(four):
    online = "%s/cpu2/online" % CPU
    out = four.run("echo 0 > " + online)
    assert "CPU 2 is now offline" in out
    assert sh(four, "cat " + online) == "0\n"
    assert cpuinfo_processors(four) == ["0", "1", "3"]
    assert interrupts_header(four) == ["CPU0", "CPU1", "CPU3"]
    assert sh(four, "echo 0 > " + online) == "echo: write error: Invalid argument\n"
    out = four.run("echo 1 > " + online)
    assert "Booting processor 2/2 eip 8000" in out and "CPU2: GenuineIntel" in out
    assert sh(four, "cat " + online) == "1\n"
    assert cpuinfo_processors(four) == ["0", "1", "2", "3"]
    assert sh(four, "echo 1 > " + online) == "echo: write error: Invalid argument\n"
    events = re.sub(r"KERNEL\[[\d.]+\] ", "", sh(four, "udevadm monitor --journal --subsystem-match=cpu"))
    assert events.split("\n")[-3:] == ["offline  /devices/system/cpu/cpu2 (cpu)",
                                       "online   /devices/system/cpu/cpu2 (cpu)", ""], events
    assert "add      /devices/system/cpu/cpu3 (cpu)" in events


def test_a_function_runs_on_another_cpu_by_ipi(four):
    out = sh(four, "bench ipi 200")
    assert re.fullmatch(r"ipi round trip  N=200  \d+ us total  \d+ ns/op\n", out), out
    assert sh(four, "echo 0 > %s/cpu1/online" % CPU) == ""
    assert sh(four, "bench ipi 5") == "bench: No such device\n"  # CPU 1 is down
    assert sh(four, "echo 1 > %s/cpu1/online" % CPU) == ""
    assert re.match(r"ipi round trip  N=5 ", sh(four, "bench ipi 5"))


def test_garbage_in_online_is_refused_and_changes_nothing(four):
    online = "%s/cpu1/online" % CPU
    for bad in ("2", "01", "1x", "on", "-1"):
        assert sh(four, "echo %s > %s" % (bad, online)) == "echo: write error: Invalid argument\n", bad
    assert sh(four, "cat " + online) == "1\n"
    assert cpuinfo_processors(four) == ["0", "1", "2", "3"]


def serial_counts(k):
    """IRQ 4's (the serial port's) count in each CPU's column of /proc/interrupts."""
    line = [l for l in k.run("cat /proc/interrupts").split("\n") if l.startswith("  4:")][0]
    return [int(x) for x in line.split()[1:-2]]


def test_an_irq_moves_to_the_cpus_its_smp_affinity_names(four):
    affinity = "/proc/irq/4/smp_affinity"
    assert sh(four, "cat " + affinity) == "01\n"  # 2.6's width for NR_CPUS=8
    assert "4" in sh(four, "ls /proc/irq").split() and sh(four, "ls /proc/irq/4") == "smp_affinity\n"
    for mask, cpu in (("2", 1), ("0c", 2)):  # several CPUs: the first online one takes it
        assert sh(four, "echo %s > %s" % (mask, affinity)) == ""
        assert sh(four, "cat " + affinity) == "%02x\n" % int(mask, 16)
        before = serial_counts(four)
        for i in range(5):  # each typed byte is a serial interrupt
            assert sh(four, "echo typed-%d" % i) == "typed-%d\n" % i
        after = serial_counts(four)
        assert after[cpu] - before[cpu] >= 5 and after[0] == before[0], (before, after)
    for bad in ("0", "xyz", "100", "10", "2x", "-1"):  # no CPU, not hex, past NR_CPUS, CPU 4 absent
        assert sh(four, "echo %s > %s" % (bad, affinity)) == "echo: write error: Invalid argument\n", bad
    assert sh(four, "cat " + affinity) == "0c\n"
    assert sh(four, "echo 4 > " + affinity) == ""  # CPU 2 only: it goes down, the line comes back
    out = four.run("echo 0 > %s/cpu2/online" % CPU)
    assert "Breaking affinity for irq 4" in out and "CPU 2 is now offline" in out
    assert sh(four, "cat " + affinity) == "01\n"
    before = serial_counts(four)
    assert sh(four, "echo still-answers") == "still-answers\n"
    assert serial_counts(four)[0] > before[0]
    assert "CPU2: GenuineIntel" in four.run("echo 1 > %s/cpu2/online" % CPU)
    assert sh(four, "cat /proc/irq/0/smp_affinity") == "01\n"


def test_the_thread_suite_passes_on_two_cpus():
    """kernel/kthread_test.c where it has a second CPU: bound threads, busy threads on
    both, a CPU going down, set_cpus_allowed through [migration/1], the tick's balancing."""
    status, text = kobold.run_to_exit("test=kthread loglevel=3", qemu_args=["-smp", "2"],
                                      timeout=max(kobold.TIMEOUT, 120))
    cases = kobold.parse_ktap(text)
    for name in ("kthread.kthread_set_cpus_allowed_moves_running_threads",
                 "kthread.kthread_balancing_pulls_to_a_busy_cpu_and_keeps_bound_threads"):
        assert name in cases, sorted(cases)
    # busy_threads_run_on_every_cpu needs the host to run both virtual CPUs at the same
    # moment, which a loaded host may not do within its 50 ms: not asked here.
    failed = {c: d for c, (ok, d) in cases.items()
              if not ok and c != "kthread.kthread_busy_threads_run_on_every_cpu"}
    assert not failed, failed


def test_nine_cpus_boot_with_eight_and_say_so():
    k = kobold.boot("", qemu_args=["-smp", "9"])
    try:
        log = k.run("dmesg")
        assert "WARNING: NR_CPUS limit of 8 reached. Processor 8 (APIC 8) ignored." in log
        assert "Brought up 8 CPUs" in log
        assert len(cpuinfo_processors(k)) == 8
        assert sh(k, "ls " + CPU).split() == ["cpu%d" % i for i in range(8)]
    finally:
        k.close()


def test_one_cpu_boots_no_other():
    k = kobold.boot("", qemu_args=["-smp", "1"])
    try:
        assert "Booting processor" not in k.run("dmesg")
        assert cpuinfo_processors(k) == ["0"] and interrupts_header(k) == ["CPU0"]
        assert sh(k, "ls " + CPU).split() == ["cpu0"]
        assert sh(k, "bench ipi 10") == "bench: No such device\n"
    finally:
        k.close()
