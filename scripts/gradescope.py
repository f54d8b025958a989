#!/usr/bin/env python3
"""gradescope.py: Kobold's labs as a Gradescope autograder.

    scripts/gradescope.py zip OUT.zip [--labs 1,2] [--hidden DIR]   (make gradescope)
    scripts/gradescope.py run                                       (the zip's run_autograder)

`zip` writes the autograder Gradescope takes: setup.sh (installs the Debian
packages that are missing and builds the starting tree once), run_autograder,
labs.txt (the labs graded) and kobold/, the course's starting tree with the
teacher's checkers and hidden checks (labs/hidden/, or --hidden), without the
reference solutions.

`run` grades /autograder/submission (the student's files: the lab files
themselves, by path or by name, an archive of them, a patch, or a whole
repository) with scripts/grade-class, and writes /autograder/results/results.json
in Gradescope's format (gradescope-autograders.readthedocs.io, "Autograder
Specifications"): a test per check with its points, visible, or after_due_date
for a hidden check, whose output stays hidden until then; the total; a summary per
lab. $AUTOGRADER moves the /autograder root (tests).
"""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import labtree  # noqa: E402

# What setup.sh installs when missing: the build, QEMU, the checkers, the sandbox.
PACKAGES = ["make", "gcc", "gcc-multilib", "binutils", "qemu-system-x86", "python3", "python3-pexpect",
            "git", "bubblewrap", "util-linux"]

SETUP = """#!/bin/bash
# setup.sh: Gradescope builds its image with this: the Debian/Ubuntu packages
# Kobold's grader needs (those missing), then the starting tree's kernel and what
# the labs' checks need beside it (lab 13's root file system, the user programs of
# labs 14 and 20-22), so that each submission's build compiles only the student's files
# and run_autograder reuses the rest (its report says how many files it compiled).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
need=()
for pair in %s; do
	tool="${pair%%%%:*}" pkg="${pair#*:}"
	command -v "$tool" >/dev/null 2>&1 || compgen -G "$tool" >/dev/null || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${need[@]}"
fi
make -C "$here/kobold" -j"$(nproc)" Q=@ WERROR=0 build/kobold.elf %s
python3 "$here/kobold/scripts/labuser.py" "$here/kobold/build/labuser" %s
"""

RUN = """#!/bin/sh
# run_autograder: grades /autograder/submission, writes /autograder/results/results.json.
root="${AUTOGRADER:-/autograder}"
exec python3 "$root/source/kobold/scripts/gradescope.py" run
"""

TOOLS = {"make": "make", "gcc": "gcc", "gcc-multilib": "/usr/lib/gcc/x86_64-linux-gnu/*/32/libgcc.a",
         "binutils": "nm", "qemu-system-x86": "qemu-system-i386", "python3": "python3",
         "python3-pexpect": "/usr/lib/python3/dist-packages/pexpect", "git": "git",
         "bubblewrap": "bwrap", "util-linux": "setpriv"}


def make_zip(out, labs, hidden):
    work = tempfile.mkdtemp(prefix="kobold-gradescope-")
    try:
        tree = labtree.export_start(os.path.join(work, "kobold"), objects=False)
        shutil.rmtree(os.path.join(tree, "labs", "solutions"), ignore_errors=True)
        if hidden:
            shutil.rmtree(os.path.join(tree, "labs", "hidden"), ignore_errors=True)
            shutil.copytree(hidden, os.path.join(tree, "labs", "hidden"))
        pairs = " ".join("%s:%s" % (TOOLS[p], p) for p in PACKAGES)
        targets = sorted({t for lab in labs for t in getattr(labtree.load(lab), "BUILD", [])})
        setup = SETUP % (pairs, " ".join(targets), " ".join(map(str, labs)))
        files = {"setup.sh": setup, "run_autograder": RUN,
                 "labs.txt": ",".join(str(n) for n in labs) + "\n"}
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for name, text in files.items():
                info = zipfile.ZipInfo(name)
                info.external_attr = 0o100755 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, text)
            for d, dirs, names in os.walk(tree):
                dirs.sort()
                for n in sorted(names):
                    path = os.path.join(d, n)
                    rel = os.path.relpath(path, work)
                    z.write(path, rel)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return out


