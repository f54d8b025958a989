"""test_console.py: the PS/2 keyboard and the VGA screen (through QEMU's monitor),
tty0's own shell, input that must never be lost (pastes, type-ahead, bytes sent before the first
prompt), Ctrl-C, reboot, and `make run` as the README gives it."""
import os
import re
import threading
import time

import pexpect
import pytest

import kobold


def screen_text(k):
    """The VGA text screen, read from guest memory at 0xb8000 through the monitor."""
    out = k.monitor("xp /2000hx 0xb8000")
    cells = []
    for line in out.replace("\r", "").split("\n"):
        if re.match(r"^[0-9a-f]+: ", line):  # "00000000000b8000: 0x0720 0x0720 ..."
            cells += [int(v, 16) for v in line.split(":", 1)[1].split()]
    chars = "".join(chr(c & 0xff) if 32 <= (c & 0xff) < 127 else " " for c in cells)
    return [chars[i:i + 80].rstrip() for i in range(0, len(chars), 80)]


KEY_NAMES = {" ": "spc", "\r": "ret", "/": "slash", ".": "dot", "-": "minus"}


def type_keys(k, text):
    """Types text on the PS/2 keyboard, a QEMU sendkey per key."""
    for ch in text:
        k.monitor("sendkey " + ("shift-" + ch.lower() if ch.isupper() else KEY_NAMES.get(ch, ch)))


def wait_screen(k, done, timeout=30):
    """The screen's non-empty lines once done(lines) holds; fails after timeout."""
    end = time.time() + timeout
    while True:
        lines = [l for l in screen_text(k) if l]
        if done(lines):
            return lines
        if time.time() > end:
            raise AssertionError("the screen never got there: %r" % lines)
        time.sleep(0.2)


def test_keyboard_and_vga_are_a_console_with_a_shell_of_its_own(tmp_path):
    """tty0 (keyboard in, VGA out) has its own shell: what is typed there runs
    and prints there only; the screen scrolls and clears; a long command on
    one console, sleeping or not, leaves the other answering; Ctrl-C stops its
    own console's."""
    k = kobold.boot(monitor=str(tmp_path / "mon.sock"))
    try:
        type_keys(k, "echo Kbd\r")
        lines = wait_screen(k, lambda l: l[-1:] == ["kobold:/#"] and "Kbd" in l)
        assert any(l.endswith("echo Kbd") for l in lines), lines
        assert "Kbd" not in k.transcript()  # serial's shell is another
        assert k.run("echo on-serial") == "on-serial\n"
        assert "on-serial" not in screen_text(k)
        type_keys(k, "help\recho end\r")  # longer than the screen: it scrolls
        lines = wait_screen(k, lambda l: l[-2:] == ["end", "kobold:/#"])
        assert len(lines) == 25, lines
        type_keys(k, "clear\r")
        wait_screen(k, lambda l: l == ["kobold:/#"])
        # A sleep on each console; Ctrl-C on the keyboard stops tty0's only.
        type_keys(k, "sleep 60\r")
        wait_screen(k, lambda l: l[-1:] == ["kobold:/# sleep 60"])
        assert k.run("echo serial-answers") == "serial-answers\n"  # while tty0 sleeps
        k.send("sleep 60\r")
        k.expect(r"sleep 60\r*\n")
        k.monitor("sendkey ctrl-c")
        wait_screen(k, lambda l: l[-2:] == ["^C", "kobold:/#"])
        with pytest.raises(AssertionError):  # serial's sleep goes on
            k.wait_prompt(timeout=1)
        k.child.send("\x03")
        k.wait_prompt()
        assert k.output().endswith("^C\n"), k.output()
        type_keys(k, "clear\r")
        wait_screen(k, lambda l: l == ["kobold:/#"])
        # A command that never sleeps on tty0 (blk bench on the RAM disk) leaves serial
        # answering on one CPU too: each shell's state is its own, no big lock between them.
        assert k.run("modprobe sbd") == ""
        type_keys(k, "blk bench sbd0 read seq 4 4096\r")
        wait_screen(k, lambda l: l == ["kobold:/# blk bench sbd0 read seq 4 4096"])
        start = time.time()
        assert k.run("echo serial-answers; cat /sys/block/sbd0/size") == "serial-answers\n8192\n"
        assert time.time() - start < 10
        assert [l for l in screen_text(k) if l] == ["kobold:/# blk bench sbd0 read seq 4 4096"]
        k.monitor("sendkey ctrl-c")
        wait_screen(k, lambda l: l[-2:] == ["^C", "kobold:/#"])
        assert k.run("rmmod sbd") == ""
        type_keys(k, "clear\r")
        wait_screen(k, lambda l: l == ["kobold:/#"])
        type_keys(k, "bench devmodel 100000\r")
        wait_screen(k, lambda l: l[:1] == ["kobold:/# bench devmodel 100000"])
        time.sleep(0.3)
        # Kernel messages may come in between (they go to every console), even on the
        # prompt's line: udevd's "queue full" report when the benchmark's events pile up.
        k.monitor("sendkey ctrl-c")
        lines = wait_screen(k, lambda l: "^C" in l and any(
            x.startswith("kobold:/#") for x in l[l.index("^C"):]))
        assert not any("devmodel register" in l for l in lines), lines
        k.monitor("nmi")  # counted in NMI:, as 2.6 i386's handler counts it; no oops
        assert re.search(r"^NMI: +1 $", k.run("cat /proc/interrupts"), re.M)
        assert k.run("echo after-nmi") == "after-nmi\n"
    finally:
        k.close()


