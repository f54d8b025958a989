"""test_noserial.py: boots without a serial port (QEMU -serial none), where the boot
shell goes to the first console there is, or, with none at all, the kernel says so once
and sleeps on, as 2.6's init ran on with no console.

With no serial port the test cannot read the kernel over stdio. It talks to a virtio
console (hvc0) on a unix socket instead: a byte stream with a shell on it, the same
channel test_hvc.py uses, where the VGA text buffer (the monitor's xp) would have to
be decoded from hex and scrolls away. QEMU's monitor types on the VGA console
(sendkey) and hot-plugs the virtio console where there is none at boot. A panic ends
QEMU (isa-debug-exit), so a QEMU still running is a kernel that did not panic."""
import re
import subprocess
import time

import pytest

import kobold
from test_hvc import Port


class NoSerial:
    """QEMU with no serial port, its monitor on a unix socket; killed at the end."""

    def __init__(self, tmp_path, args):
        self.monitor_path = str(tmp_path / "mon.sock")
        self.qemu = subprocess.Popen(
            [kobold.QEMU, "-M", "pc", "-m", "256M", "-no-reboot", "-display", "none",
             "-serial", "none", "-monitor", "unix:%s,server=on,wait=off" % self.monitor_path,
             "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04", "-kernel", kobold.KERNEL] + args,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def monitor(self, command):
        return kobold.Kobold.monitor(self, command)

    @property
    def timeout(self):
        return kobold.TIMEOUT

    def alive(self):
        return self.qemu.poll() is None

    def type(self, text):
        """Types text on the PS/2 keyboard (the VGA console's), Enter at the end."""
        keys = {" ": "spc", "/": "slash", "-": "minus", "\r": "ret"}
        for c in text + "\r":
            self.monitor("sendkey " + keys.get(c, c))

    def plug_console(self, path, n):
        """Hot-plugs a virtio console (a virtio-serial-pci of its own) on a socket at path."""
        self.monitor("chardev-add socket,id=hc%d,path=%s,server=on,wait=off" % (n, path))
        self.monitor("device_add virtio-serial-pci,id=vs%d" % n)
        self.monitor("device_add virtconsole,chardev=hc%d,bus=vs%d.0" % (n, n))

    def close(self):
        self.qemu.kill()
        self.qemu.wait()


def virtconsole(path):
    return ["-chardev", "socket,id=hc,path=%s,server=on,wait=off" % path,
            "-device", "virtio-serial-pci", "-device", "virtconsole,chardev=hc"]


def run(port, command):
    """A command on the console behind port: what it printed before the next prompt."""
    port.send(command + "\r")
    return port.read_until("kobold:/# ", timeout=kobold.TIMEOUT).split("\n", 1)[1].rsplit("\n", 1)[0]


def threads(port):
    return re.findall(r"^ +\d+ root +\d+:\d\d (\S+)$", run(port, "ps"), re.M)


@pytest.fixture
def qemu(tmp_path):
    started = []

    def start(args):
        started.append(NoSerial(tmp_path, args))
        return started[-1]
    yield start
    for q in started:
        q.close()


def first_prompt(port):
    """Waits for the shell, past whatever it printed before the test connected."""
    port.send("echo ready\r")
    port.read_until("\nready\nkobold:/# ", timeout=kobold.TIMEOUT)


def test_no_serial_port_the_boot_shell_is_on_the_screen(qemu, tmp_path):
    """-serial none: no ttyS0; PID 1's shell runs on tty0 (the VGA console and the
    keyboard), hvc0 gets a shell thread of its own, and /dev/console is tty0's."""
    sock = str(tmp_path / "hvc0.sock")
    q = qemu(virtconsole(sock))
    port = Port(sock)
    try:
        first_prompt(port)
        log = run(port, "dmesg")
        assert "serial: the BIOS reported no COM1: no ttyS0 console" in log, log
        assert "kobold: no ttyS0: the boot shell is on tty0" in log, log
        assert "Console: VGA (no serial port); poweroff" in log, log
        assert "PANIC" not in log and "Warning: unable to open an initial console" not in log
        assert run(port, "ls /sys/class/tty").split() == ["console", "hvc0", "tty0"]
        rows = threads(port)
        assert rows[0] == "sh" and "[sh/hvc0]" in rows and "[sh/tty0]" not in rows, rows
        q.type("mkdir /tmp/typed-on-tty0")  # the boot shell, on the screen, answers
        for _ in range(100):
            if "typed-on-tty0" in run(port, "ls /tmp"):
                break
            time.sleep(0.1)
        assert "typed-on-tty0" in run(port, "ls /tmp")
        assert q.alive()
    finally:
        port.close()


def test_no_serial_no_screen_the_boot_shell_is_on_hvc0(qemu, tmp_path):
    """-serial none -vga none: the virtio console is the first console, and PID 1's
    shell runs on it. Its device unloaded, that shell ends and PID 1 sleeps on; a
    console plugged in later gets a shell thread."""
    sock, sock2 = str(tmp_path / "hvc0.sock"), str(tmp_path / "hvc0-again.sock")
    q = qemu(["-vga", "none"] + virtconsole(sock))
    port = Port(sock)
    try:
        first_prompt(port)
        log = run(port, "dmesg")
        assert "kobold: no ttyS0: the boot shell is on hvc0" in log, log
        assert "Console: none found; poweroff" in log, log  # hvc0 comes later, as a device
        rows = threads(port)
        assert rows[0] == "sh" and not [r for r in rows if r.startswith("[sh/")], rows
        assert "ttyS0" not in run(port, "ls /sys/class/tty").split()
        port.send("rmmod virtio_console\r")  # its own console hangs up under it
        time.sleep(1)
        assert q.alive()
    finally:
        port.close()
    q.plug_console(sock2, 2)
    port = Port(sock2)
    try:
        first_prompt(port)
        assert "kobold: hvc0 hung up: the boot shell ended" in run(port, "dmesg")
        assert "[sh/hvc0]" in threads(port)  # a thread's, now
        assert q.alive()
    finally:
        port.close()


def test_no_console_at_all_says_so_once_and_runs_on(qemu, tmp_path):
    """-serial none -vga none and no virtio console: 2.6's "Warning: unable to open an
    initial console.", once, and no panic; a virtio console plugged in later gets a
    shell, whose dmesg shows that line."""
    sock = str(tmp_path / "hvc0.sock")
    q = qemu(["-vga", "none"])
    time.sleep(2)  # the boot (well under a second) and more
    assert q.alive(), q.qemu.stderr.read().decode(errors="replace")
    q.plug_console(sock, 1)
    port = Port(sock)
    try:
        first_prompt(port)
        log = run(port, "dmesg")
        assert log.count("Warning: unable to open an initial console.") == 1, log
        assert "PANIC" not in log and "BUG" not in log and "WARNING" not in log, log
        rows = threads(port)
        assert rows[0] == "sh" and "[sh/hvc0]" in rows, rows
        assert "ttyS0" not in run(port, "ls /sys/class/tty").split()
    finally:
        port.close()
