"""test_unit.py: the ktest suites, on the host (ASan, UBSan) and inside the kernel.

Each KTAP case becomes one pytest case: host.SUITE.CASE and kernel.SUITE.CASE.
Both runs happen once, when pytest collects this file.
"""
import os
import subprocess

import pytest

import kobold

HOST_BIN = os.path.join(kobold.ROOT, "build", "host", "ktest-host")


def _host_run():
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:abort_on_error=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    p = subprocess.run([HOST_BIN, "all"], capture_output=True, text=True, env=env, timeout=300)
    return p.returncode, p.stdout, p.stderr


def _kernel_run():
    return kobold.run_to_exit("test=all loglevel=3", timeout=max(kobold.TIMEOUT, 120))


HOST = _host_run()
KERNEL = _kernel_run()
HOST_CASES = kobold.parse_ktap(HOST[1])
KERNEL_CASES = kobold.parse_ktap(KERNEL[1])


def test_host_suites_ran_cleanly():
    status, out, err = HOST
    assert HOST_CASES, "no KTAP cases from the host binary:\n" + out + err
    assert "ERROR: AddressSanitizer" not in err and "runtime error" not in err, err
    assert status == 0, out[-3000:] + err[-3000:]


def test_kernel_suites_ran_and_exited_with_success():
    status, text = KERNEL
    assert KERNEL_CASES, "no KTAP cases from the kernel:\n" + text[-3000:]
    assert "PANIC" not in text, text[-3000:]
    assert status == kobold.EXIT_SUCCESS, text[-3000:]


# Suites that need the host shim's stand-in for an interrupt (tests/host/shim.c)
# or that would suspend the kernel's real controllers (sysdev), and suites that
# need a device (drivers/block/virtio_blk_test.c) or threads (kernel/kthread_test.c).
HOST_ONLY_SUITES = ("blk_async.", "blk_aio.", "sysdev.", "workqueue_sync.")
KERNEL_ONLY_SUITES = ("virtblk_inflight.", "kthread.", "tty_io.", "umh.", "groups.")


def test_kernel_runs_the_same_cases_as_the_host():
    host = [c for c in HOST_CASES if not c.startswith(HOST_ONLY_SUITES)]
    kernel = [c for c in KERNEL_CASES if not c.startswith(KERNEL_ONLY_SUITES)]
    assert sorted(kernel) == sorted(host)


@pytest.mark.parametrize("case", sorted(HOST_CASES))
def test_host(case):
    passed, diag = HOST_CASES[case]
    assert passed, diag


@pytest.mark.parametrize("case", sorted(KERNEL_CASES))
def test_kernel(case):
    passed, diag = KERNEL_CASES[case]
    assert passed, diag
