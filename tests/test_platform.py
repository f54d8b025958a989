"""test_platform.py: the PC's legacy devices on the platform bus (serial8250,
i8042, rtc_cmos, vga) with their drivers bound, the serio bus below the i8042
with atkbd, and binding and unbinding through sysfs. One QEMU boot."""
import re
import time

from test_console import screen_text, wait_screen
from test_virtio import cat, sh

DRV = "/sys/bus/platform/drivers"


def readlink(k, path):
    return sh(k, "readlink " + path).strip()


def keys(k, text):
    for key in text:
        k.monitor("sendkey " + {" ": "spc", "\r": "ret"}.get(key, key))


def test_platform_and_serio_buses(boot_with, tmp_path):
    ttys1 = tmp_path / "ttyS1.txt"
    k = boot_with(qemu_args=["-serial", "file:%s" % ttys1, "-rtc", "base=2030-01-02T03:04:05",
                             "-device", "virtio-rng-pci"],
                  monitor=str(tmp_path / "mon.sock"))
    # The tree: five devices, four with their drivers; serio0 below the i8042.
    assert {"platform", "serio"} <= set(sh(k, "ls /sys/bus").split())
    platform = sh(k, "ls /sys/bus/platform/devices").split()  # lab 9 adds its kfan
    assert {"i8042", "pcspkr", "rtc_cmos", "serial8250", "vga"} <= set(platform), platform
    # pcspkr's driver is lab 8's: bound once a student has written it, so either is right here
    assert "uevent" in sh(k, "ls /sys/devices/platform/pcspkr").split()
    for name in ["i8042", "rtc_cmos", "serial8250", "vga"]:
        assert readlink(k, "/sys/bus/platform/devices/" + name) == "../../../devices/platform/" + name
        assert readlink(k, "/sys/devices/platform/%s/driver" % name) == \
            "../../../bus/platform/drivers/" + name
        assert sh(k, "ls %s/%s" % (DRV, name)).split() == sorted(["bind", "unbind", name])
    assert readlink(k, "/sys/bus/serio/devices/serio0") == "../../../devices/platform/i8042/serio0"
    assert readlink(k, "/sys/devices/platform/i8042/serio0/driver") == "../../../../bus/serio/drivers/atkbd"
    assert cat(k, "/sys/devices/platform/i8042/serio0/description") == "i8042 KBD port"
    assert cat(k, "/sys/devices/platform/i8042/serio0/modalias") == "serio:ty06pr00id00ex00"
    assert cat(k, "/sys/devices/platform/i8042/serio0/id/type") == "06"
    assert cat(k, "/sys/bus/serio/drivers/atkbd/description") == "AT and PS/2 keyboard driver"
    log = k.run("dmesg")
    assert "serial8250: ttyS0 at I/O 0x3f8 (irq = 4) is a 16550A" in log
    assert "serial8250: ttyS1 at I/O 0x2f8 (irq = 3) is a 16550A" in log	# -serial file:
    assert "serio: i8042 KBD port at 0x60,0x64 irq 1" in log
    assert re.search(r"rtc_cmos rtc_cmos: setting system clock to 2030-01-02 03:04:0(\d) UTC "
                     r"\(189355344\1\)", log), log	# -rtc base=, a second or so after QEMU started
    # The classes, in the struct device API: ttyS0..3 below serial8250, rtc0 below rtc_cmos.
    assert sh(k, "ls /sys/class/tty").split() == ["console", "tty0", "ttyS0", "ttyS1", "ttyS2", "ttyS3"]
    assert [cat(k, "/sys/class/tty/ttyS%d/dev" % i) for i in range(4)] == ["4:64", "4:65", "4:66", "4:67"]
    assert cat(k, "/sys/class/tty/console/dev") == "5:1"
    assert readlink(k, "/sys/class/tty/ttyS1") == "../../devices/platform/serial8250/tty/ttyS1"
    assert readlink(k, "/sys/class/rtc/rtc0") == "../../devices/platform/rtc_cmos/rtc/rtc0"
    assert cat(k, "/sys/class/rtc/rtc0/name") == "rtc_cmos"
    assert cat(k, "/sys/class/rtc/rtc0/date") == "2030-01-02"
    assert cat(k, "/sys/class/rtc/rtc0/time").startswith("03:0")
    assert 1893553445 <= int(cat(k, "/sys/class/rtc/rtc0/since_epoch")) < 1893553445 + 120
    assert cat(k, "/sys/class/rtc/rtc0/hctosys") == "1"
    # virtio_rng on the virtio bus, as hw_random (10:183) in the misc class.
    assert readlink(k, "/sys/bus/virtio/devices/virtio0/driver").endswith("drivers/virtio_rng")
    assert readlink(k, "/sys/class/misc/hw_random") == "../../devices/virtual/misc/hw_random"
    assert cat(k, "/sys/class/misc/hw_random/dev") == "10:183"
    assert cat(k, "/sys/class/misc/hw_random/rng_current") == "virtio_rng.0"
    assert cat(k, "/sys/class/misc/hw_random/rng_available") == "virtio_rng.0"
    assert k.run("echo nosuch > /sys/class/misc/hw_random/rng_current") == \
        "echo: write error: No such device\n"
    assert sh(k, "echo virtio0 > /sys/bus/virtio/drivers/virtio_rng/unbind") == ""
    assert sh(k, "ls /sys/class/misc") == ""	# hw_random goes with its last source
    k.run("trace on")
    out = k.run("echo virtio0 > /sys/bus/virtio/drivers/virtio_rng/bind")
    k.run("trace off")
    assert "trace: hwrng_register virtio_rng.0 early bytes read" in out	# the device answered
    assert cat(k, "/sys/class/misc/hw_random/rng_current") == "virtio_rng.0"
    dumps = [sh(k, "hexdump -C -n 32 /dev/hwrng") for _ in range(2)]	# bytes from the device
    assert all(d.endswith("00000020\n") and len(d.split("\n")) == 4 for d in dumps), dumps
    assert dumps[0] != dumps[1]
    assert "event0" in sh(k, "ls /dev/input")
    events = sh(k, "udevadm monitor --journal -p")
    assert "add      /devices/platform/serial8250 (platform)" in events
    assert "MODALIAS=serio:ty06pr00id00ex00\n" in events

    # serial8250 unbound: IRQ 4 is freed and the console is polled; the shell still answers.
    assert sh(k, "echo serial8250 > %s/serial8250/unbind" % DRV) == ""
    assert "driver" not in sh(k, "ls /sys/devices/platform/serial8250").split()
    assert sh(k, "echo still here") == "still here\n"
    assert k.run("echo serial8250 > %s/serial8250/unbind" % DRV) == "echo: write error: No such device\n"
    assert k.run("echo nosuch > %s/serial8250/bind" % DRV) == "echo: write error: No such device\n"
    assert k.run("echo i8042 > %s/serial8250/bind" % DRV) == "echo: write error: No such device\n"
    assert k.run("cat %s/serial8250/bind" % DRV).startswith("cat: ")
    assert sh(k, "ls /sys/class/tty") == "console\ntty0\n"	# the lines went with the driver
    assert "ttyS0 at I/O 0x3f8" in k.run("echo serial8250 > %s/serial8250/bind" % DRV)
    assert "ttyS3" in sh(k, "ls /sys/class/tty")
    assert readlink(k, "/sys/devices/platform/serial8250/driver") == \
        "../../../bus/platform/drivers/serial8250"
    assert k.run("echo serial8250 > %s/serial8250/bind" % DRV) == \
        "echo: write error: Device or resource busy\n"

    # input0 below serio0, with Linux's name, phys and ids; event0 (13:64) counts the keys.
    I = "/sys/devices/platform/i8042/serio0/input/input0"
    assert readlink(k, "/sys/class/input/input0") == "../../devices/platform/i8042/serio0/input/input0"
    assert cat(k, I + "/name") == "AT Translated Set 2 keyboard"
    assert cat(k, I + "/phys") == "isa0060/serio0/input0"
    assert [cat(k, I + "/id/" + f) for f in ["bustype", "vendor", "product", "version"]] == \
        ["0011", "0001", "0001", "ab41"]
    assert cat(k, I + "/event0/dev") == "13:64"
    assert "PRODUCT=11/1/1/ab41" in cat(k, I + "/uevent")
    before = int(cat(k, I + "/event0/events"))

    # The keyboard goes i8042 -> serio0 -> atkbd (into tty0's shell): unbinding either silences it.
    keys(k, "echo k1\r")
    wait_screen(k, lambda l: "k1" in l)
    assert int(cat(k, I + "/event0/events")) == before + 2 * 8	# 8 keys, down and up
    assert re.search(r"\n  1: +[1-9]\d*( +\d+)* +IO-APIC-edge  i8042\n", sh(k, "cat /proc/interrupts"))
    assert sh(k, "echo serio0 > /sys/bus/serio/drivers/atkbd/unbind") == ""
    assert "driver" not in sh(k, "ls /sys/bus/serio/devices/serio0").split()
    left = sh(k, "ls /sys/class/input").split()  # lab 8's PC speaker may be there too
    assert "input0" not in left and "event0" not in left, left  # went with atkbd's binding
    keys(k, "echo k2\r")
    time.sleep(0.5)
    assert sh(k, "echo serio0 > /sys/bus/serio/drivers/atkbd/bind") == ""
    assert sh(k, "echo i8042 > %s/i8042/unbind" % DRV) == ""
    assert sh(k, "ls /sys/bus/serio/devices") == ""	# the port went with its controller
    keys(k, "echo k3\r")
    time.sleep(0.5)
    assert sh(k, "echo i8042 > %s/i8042/bind" % DRV) == ""
    assert not any(w in screen_text(k) for w in ["k2", "k3"])
    assert sh(k, "ls /sys/bus/serio/devices") == "serio1\n"	# numbers are not reused, as Linux
    assert readlink(k, "/sys/bus/serio/devices/serio1/driver").endswith("drivers/atkbd")
    keys(k, "echo k4\r")
    wait_screen(k, lambda l: "k4" in l)

    # vga unbound: the screen no longer shows the console (tty0's shell answers unseen).
    assert sh(k, "echo vga > %s/vga/unbind" % DRV) == ""
    keys(k, "echo xyzzy\r")
    time.sleep(0.5)
    assert not any("xyzzy" in l for l in screen_text(k)), "\n".join(screen_text(k))
    assert sh(k, "echo vga > %s/vga/bind" % DRV) == ""
    keys(k, "echo plugh\r")
    wait_screen(k, lambda l: "plugh" in l)
