"""smp2.py: make test's second pass, every boot on two CPUs, run beside the first.

test_sysfs_smp2.py, test_hotplug_smp2.py and test_block_smp2.py take their file's
tests (import *) and this module's two_cpus, which boots each of them with -smp 2
as KOBOLD_SMP=2 does. The conftest collects them only when KOBOLD_SMP2=1 (make test
sets it unless TEST_ARGS chooses tests), so that one pytest session balances both
passes over the workers instead of the second waiting for the first to end."""
import os

import pytest

import kobold


@pytest.fixture(autouse=True, scope="module")
def two_cpus():
    saved = kobold.SMP, os.environ.get("KOBOLD_SMP")
    kobold.SMP = os.environ["KOBOLD_SMP"] = "2"
    yield
    kobold.SMP = saved[0]
    if saved[1] is None:
        del os.environ["KOBOLD_SMP"]
    else:
        os.environ["KOBOLD_SMP"] = saved[1]
