"""labuser.py: the user programs that labs 14 and 20-23's checkers run on the kernel
under check: each built from user/NAME.c of that kernel's tree with
`gcc -m32 -static` (as `make user`), then packed into a newc cpio that the
checker boots with (`-initrd`); the in-kernel shell runs /usr/bin/NAME."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))
import kobold  # noqa: E402

_tmp = []


def tree():
    """The tree the kernel under check was built in (its build/ is there)."""
    d = os.path.dirname(os.path.abspath(kobold.KERNEL))
    while d != "/" and not os.path.isfile(os.path.join(d, "user", "README.md")):
        d = os.path.dirname(d)
    return d


def workdir():
    if not _tmp:
        _tmp.append(tempfile.mkdtemp(prefix="labuser-"))
        atexit.register(shutil.rmtree, _tmp[0], True)
    return _tmp[0]


def build(name, source=None):
    """user/NAME.c (or source, a path in the tree) as a static i386 program; its path.
    A compiler error fails the check that asked, with gcc's message."""
    src = os.path.join(tree(), source or os.path.join("user", name + ".c"))
    out = os.path.join(workdir(), name)
    if not os.path.isfile(src):
        raise AssertionError("%s: no such file" % os.path.relpath(src, tree()))
    r = subprocess.run(["gcc", "-m32", "-static", "-O2", "-Wall", "-o", out, src],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode:
        raise AssertionError("gcc -m32 -static %s failed:\n%s" % (os.path.relpath(src, tree()),
                                                                  r.stdout[-2000:]))
    return out


def initrd(programs):
    """A cpio holding each {name: path} at /usr/bin/NAME; its path (the -initrd argument)."""
    entries = ["dir /usr 0755 0 0", "dir /usr/bin 0755 0 0"]
    entries += ["file /usr/bin/%s %s 0755 0 0" % (n, p) for n, p in sorted(programs.items())]
    out = os.path.join(workdir(), "-".join(sorted(programs)) + ".cpio")
    with open(out, "wb") as f:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_init_cpio.py"), "-"],
                       input="\n".join(entries).encode(), stdout=f, check=True)
    return out


def start(s, *names):
    """Boots the checker's session once with user/NAME.c's programs in its initramfs
    (the checks share that boot; a failed check's next one boots again)."""
    if s.k is None:
        s.boot(qemu_args=["-initrd", initrd({n: build(n) for n in names})])
    return s


def passes(s, program, *tests):
    """`PROGRAM TEST...` from the shell: each test's line must say ok (the
    programs print "ok NAME" or "FAIL NAME: why" per test)."""
    import re
    from labcheck import expect
    out = s.run("/usr/bin/%s %s" % (program, " ".join(tests)))
    for name in tests:
        m = re.search(r"^(ok|FAIL) %s\b.*$" % name, out, re.M)
        expect(m, "%s %s printed no line for it:\n%s" % (program, name, out[-1500:]))
        expect(m.group(1) == "ok", "%s: %s" % (program, m.group(0)))
