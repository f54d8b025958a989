"""test_console.py: the PS/2 keyboard and the VGA screen (through QEMU's monitor),
reboot, and `make run` as the README gives it."""
import os
import re
import subprocess

import pexpect

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


def test_keyboard_types_into_the_shell_and_vga_shows_it(tmp_path):
    k = kobold.boot(monitor=str(tmp_path / "mon.sock"))
    try:
        for key in ["e", "c", "h", "o", "spc", "shift-k", "b", "d", "ret"]:
            k.monitor("sendkey " + key)
        k.wait_prompt()
        assert "Kbd" in k.output()
        lines = screen_text(k)
        assert any(l.startswith("kobold:/# echo Kbd") for l in lines), lines
        assert "Kbd" in lines
    finally:
        k.close()


def test_vga_scrolls_long_output(tmp_path):
    k = kobold.boot(monitor=str(tmp_path / "mon.sock"))
    try:
        k.run("help")
        k.run("echo last-line-marker")
        lines = [l for l in screen_text(k) if l]
        assert lines[-2] == "last-line-marker", lines
        assert lines[-1] == "kobold:/#"
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
