"""kobold.py: boots Kobold in QEMU and drives its shell over the serial port.

Every test goes through Kobold: it starts qemu-system-i386 with the kernel,
waits for the prompt, sends commands and returns what they printed. A PANIC
line fails the test at once; QEMU is always killed at the end.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import time

import pexpect

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNEL = os.environ.get("KOBOLD_KERNEL", os.path.join(ROOT, "build", "kobold.elf"))
# KOBOLD_SMP=N boots every kernel with N CPUs, unless a test chooses its own -smp.
SMP = os.environ.get("KOBOLD_SMP", "")
ISO = os.environ.get("KOBOLD_ISO", os.path.join(ROOT, "build", "kobold.iso"))
QEMU = os.environ.get("KOBOLD_QEMU", "qemu-system-i386")
TIMEOUT = float(os.environ.get("KOBOLD_TIMEOUT", "30"))
PROMPT = re.compile(r"kobold:(/[^\r\n#]*)# ")
EXIT_SUCCESS = 33  # isa-debug-exit: (0x10 << 1) | 1
EXIT_FAILURE = 35  # (0x11 << 1) | 1
ROOTFS = os.path.join(ROOT, "build", "rootfs.cpio")  # busybox's root file system (make rootfs)
GEN_CPIO = os.path.join(ROOT, "scripts", "gen_init_cpio.py")


def build_user():
    """make rootfs and make user: up to date after make test's build (two test files
    running make at once could race), made here when a file runs alone."""
    for target in ("rootfs", "user"):
        p = subprocess.run(["make", "-s", target], cwd=ROOT, capture_output=True, text=True,
                           timeout=900)
        assert p.returncode == 0, p.stdout + p.stderr


def cpio(out, entries):
    """An archive at out made by scripts/gen_init_cpio.py from its entry lines; its path."""
    with open(out, "wb") as f:
        subprocess.run([sys.executable, GEN_CPIO, "-"], input="\n".join(entries).encode(),
                       stdout=f, check=True)
    return str(out)


def user_initrd(out, entries):
    """-initrd's argument: the root file system, then an archive at out of entries."""
    return "%s,%s" % (ROOTFS, cpio(out, entries))


class KernelPanic(AssertionError):
    pass


