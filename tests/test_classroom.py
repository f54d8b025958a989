"""test_classroom.py: the GitHub Classroom template workflow
(labs/classroom/.github/workflows/classroom.yml) is GitHub Classroom's autograding
as documented (the command grader per test, the reporter naming every one), has one
test per lab worth that lab's points, and every command in it runs here."""
import concurrent.futures
import os
import subprocess
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKFLOW = os.path.join(ROOT, "labs", "classroom", ".github", "workflows", "classroom.yml")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import labtree  # noqa: E402

GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"


def steps():
    with open(WORKFLOW) as f:
        wf = yaml.safe_load(f)
    assert wf["on"] == ["push", "repository_dispatch"] and wf["permissions"]["checks"] == "write"
    (job,) = wf["jobs"].values()
    return job["steps"]


def test_one_test_per_lab_with_its_points():
    st = steps()
    assert st[0]["uses"].startswith("actions/checkout@")
    tests = [s for s in st if s.get("uses") == GRADER]
    labs = labtree.labs()
    assert [t["id"] for t in tests] == ["lab%d" % n for n in labs]
    for t, lab in zip(tests, labs):
        w = t["with"]
        assert set(w) <= {"test-name", "setup-command", "command", "timeout", "max-score"}, w
        assert w["test-name"] == "Lab %d" % lab and w["command"] == "/usr/bin/python3 labs/lab%d/check.py" % lab
        points = sum(getattr(fn, "points", 1) for fn in labtree.load(lab).CHECKS)
        assert w["max-score"] == points and 1 <= w["timeout"] <= 360, (lab, w)
    (rep,) = [s for s in st if s.get("uses") == REPORTER]
    assert st[-1] is rep and rep["with"]["runners"].split(",") == [t["id"] for t in tests]
    assert rep["env"] == {"%s_RESULTS" % t["id"].upper(): "${{steps.%s.outputs.result}}" % t["id"]
                          for t in tests}


def test_every_command_runs_here():
    """The run: steps (packages, build) succeed; each lab's command runs its checker,
    which prints its checklist and exits 0 or 1 (this tree's labs are not solved)."""
    st = steps()
    runs = [s["run"] for s in st if "run" in s]
    assert runs == ["scripts/classroom-setup.sh", "make -s build/kobold.elf"]
    for cmd in runs:
        r = subprocess.run(cmd, shell=True, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=600)
        assert r.returncode == 0, (cmd, r.stdout[-2000:])
    commands = [s["with"]["command"] for s in st if s.get("uses") == GRADER]

    def run(cmd):  # this tree's labs are not solved: each checker stops at its first failure
        return cmd, subprocess.run(cmd, shell=True, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                   text=True, timeout=900, env=dict(os.environ, LABCHECK_STOP_AT_FAIL="1"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        for cmd, r in pool.map(run, commands):
            last = r.stdout.strip().split("\n")[-1]
            assert r.returncode in (0, 1) and " checks pass" in last, (cmd, r.stdout[-2000:])
