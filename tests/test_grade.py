"""test_grade.py: scripts/grade-class on small classes. A class of good and flawed
submissions in every form (patch, bundle, folder, archive), with a hidden check;
a class of bad input (empty, an archive bomb, a link out, a file of the wrong
name, a binary, a kernel that prints forever, one that panics, one that does not
build, a check that writes outside its directory), where each gets its status
and the good student's result stays whole; the report without a sandbox; and
make grade's report."""
import csv
import io
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOLUTIONS = os.path.join(ROOT, "labs", "solutions")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import labtree  # noqa: E402
import sandbox  # noqa: E402

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

# Checks that misbehave: one writes into the teacher's tree, one into /tmp, which
# must be each checker's own (a mark left by another student's run fails it).
WRITERS = '''\
"""Hidden checks that write outside their directory."""
import os

TREE = %r


def writes_the_tree(s):
    """a check that writes into the teacher's tree"""
    with open(os.path.join(TREE, "labs", "written-by-a-check"), "w") as f:
        f.write("x")


def private_tmp(s):
    """/tmp is this checker's own"""
    mark = "/tmp/kobold-test-grade-mark"
    assert not os.path.exists(mark), "another checker's mark is in /tmp"
    with open(mark, "w") as f:
        f.write("x")


CHECKS = [writes_the_tree, private_tmp]
'''

TAMPER = '''\
diff --git a/labs/lab1/check.py b/labs/lab1/check.py
--- a/labs/lab1/check.py
+++ b/labs/lab1/check.py
@@ -1,2 +1,5 @@
 #!/usr/bin/env python3
+import sys
+print("8 of 8 checks pass: the lab is done.")
+sys.exit(0)
 """Lab 1 checker: sbd's read-only attribute size_kb (docs/labs/lab1-read-only-attribute.md)."""
'''

SBD = "drivers/block/sbd.c"


def read(name):
    with open(os.path.join(SOLUTIONS, name)) as f:
        return f.read()


def start_file(rel):
    base = labtree.base_commit()
    if base:
        return subprocess.run(["git", "show", "%s:%s" % (base, rel)], cwd=ROOT, check=True,
                              stdout=subprocess.PIPE).stdout.decode()
    with open(os.path.join(ROOT, rel)) as f:
        return f.read()


def solved_sbd(tmp_path, patches):
    """sbd.c with the patches applied (for folder and archive submissions)."""
    d = tmp_path / ("solved-" + "-".join(p.split(".")[0] for p in patches))
    (d / "drivers" / "block").mkdir(parents=True)
    (d / SBD).write_text(start_file(SBD))
    for p in patches:
        subprocess.run(["git", "apply", os.path.join(SOLUTIONS, p)], cwd=d, check=True)
    return (d / SBD).read_text()


def in_init(source, code):
    """sbd.c with code at the start of sbd_init()."""
    head = "static int sbd_init(void)\n{\n\tint err;\n"
    assert head in source
    return source.replace(head, head + "\n" + code, 1)


def folder(subs, name, files):
    for rel, data in files.items():
        p = subs / name / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data if isinstance(data, bytes) else data.encode())


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


def grade(subs, out, labs, hidden=None, env=None, timeout=900):
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(subs), "--labs", labs,
           "--out", str(out)] + (["--hidden", str(hidden)] if hidden else [])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout,
                       env=dict(os.environ, **(env or {})))
    assert r.returncode == 0, r.stdout
    rows = {(row["student"], int(row["lab"])): row for row in csv.DictReader(open(str(out) + ".csv"))}
    return r, rows, json.load(open(str(out) + ".json"))