def checks_of(lab, hidden_dir):
    """[(what, points, hidden)] of lab's checks, in the order the checker runs them."""
    out = [(labtree_what(fn), getattr(fn, "points", 1), False) for fn in labtree.load(lab).CHECKS]
    path = os.path.join(hidden_dir, "lab%d.py" % lab)
    if os.path.isfile(path):
        spec = importlib.util.spec_from_file_location("hidden_%d" % lab, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        out += [(labtree_what(fn), getattr(fn, "points", 1), True) for fn in mod.CHECKS]
    return out


def labtree_what(fn):
    return (fn.__doc__ or fn.__name__).strip().split("\n")[0]


def tests_of(row, expected):
    """Gradescope's tests for one lab's row: one per check, in the checker's order."""
    tests = []
    ran = {c["what"]: c for c in row["checks"]}
    for i, (what, points, hidden) in enumerate(expected, 1):
        c = ran.get(what)
        passed = bool(c and c["passed"])
        if c:
            output = c.get("message", "") if not passed else ""
        else:
            output = "not run: %s (%s)" % (row["status"], "\n".join(row["message"]) or "-")
        tests.append({"name": "Lab %d: %s" % (row["lab"], what), "number": "%d.%d" % (row["lab"], i),
                      "score": float(points if passed else 0), "max_score": float(points),
                      "status": "passed" if passed else "failed", "output": output,
                      "visibility": "after_due_date" if hidden else "visible"})
    return tests


def summary(rows, sandbox):
    """The submission's output: a line per lab, and why a lab could not be checked."""
    lines = []
    for r in rows:
        lines.append("Lab %d: %s, %d/%d" % (r["lab"], r["status"], r["points"], r["possible"]))
        if r["status"] != "ok":
            lines += ["    " + l for l in r["message"][:12]]
    return "\n".join(lines + ["", "sandbox: " + sandbox])


def run():
    root = os.environ.get("AUTOGRADER", "/autograder")
    source = os.path.join(root, "source")
    with open(os.path.join(source, "labs.txt")) as f:
        labs = f.read().strip()
    results = os.path.join(root, "results")
    os.makedirs(results, exist_ok=True)
    work = tempfile.mkdtemp(prefix="kobold-gradescope-")
    try:
        subs = os.path.join(work, "subs")
        os.makedirs(subs)
        shutil.copytree(os.path.join(root, "submission"), os.path.join(subs, "student"), symlinks=True)
        out = os.path.join(work, "grades")
        r = subprocess.run([sys.executable, os.path.join(labtree.ROOT, "scripts", "grade-class"), subs,
                            "--labs", labs, "--out", out], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True)
        print(r.stdout)  # run_autograder's stdout: for the teacher only
        if r.returncode:
            raise SystemExit("gradescope: grade-class failed (status %d)" % r.returncode)
        with open(out + ".json") as f:
            data = json.load(f)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    hidden_dir = os.path.join(labtree.ROOT, "labs", "hidden")
    tests = []
    for row in data["rows"]:
        tests += tests_of(row, checks_of(row["lab"], hidden_dir))
    result = {"score": sum(t["score"] for t in tests), "execution_time": int(data["seconds"]),
              "output": summary(data["rows"], data["sandbox"]), "stdout_visibility": "hidden",
              "tests": tests}
    with open(os.path.join(results, "results.json"), "w") as f:
        json.dump(result, f, indent=1)
    return 0


def main(argv):
    ap = argparse.ArgumentParser(description="Kobold's labs as a Gradescope autograder.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    z = sub.add_parser("zip", help="write the autograder zip")
    z.add_argument("out")
    z.add_argument("--labs", help="comma-separated lab numbers (default: all)")
    z.add_argument("--hidden", help="a folder of hidden checks (labN.py) to put in the zip")
    sub.add_parser("run", help="grade /autograder/submission (run_autograder)")
    args = ap.parse_args(argv[1:])
    if args.cmd == "run":
        return run()
    labs = [int(n) for n in args.labs.split(",")] if args.labs else labtree.labs()
    make_zip(os.path.abspath(args.out), labs, args.hidden and os.path.abspath(args.hidden))
    print("wrote %s (labs %s): upload it as the assignment's autograder (docs/teaching.md)"
          % (args.out, ",".join(map(str, labs))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
