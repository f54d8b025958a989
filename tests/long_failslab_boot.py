"""long_failslab_boot.py: failslab.nth=N for every allocation of the boot, a
boot each (about 350 boots, 5 minutes). Not part of make test (its name does
not start with test_); make failslab-boot runs it."""
import re

import kobold
from test_reliability import fast, virtio_disk  # noqa: F401 (a fixture)


def test_failslab_walk_the_boot(virtio_disk):
    """failslab.nth=N for every allocation of the boot: the boot stops with
    the panic of a part it cannot do without (the device model, the block
    layer), or reaches the prompt with no BUG or WARNING, before and after
    kobjects walks every live kobject and meminfo -c checks every object."""
    for n in range(1, 2000):
        k = kobold.Kobold("failslab.nth=%d" % n, qemu_args=virtio_disk)
        try:
            try:
                k.wait_prompt()
            except kobold.KernelPanic:
                text = k.transcript()
                assert re.search(r"PANIC: .*(the device model|the block layer) could not start",
                                 text), text[-3000:]
                continue
            text = k.transcript()
            m = re.search(r"forcing a failure: kmalloc\(\d+\)\n[^\n]*? at (\w+)\+(?:.*\n)[^\n]*from (\w+)",
                          text)
            if m and m.group(2) in ("time_init", "serial8250_probe", "i8042_probe"):
                assert re.search(r"\] \w+: no interrupt: ", text), text[-3000:]  # said, not silent
            out = fast(k).run("kobjects") + k.run("meminfo -c")
            text = k.transcript()
            assert "BUG" not in text and "WARNING" not in text, "failslab.nth=%d:\n%s" % (n, text[-3000:])
            assert out.strip().endswith(", 0 damaged"), out
            if not m:
                assert "kobjects" in out and n > 100, text[-3000:]  # the boot made fewer: done
                return
        finally:
            k.close()
    raise AssertionError("the walk did not end")
