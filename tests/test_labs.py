"""test_labs.py: each lab's checker fails on the starting tree, and passes on the tree
with every lab's reference solution applied (labs/solutions/labN.patch, composed: one
build for all the labs); the lab page's transcripts marked `start` match the starting
kernel and those marked `solution` the solved one. One lab's solution on its own (drawn
with KOBOLD_LABS_SEED) builds and passes its checker and its page's `solution`
transcripts exactly; `make labs-compose-all` does so for every lab. Checks that once
passed with a lab's work missing fail on the starting tree, saying why.
(test_labs_compose.py checks that the solutions compose in any order.)

The starting and the solved trees are scripts/labtree.py's shared trees
(build/labtrees/start and solved): built once for test_labs, test_labs_compose and the
next run, each brought up to date with the working tree first. The starting tree is the
working tree with each lab's files as committed, so that a student's own solved labs
change nothing here."""
import importlib.util
import os
import random
import shutil
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import doccheck  # noqa: E402
import kobold  # noqa: E402
import labcheck  # noqa: E402
import labtree  # noqa: E402

LABS = labtree.labs()
WERROR = os.environ.get("WERROR", "1")
ALL = os.environ.get("KOBOLD_LABS_ORDERS") == "all"
SEED = int(os.environ.get("KOBOLD_LABS_SEED") or random.randrange(1 << 32))


def build(tree):
    kernel, out = labtree.build(tree, WERROR)
    assert kernel, "the build failed in %s:\n%s" % (tree, out[-3000:])
    return kernel


def patch(lab):
    return os.path.join(ROOT, "labs", "solutions", "lab%d.patch" % lab)


def checker(tree, lab, kernel, stop_at_fail=False):
    """Lab N's checker on kernel; stop_at_fail when only its failing matters."""
    return labtree.run_checker(ROOT, lab, kernel, tree, stop_at_fail=stop_at_fail)


@pytest.fixture(scope="module")
def workdir():
    d = tempfile.mkdtemp(prefix="kobold-labs-")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def base():
    """The starting tree, built (shared: see the module's comment)."""
    return labtree.shared_tree("start", werror=WERROR)


@pytest.fixture(scope="module")
def solved():
    """The starting tree with every lab's solution applied, built (shared)."""
    return labtree.shared_tree("solved", [patch(lab) for lab in LABS], werror=WERROR)


def lab_doc(lab):
    d = os.path.join(ROOT, "docs", "labs")
    pages = [f for f in os.listdir(d) if f.startswith("lab%d-" % lab) and f.endswith(".md")]
    assert len(pages) == 1, "docs/labs has no single page for lab %d: %s" % (lab, pages)
    return os.path.join(d, pages[0])


def test_every_lab_has_a_solution_a_page_and_its_files():
    assert LABS[:5] == [1, 2, 3, 4, 5], LABS
    for lab in LABS:
        assert os.path.isfile(patch(lab))
        lab_doc(lab)
        mod = labtree.load(lab)
        assert mod.FILES and mod.CHECKS and hasattr(mod, "ADDS"), "lab %d: FILES, CHECKS, ADDS" % lab
        touched = [l[len("+++ b/"):] for l in open(patch(lab)).read().split("\n") if l.startswith("+++ b/")]
        assert set(touched) <= set(mod.FILES), "lab %d's patch changes %s, FILES says %s" % (
            lab, touched, mod.FILES)


def test_the_index_lists_every_lab_with_its_points_hours_and_dependencies():
    """docs/labs/README.md's table: a row per lab, its points the checker's, its hours a
    number, the labs it depends on earlier labs that exist."""
    text = open(os.path.join(ROOT, "docs", "labs", "README.md")).read()
    header = "| lab | you write | you learn | tutorial | depends on | hours | points |"
    assert header in text
    rows = {}
    for line in text.split(header, 1)[1].split("\n")[2:]:
        if not line.startswith("| ["):
            break
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        rows[int(cells[0][1:].split(".")[0])] = cells
    assert sorted(rows) == LABS, sorted(rows)
    for lab, cells in rows.items():
        points = sum(getattr(fn, "points", 1) for fn in labtree.load(lab).CHECKS)
        assert cells[-1] == str(points), "lab %d: the index says %s points, the checker %d" % (
            lab, cells[-1], points)
        assert 0 < float(cells[-2]) <= 8, (lab, cells[-2])
        deps = [] if cells[-3] == "-" else [int(d) for d in cells[-3].split(",")]
        assert all(d in LABS and d < lab for d in deps), (lab, cells[-3])