def test_grade_class(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "alice.patch").write_text(read("lab1.patch") + read("lab2.patch"))
    (subs / "bob.patch").write_text(read("lab1.patch").replace("bytes / 1024", "bytes / 512"))
    (subs / "carol.diff").write_text(TAMPER)
    (subs / "notes.txt").write_text("not a submission")
    bundle = make_bundle(tmp_path, subs / "dave.bundle")
    folder(subs, "erin", {SBD: solved_sbd(tmp_path, ["lab1.patch", "lab2.patch"])})  # alice's files
    solved = solved_sbd(tmp_path, ["lab1.patch"])
    nonl = solved.replace('"%lu\\n", to_sbd(cd)->bytes', '"%lu", to_sbd(cd)->bytes')
    assert nonl != solved
    with tarfile.open(subs / "frank.tar.gz", "w:gz") as tar:  # sbd.c alone, found by its name
        info = tarfile.TarInfo("frank/sbd.c")
        info.size = len(nonl.encode())
        tar.addfile(info, io.BytesIO(nonl.encode()))
    hidden = tmp_path / "hidden"
    hidden.mkdir(mode=0o700)
    (hidden / "lab1.py").write_text(HIDDEN)

    r, rows, data = grade(subs, tmp_path / "g", "1,2", hidden)
    students = ["alice", "bob", "carol", "erin", "frank"] + (["dave"] if bundle else [])
    assert sorted(rows) == sorted((n, lab) for n in students for lab in (1, 2)), r.stdout
    possible1 = int(rows["alice", 1]["possible"])
    assert possible1 == 10 + 2, rows["alice", 1]  # the lab's ten points and the hidden check's two
    assert rows["alice", 1]["points"] == str(possible1) and rows["alice", 1]["status"] == "ok"
    assert rows["alice", 2]["points"] == rows["alice", 2]["possible"] == "11"
    assert rows["alice", 1]["first_failure"] == "" and rows["alice", 1]["not_taken"] == ""

    assert rows["bob", 1]["status"] == "ok" and 0 < int(rows["bob", 1]["points"]) < possible1
    assert rows["bob", 1]["first_failure"].startswith("cat size_kb prints 4096"), rows["bob", 1]
    assert "expected '4096', got '8192'" in rows["bob", 1]["message"]

    # carol changed the checker, not sbd.c: nothing of hers is taken, lab 1 is missing
    assert rows["carol", 1]["status"] == "missing" and rows["carol", 1]["points"] == "0"
    assert rows["carol", 1]["possible"] == str(possible1)
    assert rows["carol", 1]["not_taken"] == "labs/lab1/check.py"
    assert "changes none of drivers/block/sbd.c" in rows["carol", 1]["message"]

    if bundle:
        assert rows["dave", 1]["points"] == str(possible1), rows["dave", 1]
        assert int(rows["dave", 2]["points"]) < 11

    # erin sent alice's sbd.c in a folder: the same result, built and checked once
    assert rows["erin", 1]["points"] == str(possible1) and rows["erin", 2]["points"] == "11"
    erin = [d for d in data["rows"] if d["student"] == "erin" and d["lab"] == 1][0]
    assert erin["same_as"] == ["alice"], erin["same_as"]
    # frank's show has no newline: that check alone fails
    assert rows["frank", 1]["points"] == str(possible1 - 1), rows["frank", 1]
    assert rows["frank", 1]["first_failure"].startswith("it reads as one line"), rows["frank", 1]

    alice1 = [d for d in data["rows"] if d["student"] == "alice" and d["lab"] == 1][0]
    hidden_rows = [c for c in alice1["checks"] if c["hidden"]]
    assert hidden_rows and hidden_rows[0]["passed"] and hidden_rows[0]["points"] == 2
    distinct = 4 if bundle else 3  # alice's (= erin's), bob's, frank's, dave's sbd.c
    assert data["builds"] == distinct and data["checker_runs"] == 2 * distinct, data
    assert "notes.txt" in r.stdout and r.stdout.startswith("sandbox: ")
    assert os.path.isfile(str(tmp_path / "g.txt"))


def bomb(path):
    """A tar.gz of a few hundred KiB that unpacks to 200 MiB."""
    class Zeros(io.RawIOBase):
        def __init__(self, n):
            self.left = n

        def readable(self):
            return True

        def readinto(self, b):
            n = min(len(b), self.left)
            b[:n] = bytes(n)
            self.left -= n
            return n
    with tarfile.open(path, "w:gz", compresslevel=1) as tar:
        info = tarfile.TarInfo(SBD)
        info.size = 200 << 20
        tar.addfile(info, io.BufferedReader(Zeros(info.size)))


