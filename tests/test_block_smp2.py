"""test_block_smp2.py: test_block.py's tests again, every boot on two CPUs (smp2.py)."""
from smp2 import two_cpus  # noqa: F401
from test_block import *  # noqa: F401,F403
