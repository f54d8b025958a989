"""test_grade.py: scripts/grade-class on a small class: a student with the reference
solutions of labs 1 and 2 (scores full marks, hidden check included), one with a
broken lab 1, one who edited lab 1's checker instead of solving it (scores
nothing for it, and the edit is reported), and one who sent lab 1 as a git
bundle; CSV and JSON say so."""
import csv
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLUTIONS = os.path.join(ROOT, "labs", "solutions")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import labtree  # noqa: E402

HIDDEN = '''\
"""A hidden check for lab 1 (the teacher's copy only)."""


def second_disk(s):
    """size_kb of a second, smaller disk (sbd.nr=2 sbd.size=512)"""
    s.fresh("sbd.nr=2 sbd.size=512")
    out = s.text("cat /sys/class/sbd/sbd1/size_kb")
    assert out == "512", "cat /sys/class/sbd/sbd1/size_kb printed %r" % out


second_disk.points = 2
CHECKS = [second_disk]
'''

TAMPER = '''\
diff --git a/labs/lab1/check.py b/labs/lab1/check.py
--- a/labs/lab1/check.py
+++ b/labs/lab1/check.py
@@ -1,2 +1,5 @@
 #!/usr/bin/env python3
+import sys
+print("7 of 7 checks pass: the lab is done.")
+sys.exit(0)
 """Lab 1 checker: sbd's read-only attribute size_kb (docs/labs/lab1-read-only-attribute.md)."""
'''


def read(name):
    with open(os.path.join(SOLUTIONS, name)) as f:
        return f.read()


def make_bundle(tmp_path, dest):
    """dave: lab 1's solution committed on a clone of this tree, sent as a git bundle."""
    base = labtree.base_commit()
    if base is None:
        return False  # not a git checkout: no bundles
    clone = str(tmp_path / "clone")
    git = ["git", "-c", "user.name=d", "-c", "user.email=d@example.org"]
    for cmd, cwd in [(["clone", "-q", "--no-checkout", ROOT, clone], ROOT),
                     (["checkout", "-q", base], clone),
                     (["apply", os.path.join(SOLUTIONS, "lab1.patch")], clone),
                     (["commit", "-qam", "lab 1"], clone),
                     (["bundle", "create", "-q", str(dest), "HEAD", "^" + base], clone)]:
        subprocess.run(git + cmd, cwd=cwd, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return True


def test_grade_class(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "alice.patch").write_text(read("lab1.patch") + read("lab2.patch"))
    (subs / "bob.patch").write_text(read("lab1.patch").replace("bytes / 1024", "bytes / 512"))
    (subs / "carol.diff").write_text(TAMPER)
    (subs / "notes.txt").write_text("not a submission")
    bundle = make_bundle(tmp_path, subs / "dave.bundle")
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "lab1.py").write_text(HIDDEN)

    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(subs),
                        "--labs", "1,2", "--hidden", str(hidden), "--out", str(tmp_path / "g")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    assert r.returncode == 0, r.stdout
    rows = {(row["student"], int(row["lab"])): row for row in csv.DictReader(open(tmp_path / "g.csv"))}
    students = ["alice", "bob", "carol"] + (["dave"] if bundle else [])
    assert sorted(rows) == [(n, lab) for n in students for lab in (1, 2)], r.stdout
    possible1 = int(rows["alice", 1]["possible"])
    assert possible1 == 7 + 2, rows["alice", 1]  # seven checks, and the hidden one worth 2
    assert rows["alice", 1]["points"] == str(possible1) and rows["alice", 1]["first_failure"] == ""
    assert rows["alice", 2]["points"] == rows["alice", 2]["possible"] == "7"
    assert rows["alice", 1]["outside"] == ""

    assert 0 < int(rows["bob", 1]["points"]) < possible1
    assert rows["bob", 1]["first_failure"].startswith("cat size_kb prints 4096"), rows["bob", 1]
    assert rows["bob", 2]["points"] == "0" or int(rows["bob", 2]["points"]) < 7

    assert int(rows["carol", 1]["points"]) < 3, rows["carol", 1]  # the teacher's checker ran
    assert rows["carol", 1]["first_failure"] == "/sys/class/sbd/sbd0/size_kb exists"
    assert rows["carol", 1]["outside"] == "labs/lab1/check.py"

    if bundle:
        assert rows["dave", 1]["points"] == str(possible1), rows["dave", 1]
        assert int(rows["dave", 2]["points"]) < 7 and rows["dave", 1]["outside"] == ""

    data = json.load(open(tmp_path / "g.json"))
    alice1 = [d for d in data if d["student"] == "alice" and d["lab"] == 1][0]
    hidden_rows = [c for c in alice1["checks"] if c["hidden"]]
    assert hidden_rows and hidden_rows[0]["passed"] and hidden_rows[0]["points"] == 2
    assert "carol" in r.stdout and "outside: labs/lab1/check.py" in r.stdout


def test_grade_class_refuses_a_missing_folder(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(tmp_path / "no")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 2 and "No such directory" in r.stdout
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 2 and "holds no NAME.patch" in r.stdout


def test_make_grade_prints_points_per_check_and_a_total(tmp_path):
    """scripts/grade (make grade) on this tree's kernel: whatever lab 1's state, the
    report has a line per check, the lab's score and the total, and they add up."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade"), "--labs", "1",
                        "--json", str(tmp_path / "g.json")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    data = json.load(open(tmp_path / "g.json"))
    lab = data["labs"][0]
    assert r.returncode == (0 if data["points"] == data["possible"] else 1), r.stdout
    assert len(lab["checks"]) == 7 and lab["possible"] == data["possible"] == 7
    assert lab["points"] == sum(c["points"] for c in lab["checks"] if c["passed"])
    lines = r.stdout.strip().split("\n")
    assert lines[0].startswith("== Lab 1: a read-only attribute")
    assert sum(1 for l in lines if l.rstrip().endswith(("(1/1)", "(0/1)"))) == 7, r.stdout
    assert "  lab 1: %d/7" % lab["points"] in lines and lines[-1] == "Score: %d/7" % data["points"]
