"""labuser.py: the user programs that labs 14 and 20-23's checkers run on the kernel
under check: each built from user/NAME.c of that kernel's tree with
`gcc -m32 -static` (as `make user`), then packed into a newc cpio that the
checker boots with (`-initrd`); the in-kernel shell runs /usr/bin/NAME.

A checker's PROGRAMS (the course's own programs, which no lab's files change) are
built once per class by grade-class (prebuild), into $LABUSER_PROGRAMS, named by
their source's hash: a checker takes the program from there when its source is the
same, and builds it itself otherwise."""
import atexit
import hashlib
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


CFLAGS = ["-m32", "-static", "-O2", "-Wall"]


def built_name(name, src):
    """The name of src's program among the prebuilt: NAME-HASH (the source, the test.h
    beside it that it includes, and the flags)."""
    h = hashlib.sha256(repr(CFLAGS).encode())
    for path in (src, os.path.join(os.path.dirname(src), "test.h")):
        if os.path.exists(path):
            with open(path, "rb") as f:
                h.update(f.read())
    return "%s-%s" % (name, h.hexdigest()[:16])


def compile_to(src, out):
    """gcc CFLAGS -o out src; (ok, gcc's output)."""
    r = subprocess.run(["gcc"] + CFLAGS + ["-o", out, src], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    return r.returncode == 0, r.stdout


def build(name, source=None):
    """user/NAME.c (or source, a path in the tree) as a static i386 program; its path.
    A compiler error fails the check that asked, with gcc's message."""
    src = os.path.join(tree(), source or os.path.join("user", name + ".c"))
    out = os.path.join(workdir(), name)
    if not os.path.isfile(src):
        raise AssertionError("%s: no such file" % os.path.relpath(src, tree()))
    prebuilt = os.environ.get("LABUSER_PROGRAMS")
    if prebuilt and os.path.isfile(os.path.join(prebuilt, built_name(name, src))):
        return os.path.join(prebuilt, built_name(name, src))
    ok, errors = compile_to(src, out)
    if not ok:
        raise AssertionError("gcc -m32 -static %s failed:\n%s" % (os.path.relpath(src, tree()),
                                                                  errors[-2000:]))
    return out


def prebuild(root, names, dest):
    """user/NAME.c of root's tree for each of names, built into dest as NAME-HASH (for
    $LABUSER_PROGRAMS) unless it is there; the names that did not build are left for
    the checkers."""
    os.makedirs(dest, exist_ok=True)
    for name in sorted(set(names)):
        src = os.path.join(root, "user", name + ".c")
        if os.path.isfile(src) and not os.path.isfile(os.path.join(dest, built_name(name, src))):
            compile_to(src, os.path.join(dest, built_name(name, src)))


def programs(labs):
    """The PROGRAMS of the labs' checkers."""
    import labtree
    return sorted({n for lab in labs for n in getattr(labtree.load(lab), "PROGRAMS", [])})


if __name__ == "__main__":  # labuser.py DEST LAB...: prebuild the labs' PROGRAMS (gradescope's setup.sh)
    prebuild(os.path.dirname(HERE), programs([int(n) for n in sys.argv[2:]]), sys.argv[1])


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
