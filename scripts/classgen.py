#!/usr/bin/env python3
"""classgen.py: a simulated class for timing the graders: N students who each hand in
every lab's reference solution, each file marked with the student's name so that no
two students share a build (as in a real class).

    scripts/classgen.py DEST N [--labs 1,2]

Writes DEST/studentK/ (folder submissions, files at their paths in the tree).
Used by make bench (scripts/bench.py's grading row) and for the class timings in
docs/teaching.md.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import labtree  # noqa: E402


def solved_files(labs):
    """{path: text} of the labs' files with their reference solutions applied to the start."""
    work = tempfile.mkdtemp(prefix="kobold-classgen-")
    try:
        files = sorted({f for lab in labs for f in labtree.load(lab).FILES})
        base = labtree.base_commit()
        for rel in files:
            r = subprocess.run(["git", "show", "%s:%s" % (base, rel)], cwd=labtree.ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) if base else None
            src = r.stdout if r is not None and r.returncode == 0 else None
            if src is not None:
                os.makedirs(os.path.dirname(os.path.join(work, rel)), exist_ok=True)
                with open(os.path.join(work, rel), "wb") as f:
                    f.write(src)
        for lab in labs:
            ok, out = labtree.apply(work, os.path.join(labtree.ROOT, "labs", "solutions", "lab%d.patch" % lab))
            if not ok:
                raise SystemExit("classgen: lab %d's solution does not apply: %s" % (lab, out))
        return {rel: open(os.path.join(work, rel)).read() for rel in files
                if os.path.exists(os.path.join(work, rel))}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def mark(rel, text, student):
    """The file with a comment naming the student (C or a udev rules file)."""
    note = "# %s\n" % student if rel.endswith(".rules") else "/* %s */\n" % student
    return text + note


def make_class(dest, n, labs):
    files = solved_files(labs)
    for k in range(1, n + 1):
        student = "student%d" % k
        for rel, text in files.items():
            path = os.path.join(dest, student, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(mark(rel, text, student))
    return ["student%d" % k for k in range(1, n + 1)]


def main(argv):
    ap = argparse.ArgumentParser(description="Makes a simulated class of submissions.")
    ap.add_argument("dest")
    ap.add_argument("n", type=int)
    ap.add_argument("--labs", help="comma-separated lab numbers (default: all)")
    args = ap.parse_args(argv[1:])
    labs = [int(x) for x in args.labs.split(",")] if args.labs else labtree.labs()
    print("\n".join(make_class(args.dest, args.n, labs)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
