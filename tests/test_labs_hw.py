"""test_labs_hw.py: the hardware labs' starters and wrong solutions fail their checkers
where they should (lab 15, the keyboard's interrupt). Their reference solutions pass in
test_labs.py, on the shared solved tree; these start from the shared starting tree."""
import os
import shutil

from test_labs import ROOT, base, build, checker, patch, workdir  # noqa: F401
import labtree  # noqa: E402 (test_labs put scripts/ on the path)

KBDCOUNT = "drivers/input/kbdcount.c"


def variant(base, workdir, name, files):
    """The starting tree with files ({path: text}) over it, built: (tree, kernel)."""
    tree, _ = base
    d = os.path.join(workdir, name)
    shutil.copytree(tree, d, symlinks=True)
    for rel, text in files.items():
        with open(os.path.join(d, rel), "w") as f:
            f.write(text)
    return d, build(d)


def solution_file(workdir, lab, rel):
    """REL as lab N's reference solution has it."""
    return labtree.solved_lab_files([patch(lab)], scratch=os.path.join(workdir, "files%d" % lab))[rel].decode()


def test_lab15_starter_loads_and_counts_nothing(base, workdir):
    """The starter builds with WERROR, loads and shows 0; the first key typed fails it, and
    so do the unload and the load cycles, which need the filter to count first."""
    with open(os.path.join(ROOT, "labs", "lab15", "kbdcount.c")) as f:
        d, kernel = variant(base, workdir, "lab15-starter", {KBDCOUNT: f.read()})
    r = checker(d, 15, kernel)
    assert r.returncode == 1, r.stdout
    assert "PASS  kbdcount is loaded at boot and its count reads 0" in r.stdout, r.stdout
    assert "FAIL  5 keys typed: count reads 5" in r.stdout and "count read 0 before 5 keys" in r.stdout, r.stdout
    for check in ("rmmod kbdcount: the device goes", "10 rmmod/modprobe cycles", "keys counted with the work"):
        assert "FAIL  " + check in r.stdout, r.stdout
    assert "no filter installed?" in r.stdout and "nothing counted, nothing to check" in r.stdout, r.stdout
    shutil.rmtree(d, ignore_errors=True)


def test_lab15_releases_counted_filter_left_installed_and_plain_spin_lock_fail(base, workdir):
    """Three mistakes in one tree, each failing its own checks: counting releases too fails
    the counts (twice the keys); leaving the filter installed at rmmod fails the unload and
    the load cycles (modprobe: busy); the work item taking the filter's lock with a plain
    spin_lock, which never deadlocks in Kobold (its spin_lock keeps the holder's interrupts
    off), fails on lockdep's report, as Linux 2.6.18 reports it, and so do the hidden checks
    (its WARNING). The rest pass."""
    text = solution_file(workdir, 15, KBDCOUNT)
    for old, new in (("\tif (data & KBD_RELEASE)\n\t\treturn false;\n", ""),
                     ("\ti8042_remove_filter(kbdcount_filter);\n", ""),
                     ("spin_lock_irqsave(&k->lock, flags);", "spin_lock(&k->lock);"),
                     ("spin_unlock_irqrestore(&k->lock, flags);", "spin_unlock(&k->lock);"),
                     ("unsigned long flags, n;", "unsigned long n;")):
        assert old in text, "labs/solutions/lab15.patch no longer has %r" % old
        text = text.replace(old, new)
    d, kernel = variant(base, workdir, "lab15-wrong", {KBDCOUNT: text})
    r = checker(d, 15, kernel)
    assert r.returncode == 1, r.stdout
    failed = [l.split("FAIL  ", 1)[1].split(":")[0] for l in r.stdout.split("\n") if "FAIL  " in l]
    assert failed == ["5 keys typed", "30 keys typed fast", "keys counted with the work item running",
                      "rmmod kbdcount", "loaded again, it counts from 0",
                      "10 rmmod/modprobe cycles with keys typed and counted",
                      "20 keys, each typed between two reads of count", "rmmod kbdcount at once after 10 keys"], \
        r.stdout  # the last two: labs/hidden/lab15.py's
    assert "(the releases counted too?)" in r.stdout and "Device or resource busy" in r.stdout, r.stdout
    assert "inconsistent {in-hardirq-W} -> {hardirq-on-W} usage." in r.stdout, r.stdout
    assert "(&kbd.lock), at: kbdcount_work" in r.stdout, r.stdout
    shutil.rmtree(d, ignore_errors=True)