def test_pasted_input_is_never_lost(kernel):
    """Each paste is ONE write to QEMU's serial port, not the helper's paced send."""
    k = kernel
    for n in (3000, 10000):
        assert k.child.send("echo " + "x" * (n - 6) + "\r") == n  # n bytes, Enter included
        k.expect(kobold.PROMPT, timeout=120)
        assert "kobold: line too long (at most 1023 characters)" in k.output(), k.output()[-300:]
        assert k.run("echo after-%d" % n).strip() == "after-%d" % n
    # 400 lines (10 KB) typed ahead while a command runs: every one of them runs.
    k.send("bench devmodel 5000\r")
    k.expect(r"bench devmodel 5000\r*\n")
    lines = "".join("echo paste-%03d-%s\r" % (i, "y" * 12) for i in range(400))
    assert len(lines) > 10000
    # One write, from a thread of its own, while this one reads the echoes: a
    # reader that only writes would leave QEMU's output to the pty unread, and
    # the console's write gives up on a port that never drains (as 8250's does).
    sent = []
    writer = threading.Thread(target=lambda: sent.append(k.child.send(lines)))
    writer.start()
    k.expect(r"\npaste-399-y{12}\r*\n", timeout=120)
    writer.join()
    assert sent == [len(lines)]
    k.wait_prompt()
    done = set(re.findall(r"^paste-(\d{3})-y{12}$", k.transcript(), re.M))
    assert len(done) == 400, sorted(set("%03d" % i for i in range(400)) - done)[:20]


def boot_failing_request_irq_of_serial8250():
    """A boot whose failslab.nth=N hits the kmalloc of serial8250_probe's
    request_irq. N is found by bisection, not assumed: the probe prints its
    ttyS lines just before that allocation, so a failure logged before them
    came too early, one logged after them (elsewhere) too late."""
    lo, hi = 1, 2000
    while lo <= hi:
        n = (lo + hi) // 2
        k = kobold.Kobold("failslab.nth=%d" % n)
        try:
            k.wait_prompt()
        except kobold.KernelPanic:  # an essential part failed: before the drivers
            k.close()
            lo = n + 1
            continue
        text = k.transcript()
        if re.search(r"from serial8250_probe\+", text):
            return k
        k.close()
        fail, probed = text.find("forcing a failure"), text.find("serial8250: ttyS0 at")
        if fail < 0 or 0 <= probed < fail:
            hi = n - 1
        else:
            lo = n + 1
    raise AssertionError("no boot failed in serial8250_probe")


def test_serial_without_its_interrupt_is_polled():
    """If IRQ 4 cannot be had (failslab on request_irq's allocation), the console
    polls the port: the shell still answers, a paste arrives whole, Ctrl-C works."""
    k = boot_failing_request_irq_of_serial8250()
    try:
        assert "serial: no interrupt: polling the port for input" in k.transcript()
        assert k.run("echo polled").strip() == "polled"
        lines = "".join("echo poll-%03d\r" % i for i in range(100))
        assert k.child.send(lines) == len(lines)
        k.expect(r"\npoll-099\r*\n", timeout=60)
        k.wait_prompt()
        assert len(set(re.findall(r"^poll-(\d{3})$", k.transcript(), re.M))) == 100
        k.send("bench devmodel 100000\r")
        k.expect(r"bench devmodel 100000\r*\n")
        time.sleep(0.3)
        k.child.send("\x03")
        k.wait_prompt()
        assert k.output().endswith("^C\n"), k.output()[-300:]
    finally:
        k.close()


