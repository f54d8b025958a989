"""test_hvc.py: the virtio console (virtio_console) as hvc0 and hvc1, consoles
beside the serial port, each with a shell of its own: hvc0 on a modern
virtio-serial-pci (MSI-X), hvc1 on a legacy one (INTx), each with a
virtconsole on a unix socket the test talks to. One QEMU boot, on two CPUs:
the hvcs' devices and nodes, then the shells per console (a long command
on one, sleeping or not, leaves the others answering; Ctrl-C and cwd are
each console's), then unbind, rmmod and reload."""
import re
import socket
import time

from test_virtio import cat, sh

DRV = "/sys/bus/virtio/drivers/virtio_console"


class Port:
    """The host's end of a virtconsole: a unix socket QEMU listens on."""

    def __init__(self, path):
        self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        for _ in range(100):
            try:
                self.s.connect(path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                time.sleep(0.05)
        self.s.settimeout(0.05)
        self.buf = b""

    def send(self, text):
        self.s.sendall(text.encode())

    def read_until(self, text, timeout=10):
        """What arrived up to and including text (\\r\\n as \\n); fails if it never comes."""
        end = time.time() + timeout
        while text.encode() not in self.buf.replace(b"\r\n", b"\n"):
            if time.time() > end:
                raise AssertionError("%r never came; got %r" % (text, self.buf[-2000:]))
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                continue
            if not data:
                raise AssertionError("the socket closed; got %r" % self.buf[-2000:])
            self.buf += data
        got = self.buf.replace(b"\r\n", b"\n").decode(errors="replace")
        i = got.index(text) + len(text)
        self.buf = got[i:].replace("\n", "\r\n").encode()
        return got[:i]

    def drain(self):
        """Whatever has arrived by now."""
        time.sleep(0.1)
        try:
            while True:
                data = self.s.recv(65536)
                if not data:
                    break
                self.buf += data
        except socket.timeout:
            pass
        out, self.buf = self.buf.replace(b"\r\n", b"\n").decode(errors="replace"), b""
        return out

    def close(self):
        self.s.close()


def lines(text):
    return text.split("\n")


def test_hvc_consoles(boot_with, tmp_path):
    socks = [str(tmp_path / "hvc0.sock"), str(tmp_path / "hvc1.sock")]
    args = []
    for i, (path, dev) in enumerate(zip(socks, ["virtio-serial-pci",
                                                 "virtio-serial-pci,disable-modern=on"])):
        args += ["-chardev", "socket,id=hvc%d,path=%s,server=on,wait=off" % (i, path),
                 "-device", dev, "-device", "virtconsole,chardev=hvc%d" % i]
    k = boot_with(qemu_args=args + ["-smp", "2"])
    hvc = [Port(p) for p in socks]
    try:
        check_hvc(k, hvc)
    finally:
        for p in hvc:
            p.close()


def check_shell_per_console(k, hvc):
    """A long command on one console leaves the others answering; Ctrl-C and
    the working directory are each console's own; each shell is a thread."""
    rows = re.findall(r"^ +\d+ root +\d+:\d\d (\S+)$", k.run("ps"), re.M)
    assert rows[0] == "sh" and {"[sh/tty0]", "[sh/hvc0]", "[sh/hvc1]"} <= set(rows), rows
    hvc[1].drain()
    hvc[1].send("sleep 60\r")
    hvc[1].read_until("sleep 60\n")
    start = time.time()
    assert sh(k, "echo serial-answers") == "serial-answers\n"  # while hvc1 sleeps
    hvc[0].send("cd /sys/class\r")
    assert hvc[0].read_until("kobold:/sys/class# ").endswith("cd /sys/class\nkobold:/sys/class# ")
    hvc[0].send("ls -l /dev/hvc1\r")
    assert "crw-------    229,   1 /dev/hvc1\nkobold:/sys/class# " in \
        hvc[0].read_until("kobold:/sys/class# ")
    assert k.run("pwd") == "/\n"  # serial's working directory is its own
    k.send("\x03")  # Ctrl-C on serial: its line dropped, hvc1's sleep goes on
    k.wait_prompt()
    assert k.output().endswith("^C\n"), k.output()
    assert time.time() - start < 30
    time.sleep(0.3)
    assert hvc[1].drain() == ""  # still sleeping: no ^C, no prompt
    hvc[1].send("\x03")
    assert hvc[1].read_until("kobold:/# ") == "^C\nkobold:/# "
    hvc[1].send("pwd\r")
    assert hvc[1].read_until("kobold:/# ") == "pwd\n/\nkobold:/# "
    hvc[0].send("cd /\r")
    hvc[0].read_until("kobold:/# ")
    check_busy_console_leaves_others_answering(k, hvc[1])


def check_busy_console_leaves_others_answering(k, port):
    """A command that never sleeps (blk bench on the RAM disk, whose requests
    end as they are submitted) holds no lock the other consoles' shells need."""
    assert sh(k, "modprobe sbd") == ""
    port.drain()
    port.send("blk bench sbd0 read seq 4 4096\r")
    port.read_until("blk bench sbd0 read seq 4 4096\n")
    time.sleep(0.5)  # well inside the bench (4 GiB: about a minute under TCG)
    start = time.time()
    assert sh(k, "echo serial-answers; cat /sys/block/sbd0/size") == "serial-answers\n8192\n"
    assert time.time() - start < 10
    assert port.drain() == ""  # the bench goes on meanwhile
    port.send("\x03")
    assert port.read_until("kobold:/# ").endswith("^C\nkobold:/# ")
    assert sh(k, "rmmod sbd") == ""


def check_hvc(k, hvc):
    # The class devices, their numbers, where they sit and their nodes.
    log = k.run("dmesg")
    assert "virtio_console virtio0: hvc0 (229:0), modern transport" in log
    assert "virtio_console virtio1: hvc1 (229:1), legacy transport" in log
    assert {"hvc0", "hvc1", "ttyS0"} <= set(sh(k, "ls /sys/class/tty").split())
    assert cat(k, "/sys/class/tty/hvc0/dev") == "229:0"
    assert cat(k, "/sys/class/tty/hvc1/dev") == "229:1"
    assert sh(k, "readlink /sys/class/tty/hvc0/device").strip() == "../../../virtio0"
    assert sh(k, "readlink /sys/class/tty/hvc1").strip() == \
        "../../devices/pci0000:00/0000:00:05.0/virtio1/tty/hvc1"
    assert sh(k, "ls -l /dev/hvc0 /dev/hvc1") == \
        "crw-------    229,   0 /dev/hvc0\ncrw-------    229,   1 /dev/hvc1\n"
    assert "DEVNAME=hvc0" in cat(k, "/sys/class/tty/hvc0/uevent").split("\n")
    assert cat(k, "/sys/bus/virtio/devices/virtio0/modalias") == "virtio:d00000003v00001AF4"
    assert "alias virtio:d00000003v* virtio_console\n" in sh(k, "modprobe -c")
    irqs = sh(k, "cat /proc/interrupts")
    assert re.search(r"PCI-MSI-X  virtio0-input$", irqs, re.M), irqs	# the modern one's queue
    assert "virtio0-output" not in irqs	# no callback: no vector, as Linux

    # Each console has a shell of its own: a command typed on an hvc answers there only.
    for i, port in enumerate(hvc):
        port.drain()
        port.send("echo typed-on-hvc%d\r" % i)
        got = port.read_until("kobold:/# ")
        assert got == "echo typed-on-hvc%d\ntyped-on-hvc%d\nkobold:/# " % (i, i), got
    assert sh(k, "echo typed-on-serial") == "typed-on-serial\n"
    assert "typed-on-hvc" not in k.transcript()  # nothing of the hvcs' shells on serial
    assert all("typed-on-serial" not in p.drain() for p in hvc)

    # Writing the node: only that port gets the text.
    for p in hvc:
        p.drain()
    assert sh(k, "echo hello > /dev/hvc0") == ""
    assert "hello" in lines(hvc[0].read_until("hello\n"))
    assert sh(k, "echo legacy > /dev/hvc1") == ""
    assert "legacy" in lines(hvc[1].read_until("legacy\n"))
    assert "hello" not in lines(hvc[1].drain()) and "legacy" not in lines(hvc[0].drain())

    # Ctrl-C on hvc0 stops a command started there, as on serial.
    hvc[0].send("udevadm monitor\r")
    hvc[0].read_until("monitor will print the received events for:")
    hvc[0].send("\x03")
    assert "^C" in hvc[0].read_until("kobold:/# ")

    check_shell_per_console(k, hvc)

    # An open node pins the module; after an unbind its writes fail, the close is clean.
    assert k.run("open /dev/hvc1") == "fd 3\n"
    assert k.run("rmmod virtio_console") == "rmmod: ERROR: Module virtio_console is in use\n"
    assert sh(k, "echo virtio1 > %s/unbind" % DRV) == ""
    assert "hvc1" not in sh(k, "ls /sys/class/tty /dev").split()
    assert k.run("write 3 gone") == "write: /dev/hvc1: No such device\n"
    assert sh(k, "close 3") == ""
    assert sh(k, "echo virtio1 > %s/bind" % DRV) == ""
    assert cat(k, "/sys/class/tty/hvc1/dev") == "229:1"

    # rmmod: the hvcs and the console go; the add event's MODALIAS loads the module back.
    def reload():
        k.run("echo add > /sys/bus/virtio/devices/virtio0/uevent")
        k.run("udevadm settle")
        assert sh(k, "ls %s" % DRV).split() == ["bind", "unbind", "virtio0", "virtio1"]

    assert sh(k, "rmmod virtio_console") == ""
    reload()
    before = k.snapshot()
    for _ in range(3):
        assert sh(k, "rmmod virtio_console") == ""
        assert "hvc" not in sh(k, "ls /sys/class/tty /dev")
        for p in hvc:
            p.drain()
        assert sh(k, "echo unheard") == "unheard\n"
        assert all("unheard" not in p.drain() for p in hvc)	# no console there now
        reload()
        assert cat(k, "/sys/class/tty/hvc1/dev") == "229:1"
    after = k.snapshot()
    for key in ["BytesInUse", "ObjectsInUse", "kobjects"]:
        assert after[key] == before[key], (key, before[key], after[key])
    assert k.run("dmesg").count("kmod: loaded virtio_console for virtio:d00000003v00001AF4") == 4
    hvc[0].drain()
    hvc[0].send("echo still-here\r")
    assert "\nstill-here\n" in hvc[0].read_until("still-here\nkobold:/# ")
