#!/usr/bin/python3
"""aiotests-linux.py: runs build/user/aiotests on Debian's Linux (amd64, running the
i386 binary) in QEMU with a scratch virtio disk as /dev/vda, and prints its output.
With --record, also writes it to tests/user/aiotests-linux.txt, the reference make
test holds the suite to: every test passes on Linux."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "bench"))
import linux_guest  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "user", "aiotests-linux.txt")


def main():
    bindir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "build/user"
    with tempfile.NamedTemporaryFile(suffix=".img") as disk:
        disk.truncate(16 << 20)
        return linux_guest.run_suite(
            os.path.join(ROOT, "build", "bench", "linux"), "aiotests", "/bin/aiotests /dev/vda",
            {"bin/aiotests": os.path.join(bindir, "aiotests")},
            ["-drive", "file=%s,if=none,id=d,format=raw" % disk.name, "-device", "virtio-blk-pci,drive=d"],
            record=RECORD if "--record" in sys.argv else None)


if __name__ == "__main__":
    sys.exit(main())
