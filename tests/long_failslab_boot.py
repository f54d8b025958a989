"""long_failslab_boot.py: failslab.nth=N for every allocation of the boot, a
boot each (about 1,170 boots, 10 minutes). Not part of make test (its name does
not start with test_); make failslab-boot runs it, and make test a few of its
boots (test_reliability.py's test_failslab_boot_sample)."""
from test_reliability import failslab_boot, virtio_disk  # noqa: F401 (a fixture)


def test_failslab_walk_the_boot(virtio_disk):
    """failslab.nth=N for every allocation of the boot, each checked by
    failslab_boot; the walk ends at the first boot that reaches the prompt
    with its failure still to come."""
    for n in range(1, 3000):
        if failslab_boot(n, virtio_disk) == "done":
            assert n > 500, n
            print("failslab-boot: %d boots" % n)
            return
    raise AssertionError("the walk did not end")
