"""conftest.py: fixtures shared by the tests: a booted kernel per test."""
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
import kobold  # noqa: E402


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