class Kobold:
    def __init__(self, append="", qemu_args=(), grub=False, timeout=None, monitor=None,
                 no_reboot=True):
        """no_reboot=False lets a reset restart the machine instead of ending QEMU."""
        self.timeout = timeout or TIMEOUT
        self.monitor_path = monitor
        args = ["-M", "pc", "-m", "256M"] + (["-no-reboot"] if no_reboot else []) + [
                "-display", "none",
                "-chardev", "stdio,id=console,signal=off", "-serial", "chardev:console",
                "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
        if monitor:
            args += ["-monitor", "unix:%s,server=on,wait=off" % monitor]
        else:
            args += ["-monitor", "none"]
        if grub:
            args += ["-cdrom", ISO, "-boot", "d"]
        else:
            args += ["-kernel", KERNEL]
            if append:
                args += ["-append", append]
        args += list(qemu_args)
        if SMP and "-smp" not in args:
            args += ["-smp", SMP]
        self.args = args
        self.log = []
        self.child = pexpect.spawn(QEMU, args, encoding="utf-8", codec_errors="replace",
                                   timeout=self.timeout, echo=False)

    # -- waiting -------------------------------------------------------------
    def expect(self, pattern, timeout=None):
        """Waits for pattern (a regex or a list); fails at once on PANIC."""
        patterns = pattern if isinstance(pattern, list) else [pattern]
        idx = self.child.expect(patterns + ["PANIC[^\n]*", pexpect.EOF, pexpect.TIMEOUT],
                                timeout=timeout or self.timeout)
        self.log.append(self.child.before + (self.child.after if isinstance(self.child.after, str) else ""))
        if idx == len(patterns):
            self._drain()
            raise KernelPanic("kernel panic:\n" + self.transcript()[-4000:])
        if idx == len(patterns) + 1:
            raise AssertionError("QEMU exited early:\n" + self.transcript()[-4000:])
        if idx == len(patterns) + 2:
            raise AssertionError("timed out waiting for %r:\n%s" % (patterns, self.transcript()[-4000:]))
        return idx

    def _drain(self):
        try:
            self.child.expect(pexpect.EOF, timeout=2)
            self.log.append(self.child.before)
        except pexpect.TIMEOUT:
            pass

    def transcript(self):
        return "".join(self.log).replace("\r", "")

    def wait_prompt(self, timeout=None):
        self.expect(PROMPT, timeout=timeout)
        return self.child.match.group(1)

    # -- commands ------------------------------------------------------------
    def send(self, text):
        """Sends raw bytes as typed, in small pieces so the UART keeps up."""
        for i in range(0, len(text), 64):
            self.child.send(text[i:i + 64])
            time.sleep(0.002)

    def run(self, command, timeout=None):
        """Types command and Enter; returns what it printed before the next prompt."""
        self.send(command + "\r")
        self.expect(PROMPT, timeout=timeout)
        out = self.child.before.replace("\r", "")
        # The first line is the echo of what was typed.
        first, _, rest = out.partition("\n")
        return rest

    def cwd(self):
        return self.child.match.group(1)

    def output(self):
        """What was printed before the last match, without carriage returns."""
        return self.child.before.replace("\r", "")

    def snapshot(self):
        """The leak figures, to compare before and after: meminfo's bytes and
        objects in use, the kobjects listing and the last event's number, once
        udevd has handled the events so far (no command waits for them unless
        it asks: udevadm settle)."""
        self.run("udevadm settle")
        mem = dict(re.findall(r"^(\w+):\s+(\d+)$", self.run("meminfo"), re.M))
        return {"BytesInUse": int(mem["BytesInUse"]), "ObjectsInUse": int(mem["ObjectsInUse"]),
                "kobjects": self.run("kobjects"),
                "seqnum": int(self.run("cat /sys/kernel/uevent_seqnum"))}

    # -- ending --------------------------------------------------------------
    def wait_exit(self, timeout=None):
        """Waits for QEMU to exit; returns its exit status."""
        try:
            self.child.expect(pexpect.EOF, timeout=timeout or self.timeout)
        except pexpect.TIMEOUT:
            raise AssertionError("QEMU did not exit:\n" + self.transcript()[-4000:])
        self.log.append(self.child.before)
        self.reap()
        if "PANIC" in self.transcript():
            raise KernelPanic("kernel panic:\n" + self.transcript()[-4000:])
        return self.child.exitstatus

    def monitor(self, command):
        """Sends one command to QEMU's human monitor and returns its reply."""
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.settimeout(self.timeout)
        for _ in range(100):
            try:
                s.connect(self.monitor_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                time.sleep(0.05)
        data = b""
        while b"(qemu) " not in data:
            data += s.recv(4096)
        s.sendall(command.encode() + b"\n")
        data = b""
        while data.count(b"(qemu) ") < 1:
            data += s.recv(4096)
        s.close()
        return data.decode(errors="replace")

    def reap(self, within=5.0):
        """Closes the console once QEMU has exited (SIGKILL if it is still there after
        within seconds). pexpect's close and terminate sleep 0.1 s at each step instead
        of waiting for the exit: 0.2 s a boot, minutes over the tests."""
        deadline = time.monotonic() + within
        while self.child.isalive() and time.monotonic() < deadline:
            time.sleep(0.002)
        if self.child.isalive():
            self.child.kill(signal.SIGKILL)
            self.child.wait()
        self.child.ptyproc.delayafterclose = 0
        self.child.close(force=True)

    def close(self):
        """Ends QEMU as a hang-up does (it shuts down as on SIGTERM) and waits until it has."""
        if self.child.isalive():
            self.child.kill(signal.SIGHUP)
            self.reap(within=1.0)
        else:
            self.reap()


def boot(append="", boot_timeout=None, **kw):
    """Starts QEMU and waits for the first prompt (boot_timeout: how long, default the timeout)."""
    k = Kobold(append, **kw)
    try:
        k.wait_prompt(boot_timeout)
    except BaseException:
        k.close()
        raise
    return k


def run_to_exit(append, timeout=None, **kw):
    """Boots with append, waits for QEMU to exit; returns (status, transcript)."""
    k = Kobold(append, timeout=timeout, **kw)
    try:
        try:
            k.child.expect(pexpect.EOF, timeout=timeout or TIMEOUT)
        except pexpect.TIMEOUT:
            raise AssertionError("QEMU did not exit:\n" + "".join(k.log + [k.child.before])[-4000:])
        k.log.append(k.child.before)
        k.reap()
        return k.child.exitstatus, k.transcript()
    finally:
        k.close()


KTAP_CASE = re.compile(r"^\s*(not ok|ok) (\d+) (\S+)")
KTAP_SUBTEST = re.compile(r"^\s*# Subtest: (\S+)")


def parse_ktap(text):
    """Returns {"suite.case": (passed, diagnostics)} from nested KTAP output."""
    results, suite, diag = {}, None, []
    for line in text.replace("\r\n", "\n").split("\n"):
        m = KTAP_SUBTEST.match(line)
        if m:
            suite = m.group(1)
            continue
        m = KTAP_CASE.match(line)
        if m and line.startswith("    ") and suite:
            results["%s.%s" % (suite, m.group(3))] = (m.group(1) == "ok", "\n".join(diag))
            diag = []
        elif line.strip().startswith("#"):
            diag.append(line.strip())
    return results
