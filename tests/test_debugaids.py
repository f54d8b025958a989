"""test_debugaids.py: the debugging aids that print what Linux prints,
provoked through lkdtm's /sys/kernel/debug/provoke-crash/DIRECT on two CPUs:
might_sleep's report (ATOMIC_SLEEP), 2.6.18's spinlock debugging
(SPINLOCK_RECURSION), the lock validator (LOCKDEP_ABBA) and the soft-lockup
watchdog (SOFTLOCKUP, with softlockup_thresh=2). Each leaves the kernel
running; garbage is EINVAL and changes nothing. A first report turns lock
debugging off, as in Linux, so the validator's report has a boot of its own."""
import re

import pytest

import kobold

DIRECT = "/sys/kernel/debug/provoke-crash/DIRECT"


def provoke(k, what, timeout=None):
    return k.run("echo %s > %s" % (what, DIRECT), timeout=timeout)


@pytest.fixture(scope="module")
def two():
    k = kobold.boot("softlockup_thresh=2", qemu_args=["-smp", "2"])
    yield k
    k.close()


def test_direct_lists_the_new_types_and_refuses_garbage(two):
    before = two.run("cat " + DIRECT)
    for name in ["ATOMIC_SLEEP", "SPINLOCK_RECURSION", "LOCKDEP_ABBA", "SOFTLOCKUP"]:
        assert "\n%s\n" % name in before, before
    for bad in ["SOFTLOCK", "atomic_sleep", "ATOMIC_SLEEP2", ""]:
        out = provoke(two, bad)
        assert out.endswith("echo: write error: Invalid argument\n"), (bad, out)
        assert "performing" not in out
    assert two.run("cat " + DIRECT) == before


def test_atomic_sleep_is_reported_as_2_6_18_does(two):
    out = provoke(two, "ATOMIC_SLEEP")
    assert "lkdtm: performing direct entry ATOMIC_SLEEP" in out, out
    assert re.search(r"BUG: sleeping function called from invalid context at kernel/sched\.c:\d+\n", out), out
    assert "in_atomic():1, irqs_disabled():0" in out, out
    assert re.search(r"\] lkdtm_ATOMIC_SLEEP\+0x", out), out
    assert two.run("echo alive") == "alive\n"


def test_spinlock_recursion_is_caught_before_it_spins(two):
    """lockdep sees the second spin_lock first and reports it in its words, as
    2.6.18 with CONFIG_PROVE_LOCKING does; the lock word's own check
    (BUG: spinlock recursion) is tested in tests/unit/locking_test.c."""
    out = provoke(two, "SPINLOCK_RECURSION")
    assert "WARNING: possible recursive locking detected\n" in out, out
    assert re.search(r"sh/1 is trying to acquire lock:\n\[[^]]*\]  \(lkdtm_lock\), at: lkdtm_SPINLOCK_RECURSION\+0x", out), out
    assert re.search(r"\] lkdtm_SPINLOCK_RECURSION\+0x", out), out
    assert two.run("echo alive") == "alive\n"  # the second spin_lock did not hang


def test_softlockup_is_reported_on_its_cpu(two):
    out = provoke(two, "SOFTLOCKUP", timeout=60)
    assert re.search(r"BUG: soft lockup detected on CPU#\d!\n\[[^]]*\] Call Trace:\n", out), out
    assert "lkdtm_do_action" in out, out
    ps = two.run("ps")
    assert "[watchdog/0]" in ps and "[watchdog/1]" in ps, ps
    assert two.run("echo alive") == "alive\n"


def test_watchdog_follows_cpu_hotplug(two):
    two.run("echo 0 > /sys/devices/system/cpu/cpu1/online")
    ps = two.run("ps")
    assert "[watchdog/1]" not in ps and "[events/1]" not in ps and "[migration/1]" not in ps, ps
    two.run("echo 1 > /sys/devices/system/cpu/cpu1/online")
    ps = two.run("ps")
    assert "[watchdog/1]" in ps and "[events/1]" in ps and "[migration/1]" in ps, ps


def test_lockdep_abba_is_reported_before_any_deadlock():
    k = kobold.boot("", qemu_args=["-smp", "2"])
    try:
        out = provoke(k, "LOCKDEP_ABBA")
        assert "WARNING: possible circular locking dependency detected" in out, out
        assert re.search(r"sh/1 is trying to acquire lock:\n\[[^]]*\] +\(lkdtm_lock_a\)", out), out
        assert "but task is already holding lock:" in out and "(lkdtm_lock_b)" in out, out
        assert k.run("echo alive") == "alive\n"
    finally:
        k.close()
