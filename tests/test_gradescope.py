"""test_gradescope.py: make gradescope's autograder, run as Gradescope runs it: unzipped
into source/ of a tree shaped like /autograder, setup.sh, then run_autograder on a
student's submission; results.json must follow Gradescope's documented format
(gradescope-autograders.readthedocs.io, "Autograder Specifications") and say what
the checks found, a hidden check's test shown only after the due date."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
from test_grade import HIDDEN, solved_sbd  # noqa: E402

# The documented keys (anything else is not Gradescope's format).
TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
       "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags",
        "visibility", "extra_data"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def validate(res):
    """Gradescope's results.json format, as documented; returns the problems."""
    problems = []
    if not isinstance(res, dict):
        return ["not a JSON object"]
    problems += ["unknown key %r" % k for k in set(res) - TOP]
    tests = res.get("tests")
    if not isinstance(tests, list):
        problems.append("tests is not a list")
        tests = []
    if "score" not in res and any("score" not in t for t in tests):
        problems.append("no score, and not one on every test")
    for k in ("score", "execution_time"):
        if k in res and not isinstance(res[k], (int, float)):
            problems.append("%s is not a number" % k)
    for k in ("visibility", "stdout_visibility"):
        if k in res and res[k] not in VISIBILITY:
            problems.append("%s is %r" % (k, res[k]))
    if "output" in res and not isinstance(res["output"], str):
        problems.append("output is not a string")
    for i, t in enumerate(tests):
        problems += ["test %d: unknown key %r" % (i, k) for k in set(t) - TEST]
        for k in ("score", "max_score"):
            if k in t and not isinstance(t[k], (int, float)):
                problems.append("test %d: %s is not a number" % (i, k))
        if t.get("status", "passed") not in ("passed", "failed"):
            problems.append("test %d: status %r" % (i, t["status"]))
        if t.get("visibility", "visible") not in VISIBILITY:
            problems.append("test %d: visibility %r" % (i, t["visibility"]))
        for k in ("name", "output", "number"):
            if k in t and not isinstance(t[k], str):
                problems.append("test %d: %s is not a string" % (i, k))
    return problems


def test_the_validator_refuses_what_gradescope_would():
    good = {"score": 1.0, "tests": [{"name": "a", "score": 1.0, "max_score": 1.0, "visibility": "visible"}]}
    assert validate(good) == []
    assert validate(dict(good, marks=3)) == ["unknown key 'marks'"]
    assert validate(dict(good, tests=[{"name": "a", "score": "1"}])) == ["test 0: score is not a number"]
    assert validate(dict(good, stdout_visibility="students")) == ["stdout_visibility is 'students'"]
    assert validate({"tests": [{"name": "a"}]}) == ["no score, and not one on every test"]


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """The zip unpacked into source/ and set up: an /autograder of our own."""
    hidden = tmp_path_factory.mktemp("hidden")
    (hidden / "lab1.py").write_text(HIDDEN)
    root = tempfile.mkdtemp(prefix="kobold-autograder-")  # the sandbox's user must reach it
    os.chmod(root, 0o755)
    try:
        zpath = os.path.join(root, "autograder.zip")
        r = subprocess.run(["make", "-s", "gradescope", "LABS=1,2", "HIDDEN=%s" % hidden, "GRADESCOPE_ZIP=" + zpath],
                           cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
        assert r.returncode == 0, r.stdout
        source = os.path.join(root, "source")
        with zipfile.ZipFile(zpath) as z:
            names = z.namelist()
            assert {"setup.sh", "run_autograder"} <= set(names), names[:5]  # at the zip's root
            assert not any(n.startswith("kobold/labs/solutions/") for n in names)
            assert "kobold/labs/hidden/lab1.py" in names
            z.extractall(source)
            for info in z.infolist():  # as unzip(1) does: the modes kept (scripts/*.sh run)
                if info.external_attr >> 16:
                    os.chmod(os.path.join(source, info.filename), (info.external_attr >> 16) & 0o777)
        r = subprocess.run(["bash", "setup.sh"], cwd=source, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=900)
        assert r.returncode == 0, r.stdout[-3000:]
        shutil.copy(os.path.join(source, "run_autograder"), os.path.join(root, "run_autograder"))
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run_autograder(root, files):
    sub = os.path.join(root, "submission")
    shutil.rmtree(sub, ignore_errors=True)
    shutil.rmtree(os.path.join(root, "results"), ignore_errors=True)
    os.makedirs(sub)
    for name, text in files.items():
        with open(os.path.join(sub, name), "w") as f:
            f.write(text)
    r = subprocess.run(["sh", os.path.join(root, "run_autograder")], cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=900, env=dict(os.environ, AUTOGRADER=root))
    assert r.returncode == 0, r.stdout[-3000:]
    with open(os.path.join(root, "results", "results.json")) as f:
        return json.load(f), r.stdout


def test_gradescope_grades_a_submission(autograder, tmp_path):
    """sbd.c uploaded alone, lab 1 solved but its show without a newline: lab 1's
    tests all there, each with its points, one failed with what the kernel printed;
    lab 2's tests failed; the hidden check's test after the due date; nothing compiled
    but sbd.c (setup.sh built the rest)."""
    solved = solved_sbd(tmp_path, ["lab1.patch"])
    nonl = solved.replace('"%lu\\n", to_sbd(cd)->bytes', '"%lu", to_sbd(cd)->bytes')
    res, out = run_autograder(autograder, {"sbd.c": nonl})
    assert validate(res) == [], res
    # setup.sh built the starting tree: a submission's grading compiles the student's file alone
    assert "files compiled: 0 for the starting tree (0: its objects reused), 1.0 a build" in out, out[-2000:]
    tests = {t["name"]: t for t in res["tests"]}
    lab1 = [t for t in res["tests"] if t["name"].startswith("Lab 1: ")]
    assert len(lab1) == 9 and sum(t["max_score"] for t in lab1) == 12, lab1  # 8 checks + the hidden one
    failed = [t["name"] for t in lab1 if t["status"] == "failed"]
    assert failed == ["Lab 1: it reads as one line: the value and a newline, as every sysfs file"], failed
    assert "printed '4096'" in tests[failed[0]]["output"]
    hidden = tests["Lab 1: size_kb of a second, smaller disk (sbd.nr=2 sbd.size=512)"]
    assert hidden["visibility"] == "after_due_date" and hidden["status"] == "passed"
    assert all(t["visibility"] == "visible" for t in res["tests"] if t is not hidden)
    lab2 = [t for t in res["tests"] if t["name"].startswith("Lab 2: ")]
    assert lab2 and sum(t["max_score"] for t in lab2) == 11
    assert res["score"] == sum(t["score"] for t in res["tests"]) == 11 + sum(t["score"] for t in lab2)
    assert "Lab 1: ok, 11/12" in res["output"] and res["stdout_visibility"] == "hidden"


def test_gradescope_says_why_nothing_ran(autograder):
    """A submission with no lab's file: every test failed, each saying the file is missing."""
    res, _ = run_autograder(autograder, {"notes.txt": "I did not do it"})
    assert validate(res) == [], res
    assert res["score"] == 0 and res["tests"]
    assert all(t["status"] == "failed" and "missing" in t["output"] for t in res["tests"]), res["tests"][0]
    assert "Lab 1: missing, 0/12" in res["output"] and "holds none of drivers/block/sbd.c" in res["output"]
