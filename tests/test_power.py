"""test_power.py: Linux's device PM test (pm_test "devices": every device
suspended, children first in the reverse of their add order, then resumed in
add order) and the ordered shutdown that poweroff runs (virtio_blk flushes and
resets its device). One QEMU boot, ended by poweroff."""
import re

import kobold

from test_virtio import disk, image

TRACE = re.compile(r"trace: device_(suspend|resume|shutdown) (\S+)")


SYSDEV = re.compile(r"trace: sysdev_(suspend|resume) /devices/system/(\S+)")
# Classes in the reverse of their registration (cpu, timer, i8259, lapic, ioapic), as 2.6's sysdev_suspend.
# KOBOLD_SMP=N boots N CPUs: cpu0 .. cpuN-1, in that order both ways (classes reverse)
CPUS = ["cpu/cpu%d" % i for i in range(int(kobold.SMP or 1))]
SYSDEV_SUSPEND_ORDER = ["ioapic/ioapic0", "lapic/lapic0", "i8259/i82590", "timer/timer0"] + CPUS
SYSDEV_RESUME_ORDER = CPUS + ["timer/timer0", "i8259/i82590", "lapic/lapic0", "ioapic/ioapic0"]


def sysdev_steps(text, kind):
    return [m.group(2) for m in SYSDEV.finditer(text) if m.group(1) == kind]


def timer_ticks(k):
    return int(re.search(r"\n  0: +(\d+) ", k.run("cat /proc/interrupts")).group(1))


def steps(text, kind):
    return [m.group(2) for m in TRACE.finditer(text) if m.group(1) == kind]


def test_pm_test_devices_and_ordered_poweroff(boot_with, tmp_path):
    img = image(tmp_path, "a.img", 4)
    k = boot_with("suspend.pm_test_delay=1", qemu_args=disk(img, "d0", drive_opts=",cache=writeback"))
    assert k.run("cat /sys/power/state") == "mem\n"
    assert k.run("cat /sys/power/pm_test") == "[none] core processors devices\n"
    assert k.run("echo mem > /sys/power/state").endswith("echo: write error: Operation not supported\n")
    assert k.run("echo freezer > /sys/power/pm_test") == "echo: write error: Invalid argument\n"
    assert k.run("echo devices > /sys/power/pm_test") == ""
    assert k.run("cat /sys/power/pm_test") == "none core processors [devices]\n"
    k.run("trace on")
    out = k.run("echo mem > /sys/power/state", timeout=30)
    suspended, resumed = steps(out, "suspend"), steps(out, "resume")
    assert resumed == suspended[::-1], out
    for child, parent in [("/devices/platform/i8042/serio0", "/devices/platform/i8042"),
                          ("/devices/pci0000:00/0000:00:04.0/virtio0", "/devices/pci0000:00/0000:00:04.0"),
                          ("/devices/pci0000:00/0000:00:04.0", "/devices/pci0000:00"),
                          ("/devices/platform/serial8250", "/devices/platform")]:
        assert suspended.index(child) < suspended.index(parent), out
    assert "trace: device_suspend /devices/platform/serial8250 serial8250" in out
    assert "suspend debug: Waiting for 1 second(s)." in out
    times = [float(t) for t in re.findall(r"\[\s*(\d+\.\d+)\] trace: device_(?:suspend|resume)", out)]
    assert times[-1] - times[0] >= 1.0, out	# the wait happened between the two walks
    assert "PM: resume of devices complete after" in out
    assert k.run("echo still here") == "still here\n"	# the serial port was resumed

    # "core": the system devices too, after every device, interrupts off (2.6.25's suspend_enter).
    assert k.run("ls /sys/devices/system") == "cpu\ni8259\nioapic\nlapic\ntimer\n"
    assert k.run("echo core > /sys/power/pm_test") == ""
    ticks = timer_ticks(k)
    out = k.run("echo mem > /sys/power/state", timeout=30)
    assert sysdev_steps(out, "suspend") == SYSDEV_SUSPEND_ORDER, out
    assert sysdev_steps(out, "resume") == SYSDEV_RESUME_ORDER, out
    assert out.index("sysdev_suspend") > out.rindex("trace: device_suspend"), out
    assert out.index("trace: device_resume") > out.rindex("sysdev_resume"), out
    assert "PM: resume of devices complete after" in out
    assert timer_ticks(k) > ticks	# the PIT, programmed again at resume, ticks
    assert k.run("echo still here") == "still here\n"

    assert k.run("blk write vda 7 written before poweroff") == ""
    k.send("poweroff\r")
    assert k.wait_exit() == 0
    text = k.transcript()
    down = steps(text, "shutdown")
    assert down == [d for d in resumed[::-1] if d in down], text	# the last added first
    assert down[:3] == ["/devices/pci0000:00/0000:00:04.0/virtio0", "/devices/platform/i8042/serio0",
                        "/devices/platform/serial8250"], text
    assert "trace: virtblk_shutdown vda flushed, reset" in text
    assert text.index("virtblk_shutdown") < text.index("reboot: Power down")
    with open(img, "rb") as f:
        f.seek(7 * 512)
        assert f.read(24) == b"written before poweroff\0"


def test_pm_test_processors_takes_the_other_cpus_down_and_back(boot_with):
    """2.6.25's suspend_devices_and_enter: after the devices, disable_nonboot_cpus;
    "processors" waits there, "core" goes on to the system devices with CPU 1 down."""
    k = boot_with("suspend.pm_test_delay=0", qemu_args=["-smp", "2"])
    assert k.run("echo processors > /sys/power/pm_test") == ""
    out = k.run("echo mem > /sys/power/state", timeout=30)
    order = ["PM: suspend of devices complete", "Disabling non-boot CPUs ...",
             "CPU 1 is now offline", "CPU1 is down", "suspend debug: Waiting for 0 second(s).",
             "Enabling non-boot CPUs ...", "Booting processor 1/1 eip 8000", "CPU1 is up",
             "PM: resume of devices complete"]
    at = [out.find(line) for line in order]
    assert -1 not in at and at == sorted(at), out
    assert k.run("cat /sys/devices/system/cpu/cpu1/online") == "1\n"
    assert re.findall(r"^processor\t: (\d)$", k.run("cat /proc/cpuinfo"), re.M) == ["0", "1"]

    assert k.run("echo core > /sys/power/pm_test") == "" and k.run("trace on") == ""
    out = k.run("echo mem > /sys/power/state", timeout=30)
    assert out.index("CPU1 is down") < out.index("sysdev_suspend") < out.index("CPU1 is up"), out
    assert sysdev_steps(out, "suspend")[-2:] == ["cpu/cpu0", "cpu/cpu1"], out  # a class's devices in add order
    assert k.run("echo still here") == "still here\n"
