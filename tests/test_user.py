"""test_user.py: the programs of user/ build as static i386 Linux executables, and
usertests holds Linux's behaviour: its recorded run on Debian's Linux
(tests/user/usertests-linux.txt, from make usertests-linux --record) passed every test
in its table, and no test was added without such a run."""
import os
import re
import struct
import subprocess

import kobold

ROOT = kobold.ROOT
BUILD = os.path.dirname(kobold.KERNEL)
PROGS = sorted(f[:-2] for f in os.listdir(os.path.join(ROOT, "user")) if f.endswith(".c"))


def elf_header(path):
    with open(path, "rb") as f:
        data = f.read(52 + 32 * 16)
    ident, e_type, e_machine = data[:16], *struct.unpack_from("<HH", data, 16)
    phoff, = struct.unpack_from("<I", data, 28)
    phnum, = struct.unpack_from("<H", data, 44)
    ptypes = [struct.unpack_from("<I", data, phoff + 32 * i)[0] for i in range(phnum)]
    return ident, e_type, e_machine, ptypes


def test_user_programs_build_as_static_i386_executables():
    subprocess.run(["make", "-s", "user"], cwd=ROOT, check=True, capture_output=True)
    # At least these (lab 23's mylsblk.c joins them once a student has written it).
    assert {"aioread", "aiotests", "lsblk", "netlinktest", "oomgrow", "scullmtest", "scullptest",
            "sculltest", "sysbench", "ueventmon", "usertests", "edutest"} <= set(PROGS), PROGS
    for prog in PROGS:
        ident, e_type, e_machine, ptypes = elf_header(os.path.join(BUILD, "user", prog))
        assert ident[:4] == b"\x7fELF" and ident[4] == 1 and ident[5] == 1, prog  # ELF32, LSB
        assert e_type == 2 and e_machine == 3, prog  # ET_EXEC, EM_386
        assert 3 not in ptypes, prog  # no PT_INTERP: static, as Kobold's execve loads them


def test_every_usertest_passed_on_linux():
    with open(os.path.join(ROOT, "user", "usertests.c")) as f:
        table = re.findall(r'^\t\{ "(\w+)", (\w+) \},$', f.read(), re.M)
    assert len(table) >= 20 and all(name == fn for name, fn in table)
    with open(os.path.join(ROOT, "tests", "user", "usertests-linux.txt")) as f:
        lines = [l for l in f.read().split("\n") if l and not l.startswith("#")]
    assert lines[:-1] == ["ok " + name for name, _ in table], lines
    assert lines[-1] == "usertests: %d passed, 0 failed" % len(table)


def test_every_aiotest_passed_on_linux():
    with open(os.path.join(ROOT, "user", "aiotests.c")) as f:
        table = re.findall(r'^\t\{ "(\w+)", (\w+) \},$', f.read(), re.M)
    assert len(table) >= 10 and all(name == fn for name, fn in table)
    with open(os.path.join(ROOT, "tests", "user", "aiotests-linux.txt")) as f:
        lines = [l for l in f.read().split("\n") if l and not l.startswith("#")]
    assert lines[:-1] == ["ok " + name for name, _ in table], lines
    assert lines[-1] == "aiotests: %d passed, 0 failed" % len(table)
