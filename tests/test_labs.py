"""test_labs.py: each lab's checker fails on the starting tree and passes once
the lab's reference solution (labs/solutions/labN.patch) is applied, and the
lab page's transcripts marked `<!-- check: solution -->` match that kernel.

The tree is copied once (the files git knows of, plus new ones not ignored)
and built; each lab gets a copy of that built tree, so only the patched files
are compiled again."""
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import doccheck  # noqa: E402

LABS = sorted(int(d[3:]) for d in os.listdir(os.path.join(ROOT, "labs"))
              if d.startswith("lab") and os.path.isfile(os.path.join(ROOT, "labs", d, "check.py")))
WERROR = os.environ.get("WERROR", "1")


def sh(cmd, cwd, timeout=300, env=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout, env=env)


def build(tree):
    r = sh(["make", "-j2", "Q=@", "WERROR=" + WERROR, "build/kobold.elf"], tree)
    assert r.returncode == 0, "the build failed in %s:\n%s" % (tree, r.stdout[-3000:])
    return os.path.join(tree, "build", "kobold.elf")


def checker(tree, lab, kernel):
    env = dict(os.environ, KOBOLD_KERNEL=kernel, NO_COLOR="1")
    return sh([sys.executable, os.path.join(tree, "labs", "lab%d" % lab, "check.py")], tree,
              env=env, timeout=600)


@pytest.fixture(scope="module")
def workdir():
    d = tempfile.mkdtemp(prefix="kobold-labs-")
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def base(workdir):
    """The starting tree, copied and built once for every lab."""
    tree = os.path.join(workdir, "base")
    files = sh(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], ROOT)
    assert files.returncode == 0, files.stdout
    for rel in files.stdout.split("\0"):
        src = os.path.join(ROOT, rel)
        if rel and os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(tree, rel))
    return tree, build(tree)


def lab_doc(lab):
    d = os.path.join(ROOT, "docs", "labs")
    pages = [f for f in os.listdir(d) if f.startswith("lab%d-" % lab) and f.endswith(".md")]
    assert len(pages) == 1, "docs/labs has no single page for lab %d: %s" % (lab, pages)
    return os.path.join(d, pages[0])


def test_there_are_four_labs_with_solutions_and_pages():
    assert LABS[:4] == [1, 2, 3, 4], LABS
    for lab in LABS:
        assert os.path.isfile(os.path.join(ROOT, "labs", "solutions", "lab%d.patch" % lab))
        lab_doc(lab)


@pytest.mark.parametrize("lab", LABS)
def test_checker_fails_before_and_passes_after_the_solution(lab, base, workdir):
    tree, kernel = base
    before = checker(tree, lab, kernel)
    assert before.returncode == 1, "lab %d's checker did not fail on the starting tree:\n%s" % (
        lab, before.stdout)
    assert "FAIL" in before.stdout and "checks pass." in before.stdout, before.stdout

    solved = os.path.join(workdir, "lab%d" % lab)
    shutil.copytree(tree, solved, symlinks=True)  # copy2 keeps times: an incremental build
    patch = os.path.join(ROOT, "labs", "solutions", "lab%d.patch" % lab)
    r = sh(["git", "apply", "--whitespace=nowarn", patch], solved)
    assert r.returncode == 0, "labs/solutions/lab%d.patch does not apply:\n%s" % (lab, r.stdout)
    solved_kernel = build(solved)
    after = checker(solved, lab, solved_kernel)
    assert after.returncode == 0, "lab %d's checker fails with the solution applied:\n%s" % (
        lab, after.stdout)
    assert "FAIL" not in after.stdout

    blocks = [b for b in doccheck.parse_file(lab_doc(lab)) if b.for_solution()]
    failures = doccheck.check_blocks(blocks, kernel=solved_kernel)
    assert not failures, "\n\n".join(failures)
    shutil.rmtree(solved, ignore_errors=True)