def test_input_before_the_first_prompt_is_kept():
    k = kobold.Kobold()
    try:
        k.child.send("echo early-bird\r")  # before QEMU has even loaded the kernel
        k.expect(r"\nearly-bird\r*\n", timeout=15)
        out = k.transcript()
        # The kernel starts a line of its own (SeaBIOS leaves "Booting from ROM.." open)
        # and says how to leave.
        assert "\n[    0.000000] Kobold " in out, out[:300]
        assert "Console: serial ttyS0 and VGA; poweroff switches off (in QEMU's terminal, Ctrl-A X quits)" in out
    finally:
        k.close()


def test_ctrl_c_stops_long_commands_and_they_leak_nothing(tmp_path):
    img = tmp_path / "random.img"
    img.write_bytes(os.urandom(1 << 20))  # a hexdump with no repeats: 65536 lines
    k = kobold.boot("sbd.nr=16", qemu_args=["-drive", "file=%s,if=none,id=d0,format=raw" % img,
                                            "-device", "virtio-blk-pci,drive=d0"])
    try:
        before = k.snapshot()
        # (command, what only a full run prints, what shows it has started):
        # `tree /` prints for about 0.1 s, so its Ctrl-C goes at its first line
        benches = 0
        for cmd, done, started in [("bench devmodel 100000", "devmodel register", None),
                                   ("blk bench sbd0 read rand 1 4096", "IOPS", None),
                                   ("blk read vda 0 2048", "00100000\n", None),
                                   ("tree /", "directories,", r"-- sys\r*\n"),
                                   ("failslab 10000000 bench devmodel 100000",
                                    "devmodel register", None)]:
            k.send(cmd + "\r")
            k.expect(re.escape(cmd) + r"\r*\n")
            if started:
                k.expect(started)
            else:
                time.sleep(0.5)
            k.child.send("\x03")
            k.wait_prompt()
            out = k.output()
            assert out.endswith("^C\n"), (cmd, out[-300:])
            assert done not in out, (cmd, out[-300:])  # it stopped before the end
            if "bench devmodel" in cmd:
                # The prompt came back first; the undo runs as deferred work, and the
                # next bench waits for it: dmesg says when it is done.
                benches += 1
                for _ in range(100):
                    if k.run("dmesg").count("class devices unregistered after Ctrl-C") == benches:
                        break
                    time.sleep(0.2)
        assert k.run("failslab").startswith("off\n")
        after = k.snapshot()
        # the prompt came back first; the bench's undo ran as deferred work
        undone = re.findall(r"bench: (\d+) class devices unregistered after Ctrl-C", k.run("dmesg"))
        assert len(undone) == 2 and all(int(n) > 0 for n in undone), undone
        for key in ["BytesInUse", "ObjectsInUse", "kobjects"]:
            assert after[key] == before[key], (key, before[key], after[key])
        k.send("echo dropped\x03")  # at the prompt, Ctrl-C still just drops the line
        k.wait_prompt()
        assert k.run("echo fine").strip() == "fine"
    finally:
        k.close()


def test_reboot_without_no_reboot_comes_back_to_a_fresh_prompt():
    k = kobold.Kobold(no_reboot=False)
    try:
        k.wait_prompt()
        k.run("echo before-reboot")
        k.send("reboot\r")
        k.expect("reboot: Restarting system")
        k.expect(r"\[    0\.000000\] Kobold ")  # a second boot banner
        k.wait_prompt()
        assert k.run("history").strip() == "1  history"  # a fresh kernel
        k.send("poweroff\r")
        assert k.wait_exit() == 0
    finally:
        k.close()


def test_reboot_restarts_the_machine():
    k = kobold.boot()
    try:
        k.send("reboot\r")
        # QEMU runs with -no-reboot, so a reset ends it; the log says why.
        assert k.wait_exit() == 0
        assert "reboot: Restarting system" in k.transcript()
    finally:
        k.close()


def test_make_run_shows_the_prompt_and_poweroff_leaves():
    child = pexpect.spawn("make", ["-s", "run"], cwd=kobold.ROOT, encoding="utf-8",
                          codec_errors="replace", timeout=kobold.TIMEOUT)
    try:
        child.expect(r"kobold:/# ")
        child.send("poweroff\r")
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        assert "Power down" in child.before
    finally:
        if child.isalive():
            child.terminate(force=True)
