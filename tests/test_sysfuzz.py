"""test_sysfuzz.py: random system calls from user/sysfuzz, as root and as an
unprivileged user, and then the kernel: no oops, BUG, WARNING (lockdep's
reports), panic or "Fatal exception" on the console, the shell answers, and the
memory, slab objects and kobjects are back where they were.

make test runs a fixed list of seeds in one boot on 2 CPUs, among them the seeds
and calls that found bugs (each named below with what it found). `make sysfuzz`
(SEED, SEEDS, SECONDS or COUNT) runs longer, on 1 and then 2 CPUs: it sets
KOBOLD_SYSFUZZ_SEEDS and KOBOLD_SYSFUZZ_RUN (a count, or seconds as "60s")."""
import os
import re

import pytest

import kobold

ROOT = kobold.ROOT
BUILD = os.path.dirname(kobold.KERNEL)
BAD = re.compile(r"Oops|BUG|WARNING|PANIC|[Kk]ernel panic|Fatal exception|Call Trace|"
                 r"DEADLOCK|soft lockup")
NOBODY = 65534

# (arguments, what the run found): a seed and its first call (-f) and count.
FOUND = [
    ("1 30", "ftruncate64 on a pipe: an oops in path_get (call 14)"),
    ("-f 273 2 1", "rt_sigreturn to DF set: the kernel's copies ran backwards, write after free"),
]
SEEDS = os.environ.get("KOBOLD_SYSFUZZ_SEEDS", "")
RUN = os.environ.get("KOBOLD_SYSFUZZ_RUN", "")
if SEEDS:  # make sysfuzz: SEEDS as "FIRST:HOW_MANY", each as root and as a user
    first, count = (int(x) for x in SEEDS.split(":"))
    RUNS = [arg for s in range(first, first + count)
            for arg in ("%d %s" % (s, RUN), "-u %d %d %s" % (NOBODY, s, RUN))]
    CPUS = ["1", "2"]
else:  # make test: a few seconds
    RUNS = [args for args, _ in FOUND] + ["11 300", "-u %d 12 300" % NOBODY, "13 300"]
    CPUS = ["2"]


def run_timeout(args):
    """A run of N seconds or N calls (about 1 ms each under TCG), with room to spare."""
    n = args.split()[-1]
    return 120 + (int(n[:-1]) if n.endswith("s") else int(n) // 50)


@pytest.fixture(scope="module")
def images(tmp_path_factory):
    kobold.build_user()
    out = tmp_path_factory.mktemp("sysfuzz") / "sysfuzz.cpio"
    entries = ["dir /usr 0755 0 0", "dir /usr/bin 0755 0 0",
               "file /usr/bin/sysfuzz %s 0755 0 0" % os.path.join(BUILD, "user", "sysfuzz")]
    return kobold.user_initrd(out, entries)


def leak_figures(k):
    s = k.snapshot()
    return {key: s[key] for key in ("BytesInUse", "ObjectsInUse", "kobjects")}


def check_kernel(k, since):
    """Nothing bad on the console since the transcript was since long; the shell answers."""
    text = k.transcript()[since:]
    bad = BAD.search(text)
    assert not bad, text[max(0, bad.start() - 3000):bad.start() + 3000]
    assert k.run("echo alive") == "alive\n"


@pytest.mark.parametrize("cpus", CPUS)
def test_random_system_calls_leave_the_kernel_whole(images, cpus):
    k = kobold.boot(qemu_args=["-initrd", images, "-smp", cpus])
    try:
        k.run("sysfuzz 1000 50", timeout=120)  # one-time allocations (ENOSYS log, ...)
        k.run("sysfuzz -u %d 1001 50" % NOBODY, timeout=120)
        before = leak_figures(k)
        for args in RUNS:
            since = len(k.transcript())
            out = k.run("sysfuzz " + args, timeout=run_timeout(args))
            seed = args.split()[-2]
            assert re.search(r"^sysfuzz: seed %s: \d+ calls, " % seed, out, re.M), out[-3000:]
            check_kernel(k, since)
        after = leak_figures(k)
        assert after == before, (before, after)
    finally:
        k.close()
