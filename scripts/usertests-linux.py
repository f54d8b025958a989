#!/usr/bin/python3
"""usertests-linux.py: runs build/user/usertests on Debian's Linux (amd64, running
the i386 binary) in QEMU, with /tmp, /proc and /sys as a real system has them, and
prints its output. With --record, also writes it to tests/user/usertests-linux.txt,
the reference make test holds the suite to: every test passes on Linux."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(HERE, "bench"))
import linux_guest  # noqa: E402

RECORD = os.path.join(ROOT, "tests", "user", "usertests-linux.txt")


def main():
    bindir = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "build/user"
    progs = {"bin/" + p: os.path.join(bindir, p) for p in ("usertests", "lsblk", "ueventmon")}
    return linux_guest.run_suite(os.path.join(ROOT, "build", "bench", "linux"), "usertests",
                                 "mkdir -p /tmp && cd /tmp && /bin/usertests", progs,
                                 record=RECORD if "--record" in sys.argv else None)


if __name__ == "__main__":
    sys.exit(main())
