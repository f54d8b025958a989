"""test_labs_user.py: the user-space labs (20-23) fail as they should: each
starter, copied in as its page says, fails its checker at once; and a
reference solution broken on purpose passes every check before the one that
looks at what it broke, and fails that one (each checker stops at its first
failed check: one boot a variant). (test_labs.py runs each checker on the
starting tree and on the solution.)

One copy of the starting tree holds every variant in turn: each build
compiles the one file that changed."""
import json
import os
import shutil
import time

import pytest

from test_labs import ROOT, base, build, patch, workdir  # noqa: F401
import labtree  # noqa: E402 (test_labs put scripts/ on the path)

# A starter must fail within this many seconds (its checker stops at the first FAIL).
FAST = 30


@pytest.fixture(scope="module")
def tree(base, workdir):  # noqa: F811
    d = os.path.join(workdir, "user-labs")
    shutil.copytree(base[0], d, symlinks=True)
    return d


def solution_file(lab, path):
    """The file at path as lab N's reference solution makes it (a new file)."""
    lines = open(patch(lab)).read().split("\n")
    start = lines.index("+++ b/" + path)
    body = []
    for line in lines[start + 2:]:
        if line.startswith("diff --git"):
            break
        if line.startswith("+"):
            body.append(line[1:])
    return "\n".join(body) + "\n"


def check(tree, lab, files, stop_at_fail=False):
    """Writes {path: text} into tree, builds, runs lab N's checker; returns
    (seconds, {check name: passed}, stdout); the files are removed after."""
    for path, text in files.items():
        with open(os.path.join(tree, path), "w") as f:
            f.write(text)
    try:
        kernel = build(tree)
        out = os.path.join(tree, "lab%d.json" % lab)
        start = time.time()
        r = labtree.run_checker(ROOT, lab, kernel, tree, json_out=out, stop_at_fail=stop_at_fail)
        took = time.time() - start
        with open(out) as f:
            results = {c["check"]: c["passed"] for c in json.load(f)["checks"]}
    finally:
        for path in files:
            os.remove(os.path.join(tree, path))
    assert r.returncode == 1, r.stdout
    return took, results, r.stdout


def starter(lab, name):
    with open(os.path.join(ROOT, "labs", "lab%d" % lab, name)) as f:
        return f.read()


def broken(lab, path, old, new):
    """Lab N's solution for path with old replaced by new (old must be there)."""
    text = solution_file(lab, path)
    assert old in text, "%r is not in lab %d's %s" % (old, lab, path)
    return {path: text.replace(old, new)}


def first_failed(results):
    """The first failed check (the checker stopped there), all before it passed."""
    names = list(results)
    first = next(n for n in names if not results[n])
    assert all(results[n] for n in names[:names.index(first)])
    return first


SCULL = "drivers/char/scull.c"


def test_lab20_starter_fails_fast(tree):
    took, results, out = check(tree, 20, {SCULL: starter(20, "scull.c")}, stop_at_fail=True)
    assert results["node"] and not results["read_write"], out
    assert "sculltest: FAIL write_read: fresh: write of 0 bytes: ENOSPC" in out, out
    assert took < FAST, (took, out)


def test_lab20_memcpy_instead_of_copy_to_user_oopses_at_efault(tree):
    """memcpy to the user's pointer: every test passes until the unmapped page,
    where the kernel oopses in scull_read; the checklist shows the oops."""
    _, results, out = check(tree, 20, broken(20, SCULL, "copy_to_user(buf, scull.data + *pos, count)",
                                             "!memcpy(buf, scull.data + *pos, count)"), stop_at_fail=True)
    assert first_failed(results) == "efault", out
    assert "BUG: unable to handle page fault" in out and "scull_read" in out, out


SCULLP = "drivers/char/scullpipe.c"


def test_lab21_starter_fails_fast(tree):
    took, results, out = check(tree, 21, {SCULLP: starter(21, "scullpipe.c")}, stop_at_fail=True)
    assert results["node"] and not results["ioctls"], out
    assert "scullptest: FAIL ioctl_size: fresh: SCULLP_IOCRESET: ENOTTY" in out, out
    assert took < FAST, (took, out)


def test_lab21_a_write_that_wakes_no_reader_fails_the_blocking_check(tree):
    """Without wake_up(&scullp.inq) in write, a sleeping reader is never woken: the
    watchdog ends it; the other checks pass (poll looks again at each tick)."""
    _, results, out = check(tree, 21, broken(21, SCULLP, "\twake_up(&scullp.inq);\n", ""), stop_at_fail=True)
    assert first_failed(results) == "blocking", out
    assert "after 3 s (the watchdog's SIGUSR2)" in out, out


SCULLMAP = "drivers/char/scullmap.c"


def test_lab22_starter_fails_fast(tree):
    took, results, out = check(tree, 22, {SCULLMAP: starter(22, "scullmap.c")}, stop_at_fail=True)
    assert results["node"] and not results["shared"], out
    assert "scullmtest: FAIL write_map_read_file" in out, out
    assert took < FAST, (took, out)


def test_lab22_a_fault_without_get_page_fails_the_private_check(tree):
    """A fault that hands out the device's page without a reference for the mapping:
    the shared mappings work, but the kernel takes the mapping for the page's only
    user, so a MAP_PRIVATE write lands in the device's page instead of a copy."""
    _, results, out = check(tree, 22, broken(22, SCULLMAP, "\tget_page(sm.page[vmf->pgoff]);\n", ""),
                            stop_at_fail=True)
    assert first_failed(results) == "private_copy", out
    assert "scullmtest: FAIL private_copy" in out, out


MYLSBLK = "user/mylsblk.c"


def test_lab23_starter_fails_fast(tree):
    took, results, out = check(tree, 23, {MYLSBLK: starter(23, "mylsblk.c")}, stop_at_fail=True)
    assert not results["default_output"], out
    assert took < FAST, (took, out)


def test_lab23_the_projects_own_lsblk_passes_only_the_default_table(tree):
    """user/lsblk.c copied as the solution: the default table and its following /sys
    pass; -b, the first option it does not know, fails."""
    with open(os.path.join(ROOT, "user", "lsblk.c")) as f:
        _, results, out = check(tree, 23, {MYLSBLK: f.read()}, stop_at_fail=True)
    assert first_failed(results) == "in_bytes", out
