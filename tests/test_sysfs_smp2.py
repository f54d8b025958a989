"""test_sysfs_smp2.py: test_sysfs.py's tests again, every boot on two CPUs (smp2.py)."""
from smp2 import two_cpus  # noqa: F401
from test_sysfs import *  # noqa: F401,F403