def test_the_start_ignores_the_students_solved_labs(tmp_path):
    """Lab 1 committed on a student's branch and lab 2 left uncommitted: the starting
    tree has neither (the branch's upstream is where the labs start)."""
    tree = labtree.export_start(str(tmp_path / "student"), objects=False)
    git = ["git", "-c", "user.name=s", "-c", "user.email=s@example.org"]
    for cmd in (["init", "-q", "-b", "course"], ["add", "-A"], ["commit", "-qm", "course"],
                ["checkout", "-qb", "student"], ["branch", "-q", "-u", "course"]):
        assert labtree.sh(git + cmd, tree).returncode == 0
    assert labtree.apply(tree, patch(1))[0]
    assert labtree.sh(git + ["commit", "-qam", "lab 1"], tree).returncode == 0
    assert labtree.apply(tree, patch(2))[0]
    start = labtree.export_start(str(tmp_path / "start"), root=tree, objects=False)
    with open(os.path.join(start, "drivers/block/sbd.c")) as f:
        sbd = f.read()
    assert "size_kb" not in sbd and "max_sectors" not in sbd
    with open(os.path.join(tree, "drivers/block/sbd.c")) as f:
        assert "size_kb" in f.read()  # the student's tree is left alone


def with_every_lab(blocks):
    """The blocks, each accepting the lines any lab's solution adds (the solved tree has them all)."""
    for b in blocks:
        b.options = dict(b.options, labs=" ".join(str(lab) for lab in LABS))
    return blocks


@pytest.mark.parametrize("lab", LABS)
def test_checker_fails_at_the_start_and_passes_solved(lab, base, solved):
    tree, kernel = base
    before = checker(tree, lab, kernel, stop_at_fail=True)  # a boot per failed check otherwise
    assert before.returncode == 1, "lab %d's checker did not fail on the starting tree:\n%s" % (
        lab, before.stdout)
    assert "FAIL" in before.stdout and "checks pass." in before.stdout, before.stdout
    start_blocks = [b for b in doccheck.parse_file(lab_doc(lab)) if b.for_start()]
    failures = doccheck.check_blocks(start_blocks, kernel=kernel)
    assert not failures, "\n\n".join(failures)

    tree, kernel = solved
    after = checker(tree, lab, kernel)
    assert after.returncode == 0, "with every lab solved, lab %d's checker fails:\n%s" % (lab, after.stdout)
    assert "FAIL" not in after.stdout
    blocks = with_every_lab([b for b in doccheck.parse_file(lab_doc(lab)) if b.for_solution()])
    failures = doccheck.check_blocks(blocks, kernel=kernel)
    assert not failures, "with every lab solved:\n" + "\n\n".join(failures)


# Checks that passed with the lab's work not there at all (a student scored them for
# nothing): each must now fail on the starting tree, and say why.
NOTHING_DONE = [(1, "ends_with_newline", "a number was wanted"), (3, "no_leaks", "blkinfo did not load"),
                (5, "unloads_clean", "kpipe did not load"), (6, "released_on_rmmod", "did not load")]


def load_checker(lab):
    path = os.path.join(ROOT, "labs", "lab%d" % lab, "check.py")
    spec = importlib.util.spec_from_file_location("lab%d_check" % lab, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_check_fails_when_the_work_is_missing(base, monkeypatch):
    tree, kernel = base
    monkeypatch.setattr(kobold, "KERNEL", kernel)
    for lab, check, why in NOTHING_DONE:
        s = labcheck.Session()
        try:
            with pytest.raises(AssertionError, match=why):
                getattr(load_checker(lab), check)(s)
        finally:
            s.end()


def alone():
    """The labs whose solution is tried on its own: one drawn with SEED, or all."""
    if ALL:
        return list(LABS)
    lab = random.Random(SEED).choice(LABS)
    print("lab %d's solution alone (KOBOLD_LABS_SEED=%d)" % (lab, SEED))
    return [lab]


def test_a_solution_alone_passes(base, workdir):
    """A lab's solution on the starting tree, alone: it builds, its checker passes and its
    page's `solution` transcripts match exactly (no other lab's lines accepted)."""
    tree, _ = base
    for lab in alone():
        one = os.path.join(workdir, "lab%d" % lab)
        shutil.copytree(tree, one, symlinks=True)  # copy2 keeps times: an incremental build
        ok, out = labtree.apply(one, patch(lab))
        assert ok, "labs/solutions/lab%d.patch does not apply:\n%s" % (lab, out)
        kernel = build(one)
        after = checker(one, lab, kernel)
        assert after.returncode == 0, "lab %d's checker fails with its solution alone (KOBOLD_LABS_SEED=%d):\n%s" % (
            lab, SEED, after.stdout)
        blocks = [b for b in doccheck.parse_file(lab_doc(lab)) if b.for_solution()]
        failures = doccheck.check_blocks(blocks, kernel=kernel)
        assert not failures, "lab %d alone (KOBOLD_LABS_SEED=%d):\n%s" % (lab, SEED, "\n\n".join(failures))
        shutil.rmtree(one, ignore_errors=True)


def test_a_shared_tree_follows_the_working_tree(tmp_path):
    """shared_tree on a small course: built from the working tree with the lab's file as
    committed and the patch over it; a later change to a source is rebuilt, a removed
    source goes, and a tree already up to date is not built again."""
    root = tmp_path / "course"
    (root / "labs" / "lab1").mkdir(parents=True)
    (root / "labs" / "lab1" / "check.py").write_text('FILES = ["a.c"]\nCHECKS = []\n')
    (root / "Makefile").write_text("build/kobold.elf: a.c b.c\n\tmkdir -p build && cat a.c b.c > $@ && "
                                   "echo x >> build/count\n")
    (root / "a.c").write_text("start\n")
    (root / "b.c").write_text("b\n")
    (root / "gone.c").write_text("gone\n")
    git = ["git", "-c", "user.name=s", "-c", "user.email=s@example.org"]
    for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "course"]):
        assert labtree.sh(git + cmd, str(root)).returncode == 0
    (root / "a.c").write_text("solved by the student\n")  # not the start: ignored
    (root / "fix.patch").write_text("--- a/a.c\n+++ b/a.c\n@@ -1 +1 @@\n-start\n+patched\n")
    tree, kernel = labtree.shared_tree("t", [str(root / "fix.patch")], root=str(root))
    assert open(kernel).read() == "patched\nb\n" and os.path.exists(os.path.join(tree, "gone.c"))
    (root / "b.c").write_text("b, changed\n")
    os.remove(root / "gone.c")
    labtree.sh(git + ["rm", "-q", "--cached", "gone.c"], str(root))
    tree, kernel = labtree.shared_tree("t", [str(root / "fix.patch")], root=str(root))
    assert open(kernel).read() == "patched\nb, changed\n"
    assert not os.path.exists(os.path.join(tree, "gone.c"))
    tree, kernel = labtree.shared_tree("t", [str(root / "fix.patch")], root=str(root))
    assert open(os.path.join(tree, "build", "count")).read() == "x\nx\n"  # the third found it built
    tree, kernel = labtree.shared_tree("t", [], root=str(root))
    assert open(kernel).read() == "start\nb, changed\n"