def test_bad_input_gets_a_status_and_changes_no_other_result(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    sbd = start_file(SBD)
    (subs / "alice.patch").write_text(read("lab1.patch"))
    (subs / "empty.patch").write_text("")
    (subs / "emptydir").mkdir()
    bomb(subs / "bomb.tar.gz")
    (subs / "link" / "drivers" / "block").mkdir(parents=True)
    os.symlink("/etc/passwd", subs / "link" / SBD)
    folder(subs, "wrong", {"sdb.c": sbd})
    folder(subs, "binary", {SBD: b"\x7fELF\x01\x01\x01" + bytes(64)})
    folder(subs, "flood", {SBD: in_init(sbd, '\tfor (;;)\n\t\tpr_info("sbd: hello\\n");\n')})
    folder(subs, "panicky", {SBD: in_init(sbd, '\tpanic("sbd: on purpose");\n')})
    folder(subs, "syntax", {SBD: sbd.replace("static int sbd_init(void)", "static int sbd_init(void) oops", 1)})
    folder(subs, "zoe", {SBD: solved_sbd(tmp_path, ["lab1.patch"]) + "\n/* zoe's */\n"})
    hidden = tmp_path / "hidden"
    hidden.mkdir()
    (hidden / "lab1.py").write_text(WRITERS % ROOT)

    t0 = time.time()
    # flood's boot is waited out in full; the others reach their prompts in well under a second
    r, rows, data = grade(subs, tmp_path / "g", "1", hidden, env={"LABCHECK_BOOT_TIMEOUT": "6"})
    assert time.time() - t0 < 300, r.stdout
    status = {s: row["status"] for (s, _), row in rows.items()}
    assert status == {"alice": "ok", "zoe": "ok", "empty": "empty", "emptydir": "empty", "bomb": "rejected",
                      "link": "rejected", "wrong": "missing", "binary": "rejected", "flood": "no-boot",
                      "panicky": "panic", "syntax": "build-failed"}, r.stdout
    msg = {s: row["message"] for (s, _), row in rows.items()}
    assert "archive bomb" in msg["bomb"]
    assert "link out of the submission (to /etc/passwd)" in msg["link"]
    assert "holds none of drivers/block/sbd.c" in msg["wrong"] and rows["wrong", 1]["not_taken"] == "sdb.c"
    assert "not text" in msg["binary"]
    assert msg["flood"].startswith("the kernel did not reach its prompt in 6 s:") and "sbd: hello" in msg["flood"]
    assert msg["panicky"].startswith("the kernel panicked before its prompt:") and "on purpose" in msg["panicky"]
    assert "error:" in msg["syntax"] and "oops" in msg["syntax"]
    flood = [d for d in data["rows"] if d["student"] == "flood"][0]
    assert flood["seconds"] < 60 and all(not c["passed"] for c in flood["checks"]), flood
    assert all(row["possible"] == "12" for row in rows.values()), r.stdout  # 10, and the hidden 2

    # the good students: every check of the lab passes; the check that writes into the
    # tree fails (read-only) and leaves nothing; /tmp is each checker's own
    for s in ("alice", "zoe"):
        got = [d for d in data["rows"] if d["student"] == s][0]
        failed = [c["check"] for c in got["checks"] if not c["passed"]]
        assert failed == ["writes_the_tree"], (s, got["checks"])
        assert "Read-only file system" in got["checks"][-2]["message"]
    assert not os.path.exists(os.path.join(ROOT, "labs", "written-by-a-check"))
    assert not os.path.exists("/tmp/kobold-test-grade-mark")


def test_a_timeout_keeps_the_points_done_and_the_possible(tmp_path):
    """A show that never returns: the checker runs past --timeout; the lab is timeout,
    with the points of the checks before the hang, out of the lab's possible."""
    subs = tmp_path / "subs"
    subs.mkdir()
    hang = solved_sbd(tmp_path, ["lab1.patch"])
    head = "static ssize_t size_kb_show(struct class_device *cd, char *buf)\n{\n"
    assert head in hang
    folder(subs, "hang", {SBD: hang.replace(head, head + "\tfor (;;)\n\t\t;\n", 1)})
    # 10 s: the build (the starting tree's objects reused) and the checks before the
    # hang take about a second; each second more is waited out in full.
    cmd = [sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(subs), "--labs", "1",
           "--out", str(tmp_path / "g"), "--timeout", "10"]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert r.returncode == 0, r.stdout
    (row,) = list(csv.DictReader(open(tmp_path / "g.csv")))
    assert row["status"] == "timeout" and row["possible"] == "10", row
    assert row["points"] == "2" and row["message"].startswith("the checks took more than 10 s"), row


def test_the_report_says_when_there_is_no_sandbox(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "carol.diff").write_text(TAMPER)
    r, rows, data = grade(subs, tmp_path / "g", "1", env={"KOBOLD_NO_SANDBOX": "1"})
    assert r.stdout.startswith("sandbox: NONE: KOBOLD_NO_SANDBOX is set: builds and boots run as you")
    assert data["sandbox"].startswith("NONE") and rows["carol", 1]["status"] == "missing"


def test_the_sandbox_has_no_network_and_a_read_only_tree(tmp_path):
    """What a student's build or boot sees: no network but lo, the tree read-only, its own
    directory writable, an empty /tmp, no home of the caller's; as root, nobody."""
    assert sandbox.available()[0], sandbox.available()[1]
    top = tempfile.mkdtemp(prefix="kobold-sandbox-test-")  # nobody must reach it: not below pytest's 0700
    os.chmod(top, 0o755)
    open(os.path.join(top, "outside"), "w").close()  # /tmp's own: the sandbox's /tmp has only own
    own = pathlib.Path(top) / "own"
    own.mkdir()
    sandbox.give([str(own)])
    try:
        check_sandbox(top, own)
    finally:
        shutil.rmtree(top)


def check_sandbox(top, own):
    script = ("id -u; echo net: $(tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '); "
              "touch %s/x 2>&1; touch %s/y && echo wrote; echo tmp: $(ls %s | wc -l); ls /root 2>&1"
              % (ROOT, own, top))
    code, out = sandbox.run(["/bin/sh", "-c", script], readable=[ROOT], writable=[str(own)], timeout=60)
    lines = out.strip().split("\n")
    assert code == 2 and len(lines) == 6, out  # ls /root's status
    if os.geteuid() == 0:
        assert lines[0] == str(sandbox.NOBODY), out
    assert lines[1] == "net: lo" and "Read-only file system" in lines[2], out
    assert lines[3] == "wrote" and lines[4] == "tmp: 1" and "No such file or directory" in lines[5], out
    assert not os.path.exists(os.path.join(ROOT, "x")) and (own / "y").exists()


def test_grade_class_refuses_a_missing_folder(tmp_path):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(tmp_path / "no")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 2 and "No such directory" in r.stdout
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade-class"), str(tmp_path)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert r.returncode == 2 and "holds no submission" in r.stdout


def test_make_grade_prints_points_per_check_and_a_total(tmp_path):
    """scripts/grade (make grade) on this tree's kernel: whatever lab 1's state, the
    report has a line per check, the lab's score and the total, and they add up."""
    r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade"), "--labs", "1",
                        "--json", str(tmp_path / "g.json")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    data = json.load(open(tmp_path / "g.json"))
    lab = data["labs"][0]
    assert r.returncode == (0 if data["points"] == data["possible"] else 1), r.stdout
    assert len(lab["checks"]) == 8 and lab["possible"] == data["possible"] == 10
    assert lab["points"] == sum(c["points"] for c in lab["checks"] if c["passed"])
    lines = r.stdout.strip().split("\n")
    assert lines[0].startswith("== Lab 1: a read-only attribute")
    assert sum(1 for l in lines if l.rstrip().endswith(("(1/1)", "(0/1)", "(2/2)", "(0/2)"))) == 8, r.stdout
    assert "  lab 1: %d/10" % lab["points"] in lines and lines[-1] == "Score: %d/10" % data["points"]


def test_a_build_tree_links_the_teachers_files_read_only(tmp_path):
    """grade-class's tree for one build: sources hard-linked to the template's and left
    root's (the sandbox's user cannot write through them), build/ and the student's files
    its own; writing a student's file never changes the template's."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("grade_class", os.path.join(ROOT, "scripts", "grade-class"))
    spec = importlib.util.spec_from_loader("grade_class", loader)
    gc = importlib.util.module_from_spec(spec)
    loader.exec_module(gc)
    template = tmp_path / "start"
    (template / "build").mkdir(parents=True)
    (template / "drivers").mkdir()
    (template / "build" / "a.o").write_text("object")
    (template / "drivers" / "sbd.c").write_text("teacher")
    (template / "Makefile").write_text("all:")
    tree = str(tmp_path / "one")
    gc.link_tree(str(template), tree)
    assert os.stat(os.path.join(tree, "Makefile")).st_ino == os.stat(template / "Makefile").st_ino
    assert os.stat(os.path.join(tree, "build", "a.o")).st_ino != os.stat(template / "build" / "a.o").st_ino
    if os.geteuid() == 0:
        sandbox.give([tree])
        assert os.stat(os.path.join(tree, "Makefile")).st_uid == 0
        assert os.stat(os.path.join(tree, "build", "a.o")).st_uid == sandbox.NOBODY
    # a sandboxed build as nobody: the objects linked too, but the student's and the link's left out
    (template / "build" / "drivers").mkdir()
    for n in ("sbd.o", "sbd.d", "other.o"):
        (template / "build" / "drivers" / n).write_text(n)
    (template / "build" / "kobold.elf").write_text("kernel")
    (template / "build" / "ksyms.o").write_text("ksyms")
    linked = str(tmp_path / "linked")
    gc.link_tree(str(template), linked, {"drivers/sbd.c": b"student"}, link_objects=True)
    objs = os.path.join(linked, "build")
    assert os.stat(os.path.join(objs, "drivers", "other.o")).st_ino == \
        os.stat(template / "build" / "drivers" / "other.o").st_ino
    assert not os.path.exists(os.path.join(objs, "drivers", "sbd.o"))
    assert not os.path.exists(os.path.join(objs, "drivers", "sbd.d"))
    assert not os.path.exists(os.path.join(objs, "kobold.elf"))
    assert os.stat(os.path.join(objs, "ksyms.o")).st_ino != os.stat(template / "build" / "ksyms.o").st_ino
    # Grader.build writes the student's file (its make then fails: this Makefile has no kernel)
    grader = gc.Grader(str(tmp_path), str(template), None, 60, False)
    os.makedirs(tmp_path / "builds")
    kernel, built, _ = grader.build("fp", {"drivers/sbd.c": b"student"})
    assert kernel is None
    assert open(os.path.join(built, "drivers", "sbd.c")).read() == "student"
    assert (template / "drivers" / "sbd.c").read_text() == "teacher"


def load_grade_class():
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("grade_class", os.path.join(ROOT, "scripts", "grade-class"))
    spec = importlib.util.spec_from_loader("grade_class", loader)
    gc = importlib.util.module_from_spec(spec)
    loader.exec_module(gc)
    return gc


def test_a_build_makes_the_labs_targets_and_goes_when_its_last_lab_is_graded(tmp_path):
    """Grader: a lab's BUILD targets are made with its kernel (lab 13's root file system);
    a build tree stays until the last student-lab on it (labs 1 and 2 share sbd.c) is
    graded, then goes (a class of 120 kept thousands of them)."""
    gc = load_grade_class()
    template = tmp_path / "start"
    (template / "build").mkdir(parents=True)
    (template / "Makefile").write_text("build/rootfs.cpio:\n\techo made > $@\n"  # a kernel only with "good"
                                       "build/kobold.elf:\n\ttest -f good && echo kernel > $@\n")
    grader = gc.Grader(str(tmp_path), str(template), None, 60, False)
    os.makedirs(tmp_path / "builds")
    kernel, built, _ = grader.build("fp13", {"good": b""}, tuple(labtree.load(13).BUILD))
    assert kernel and open(os.path.join(built, "build", "rootfs.cpio")).read() == "made\n"
    files = {"drivers/block/sbd.c": b"student"}
    grader.will_grade(1, "fp")
    grader.will_grade(2, "fp")
    assert grader.grade(1, "fp", files)["status"] == "build-failed"
    tree = os.path.join(str(tmp_path), "builds", "fp")
    assert os.path.isdir(tree)  # lab 2 still to grade on it
    assert grader.grade(2, "fp", files)["status"] == "build-failed"
    assert not os.path.exists(tree)


def test_the_courses_programs_are_built_once_per_source(tmp_path, monkeypatch):
    """labuser: a program prebuilt from the same source (grade-class, once a class) is
    taken as it is; a source that differs is compiled by the checker."""
    import labuser
    tree = tmp_path / "tree"
    (tree / "user").mkdir(parents=True)
    (tree / "user" / "README.md").write_text("user programs\n")
    (tree / "user" / "hello.c").write_text("int main(void) { return 0; }\n")
    monkeypatch.setattr(labuser.kobold, "KERNEL", str(tree / "build" / "kobold.elf"))
    prebuilt = tmp_path / "programs"
    labuser.prebuild(str(tree), ["hello", "absent"], str(prebuilt))
    assert os.listdir(prebuilt) == [labuser.built_name("hello", str(tree / "user" / "hello.c"))]
    monkeypatch.setenv("LABUSER_PROGRAMS", str(prebuilt))
    assert labuser.build("hello") == str(prebuilt / os.listdir(prebuilt)[0])
    (tree / "user" / "hello.c").write_text("int main(void) { return 1; }\n")
    assert os.path.dirname(labuser.build("hello")) == labuser.workdir()
    assert labuser.programs([1, 20, 21]) == ["scullptest", "sculltest"]
