"""conftest.py: fixtures shared by the tests: a booted kernel per test."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import kobold  # noqa: E402

# make test runs the files TEST_JOBS at a time (pytest-xdist, --dist loadfile), each
# to the next free worker in the order collected. The longest go first, so that
# none starts near the end while the other worker has nothing left to do (in file
# order fuzz/test_fuzz.py, 40 s, came last: one core idled for 34 s). These took
# 30 s or more in a full run (build/test-report.xml), longest first; the rest
# follow in their own order, and the tests of a file stay together, in order.
LONGEST_FIRST = ["test_labs.py", "test_labs_compose.py", "test_grade.py", "test_reliability.py",
                 "test_hotplug.py", "test_labs_concurrency.py", "fuzz/test_fuzz.py", "test_docs.py",
                 "test_gradescope.py", "test_lab14.py", "test_build.py"]

# make test's two-CPU pass (smp2.py), only when it asks for it.
collect_ignore_glob = [] if os.environ.get("KOBOLD_SMP2") == "1" else ["*_smp2.py"]


def pytest_collection_modifyitems(items):
    here = os.path.dirname(os.path.abspath(__file__))
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(os.path.relpath(str(item.fspath), here), len(rank)))


@pytest.fixture
def kernel():
    """A freshly booted Kobold at its first prompt; QEMU is killed afterwards."""
    k = kobold.boot()
    yield k
    k.close()


@pytest.fixture
def boot_with():
    """Boots Kobold with a command line (and QEMU arguments); all are cleaned up."""
    started = []

    def start(append="", **kw):
        k = kobold.boot(append, **kw)
        started.append(k)
        return k

    yield start
    for k in started:
        k.close()
