"""test_sched.py: kernel threads as the shell sees them: `ps` in busybox's
columns, `bench switch` (two threads ping-ponging a completion) measuring a
context switch and giving back every thread and byte, and Ctrl-C stopping it.
The threads themselves are tested inside the kernel (kernel/kthread_test.c,
run by test_unit.py as kernel.kthread.*)."""
import re
import time

import kobold


def thread_rows(ps):
    return re.findall(r"^ +(\d+) root +\d+:\d\d (\S+)$", ps, re.M)


def boot_threads():
    """The threads every boot has: ttyS0's shell, kthreadd, then per CPU an
    events/N, a watchdog/N and a migration/N (KOBOLD_SMP=N boots N CPUs),
    khelper, then the VGA console's shell, a kthread."""
    ncpu = int(kobold.SMP or 1)
    names = ["sh", "[kthreadd]"] + ["[events/%d]" % i for i in range(ncpu)]
    names += ["[watchdog/%d]" % i for i in range(ncpu)]
    names += ["[migration/%d]" % i for i in range(ncpu)]
    names += ["[khelper]", "[sh/tty0]"]
    return [(str(pid), name) for pid, name in enumerate(names, 1)]


def test_ps_lists_every_thread_in_busybox_columns(kernel):
    ps = kernel.run("ps")
    assert ps.startswith("PID   USER     TIME  COMMAND\n"), ps
    assert thread_rows(ps) == boot_threads(), ps
    assert "[events/0]: 0 work items pending\n" in ps
    assert kernel.run("ps x").startswith("usage: ps")


def test_bench_switch_measures_a_switch_and_gives_everything_back(kernel):
    before = kernel.snapshot()
    out = kernel.run("bench switch 2000", timeout=120)
    m = re.match(r"context switch  N=2000  \d+ us total  (\d+) ns/switch  \((\d+) switches\)\n$", out)
    assert m, out
    assert int(m.group(2)) >= 4000  # each round trip: to the thread and back
    assert 0 < int(m.group(1)) < 1000000
    assert thread_rows(kernel.run("ps")) == boot_threads()  # it exited
    after = kernel.snapshot()
    for key in ["BytesInUse", "ObjectsInUse", "kobjects"]:
        assert after[key] == before[key], (key, before[key], after[key])
    for bad in ["bench switch 0", "bench switch", "bench switch 200001", "bench swap 5"]:
        assert kernel.run(bad).startswith("usage: bench devmodel|ipi|switch|fence N"), bad


def test_ctrl_c_stops_bench_switch_and_its_thread(kernel):
    before = kernel.snapshot()
    kernel.send("bench switch 200000\r")
    kernel.expect(r"bench switch 200000\r*\n")
    time.sleep(0.3)
    t0 = time.monotonic()
    kernel.child.send("\x03")
    kernel.wait_prompt()
    assert time.monotonic() - t0 < 5
    out = kernel.output()
    assert out.endswith("^C\n") and "context switch" not in out, out
    ps = kernel.run("ps")
    assert "bench-pong" not in ps and thread_rows(ps) == boot_threads(), ps
    after = kernel.snapshot()
    assert after["ObjectsInUse"] == before["ObjectsInUse"]