def test_a_checker_restores_the_booted_kernel_instead_of_booting(base):
    """labcheck's Session: a kernel changed by a command comes back as booted from its
    snapshot (loadvm), not from a new boot; memory in use and the kobjects are as at the
    first prompt; another command line boots anew, and the first comes back from its
    snapshot in the same QEMU; other QEMU options have snapshots of their own; a QEMU
    started again starts from a snapshot (-loadvm); with a disk or a device a snapshot
    does not restore whole, each fresh kernel is a boot."""
    import labcheck
    tree, kernel = base
    saved, labcheck.kobold.KERNEL = labcheck.kobold.KERNEL, kernel
    s = labcheck.Session()
    try:
        s.fresh()
        booted = s.snapshot()
        assert "sbd" in s.text("lsmod") and s.text("rmmod sbd") == ""
        assert "sbd" not in s.text("lsmod")
        s.fresh()
        assert "sbd" in s.text("lsmod") and (s.boots, s.restores) == (1, 1)
        labcheck.expect_same(booted, s.snapshot())
        s.fresh("sbd.nr=2")
        assert "sbd1" in s.ls("/sys/class/sbd") and (s.boots, s.restores) == (2, 1)
        qemu = s.k.child.pid
        s.fresh()  # the first kernel again: loadvm from the drive both are saved in
        assert "sbd1" not in s.ls("/sys/class/sbd") and (s.boots, s.restores) == (2, 2)
        assert s.k.child.pid == qemu
        labcheck.expect_same(booted, s.snapshot())
        s.fresh(qemu_args=["-smp", "2"])  # other QEMU options: a snapshot of their own
        assert "cpu1" in s.ls("/sys/devices/system/cpu") and (s.boots, s.restores) == (3, 2)
        assert s.text("rmmod sbd") == ""
        s.fresh(qemu_args=["-smp", "2"])
        assert "sbd" in s.text("lsmod") and (s.boots, s.restores) == (3, 3)
        disk = os.path.join(tree, "build", "labcheck-test-raw.img")
        with open(disk, "wb") as f:
            f.truncate(1 << 20)
        # a device whose registers a snapshot leaves out (lab 14's edu), or a disk: boots anew
        assert not labcheck.saveable(("-smp", "2", "-device", "edu")) and labcheck.saveable(("-initrd", "x"))
        raw = ["-drive", "file=%s,if=virtio,format=raw" % disk]
        s.fresh(qemu_args=raw)
        s.run("rmmod sbd")
        s.fresh(qemu_args=raw)
        assert "sbd" in s.text("lsmod") and (s.boots, s.restores) == (5, 3)
        s.fresh("sbd.nr=2")  # a new QEMU started from the snapshot (-loadvm), not a boot
        assert "sbd1" in s.ls("/sys/class/sbd") and (s.boots, s.restores) == (5, 4)
    finally:
        s.end()
        labcheck.kobold.KERNEL = saved
