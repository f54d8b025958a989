#!/usr/bin/python3
"""aiotests-linux.py: runs build/user/aiotests on Debian's Linux (amd64, running the
i386 binary) in QEMU with a scratch virtio disk as /dev/vda, and prints its output.
With --record, also writes it to tests/user/aiotests-linux.txt, the reference make
test holds the suite to: every test passes on Linux."""
import os
import re
import sys
import tempfile

import pexpect

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "bench"))
import linux_guest  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "user", "aiotests-linux.txt")


def main():
    bindir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "build/user"
    cache = os.path.join(ROOT, "build", "bench", "linux")
    vmlinuz, root = linux_guest.fetch(cache)
    initrd = linux_guest.initramfs(cache, root, {"bin/aiotests": os.path.join(bindir, "aiotests")})
    with tempfile.NamedTemporaryFile(suffix=".img") as disk:
        disk.truncate(16 << 20)
        args = ["-M", "pc", "-m", "512M", "-display", "none", "-no-reboot",
                "-chardev", "stdio,id=s,signal=off", "-serial", "chardev:s", "-monitor", "none",
                "-kernel", vmlinuz, "-initrd", initrd, "-append", "console=ttyS0 quiet",
                "-drive", "file=%s,if=none,id=d,format=raw" % disk.name,
                "-device", "virtio-blk-pci,drive=d"]
        c = pexpect.spawn("qemu-system-x86_64", args, encoding="utf-8", codec_errors="replace",
                          timeout=300)
        try:
            c.expect("KOBOLD-BENCH-READY")
            c.sendline("/bin/aiotests /dev/vda")
            c.expect(r"aiotests: \d+ passed, \d+ failed")
            out = c.before + c.after
            c.expect("KOBOLD-BENCH-END")
            c.sendline("done")
            c.expect(pexpect.EOF)
        finally:
            c.close(force=True)
    lines = [l.strip() for l in out.replace("\r", "").split("\n")
             if re.match(r"(ok|FAIL) \S+|aiotests: ", l.strip())]
    print("\n".join(lines))
    if "--record" in sys.argv:
        with open(RECORD, "w") as f:
            f.write("# build/user/aiotests on Debian 12's Linux (amd64 kernel), make aiotests-linux --record\n")
            f.write("\n".join(lines) + "\n")
    return 0 if lines and lines[-1].endswith(" 0 failed") else 1


if __name__ == "__main__":
    sys.exit(main())
