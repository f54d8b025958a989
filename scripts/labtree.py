"""labtree.py: the labs' trees, shared by tests/test_labs.py, scripts/grade and scripts/grade-class.

The starting tree of every lab is the working tree with each lab's files (FILES in
labs/labN/check.py) as they were committed at the base commit: the commit the
branch forked from its upstream (a clone of the course's repository tracks it),
else HEAD; KOBOLD_LABS_BASE=COMMIT overrides. So a student's solved labs, in the
working tree or committed on their branch, never change what the labs' own
tests start from.
"""
import importlib.util
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Build products worth reusing in a copy (everything in build/ but these).
NOT_COPIED = {"debug", "disk.img", "kobold.iso", "iso", "fuzz", "host"}


def sh(cmd, cwd, timeout=600, env=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout, env=env)


def labs(root=ROOT):
    """The lab numbers: every labs/labN/ with a check.py."""
    d = os.path.join(root, "labs")
    return sorted(int(n[3:]) for n in os.listdir(d)
                  if n.startswith("lab") and n[3:].isdigit() and os.path.isfile(os.path.join(d, n, "check.py")))


def load(lab, root=ROOT):
    """Lab N's checker as a module: CHECKS, FILES, ADDS, TITLE."""
    path = os.path.join(root, "labs", "lab%d" % lab, "check.py")
    spec = importlib.util.spec_from_file_location("lab%d_check_%d" % (lab, abs(hash(root))), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def lab_files(root=ROOT):
    """{path: [labs]} for every file a lab's solution may change."""
    files = {}
    for lab in labs(root):
        for f in load(lab, root).FILES:
            files.setdefault(f, []).append(lab)
    return files


def base_commit(root=ROOT):
    """The commit the labs start from (see the module's comment), or None without git."""
    if os.environ.get("KOBOLD_LABS_BASE"):
        return os.environ["KOBOLD_LABS_BASE"]
    if sh(["git", "rev-parse", "--git-dir"], root).returncode:
        return None
    r = sh(["git", "merge-base", "HEAD", "@{upstream}"], root)
    if r.returncode == 0 and r.stdout.strip():
        return r.stdout.strip()
    r = sh(["git", "rev-parse", "HEAD"], root)
    return r.stdout.strip() if r.returncode == 0 else None


def copy_working_tree(dest, root=ROOT):
    """The files git knows of, and new ones it does not ignore (times kept)."""
    r = sh(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], root)
    if r.returncode:
        shutil.copytree(root, dest, symlinks=True, ignore=shutil.ignore_patterns("build", ".git"))
        return
    for rel in r.stdout.split("\0"):
        src = os.path.join(root, rel)
        if rel and os.path.isfile(src):
            os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
            shutil.copy2(src, os.path.join(dest, rel))


def restore_lab_files(dest, root=ROOT):
    """Puts every lab's files back as they are at the base commit (absent ones removed)."""
    commit = base_commit(root)
    if commit is None:
        return
    for rel in lab_files(root):
        path = os.path.join(dest, rel)
        r = subprocess.run(["git", "show", "%s:%s" % (commit, rel)], cwd=root,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            with open(path, "rb") as f:
                same = f.read() == r.stdout if os.path.exists(path) else False
            if not same:
                with open(path, "wb") as f:
                    f.write(r.stdout)
        elif os.path.exists(path):
            os.remove(path)


def reuse_objects(dest, root=ROOT):
    """Copies root's build/ (objects and all, times kept): make then compiles only what differs."""
    src = os.path.join(root, "build")
    if not os.path.isfile(os.path.join(src, "kobold.elf")):
        return
    shutil.copytree(src, os.path.join(dest, "build"), symlinks=True,
                    ignore=lambda d, names: [n for n in names if d == src and n in NOT_COPIED])


def export_start(dest, root=ROOT, objects=True):
    """The starting tree of the labs, in dest."""
    copy_working_tree(dest, root)
    if objects:
        reuse_objects(dest, root)
    restore_lab_files(dest, root)
    return dest


def apply(tree, patch):
    """Applies a patch (git's or unified diff, -p1) to tree; returns (ok, output)."""
    r = sh(["git", "apply", "--whitespace=nowarn", os.path.abspath(patch)], tree)
    return r.returncode == 0, r.stdout


def build(tree, werror="1", jobs=2):
    """Builds tree's kernel; returns (path or None, the build's output)."""
    r = sh(["make", "-j%d" % jobs, "Q=@", "WERROR=" + werror, "build/kobold.elf"], tree)
    kernel = os.path.join(tree, "build", "kobold.elf")
    return (kernel if r.returncode == 0 else None), r.stdout


def run_checker(checker_root, lab, kernel, cwd, json_out=None, timeout=600, stop_at_fail=False):
    """Runs checker_root's lab N checker on kernel; returns the CompletedProcess.
    stop_at_fail: stop at the first failed check (labcheck's LABCHECK_STOP_AT_FAIL)."""
    env = dict(os.environ, KOBOLD_KERNEL=kernel, NO_COLOR="1")
    if stop_at_fail:
        env["LABCHECK_STOP_AT_FAIL"] = "1"
    if json_out:
        env["LABCHECK_JSON"] = json_out
    return sh([sys.executable, os.path.join(checker_root, "labs", "lab%d" % lab, "check.py")], cwd,
              env=env, timeout=timeout)
