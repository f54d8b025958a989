"""test_hotplug_smp2.py: test_hotplug.py's tests again, every boot on two CPUs (smp2.py),
but its two failslab walks, which boot one CPU whatever the pass."""
from smp2 import two_cpus  # noqa: F401
from test_hotplug import *  # noqa: F401,F403

del test_hot_add_failing_at_any_allocation_still_ejects_and_leaks_nothing, test_hotplug_soak  # noqa: F821
