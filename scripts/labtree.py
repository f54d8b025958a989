"""labtree.py: the labs' trees, shared by tests/test_labs.py, scripts/grade and scripts/grade-class.

The starting tree of every lab is the working tree with each lab's files (FILES in
labs/labN/check.py) as they were committed at the base commit: the commit the
branch forked from its upstream (a clone of the course's repository tracks it),
else HEAD; KOBOLD_LABS_BASE=COMMIT overrides. So a student's solved labs, in the
working tree or committed on their branch, never change what the labs' own
tests start from.
"""
import fcntl
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Build products worth reusing in a copy (everything in build/ but these).
# (labtrees: the trees shared_tree() keeps built between the test files and the runs.)
NOT_COPIED = {"debug", "disk.img", "kobold.iso", "iso", "fuzz", "host", "labtrees"}


def sh(cmd, cwd, timeout=600, env=None):
    return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=timeout, env=env)


def labs(root=ROOT):
    """The lab numbers: every labs/labN/ with a check.py."""
    d = os.path.join(root, "labs")
    return sorted(int(n[3:]) for n in os.listdir(d)
                  if n.startswith("lab") and n[3:].isdigit() and os.path.isfile(os.path.join(d, n, "check.py")))


def load(lab, root=ROOT):
    """Lab N's checker as a module: CHECKS, FILES, ADDS, TITLE, and if it has them BUILD (make
    targets its checks need built beside the kernel) and PROGRAMS (scripts/labuser.py)."""
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


def working_files(root=ROOT):
    """The files git knows of, and new ones it does not ignore (relative paths), or None
    without git."""
    r = sh(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], root)
    if r.returncode:
        return None
    return [rel for rel in r.stdout.split("\0") if rel and os.path.isfile(os.path.join(root, rel))]


def copy_working_tree(dest, root=ROOT):
    """The files git knows of, and new ones it does not ignore (times kept)."""
    rels = working_files(root)
    if rels is None:
        shutil.copytree(root, dest, symlinks=True, ignore=shutil.ignore_patterns("build", ".git"))
        return
    for rel in rels:
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copy2(os.path.join(root, rel), os.path.join(dest, rel))


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


def start_lab_files(root=ROOT):
    """{path: bytes, or None when absent} of every lab's files at the base commit."""
    commit = base_commit(root)
    out = {}
    for rel in lab_files(root):
        if commit is None:
            path = os.path.join(root, rel)
            out[rel] = open(path, "rb").read() if os.path.exists(path) else None
            continue
        r = subprocess.run(["git", "show", "%s:%s" % (commit, rel)], cwd=root,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        out[rel] = r.stdout if r.returncode == 0 else None
    return out


def solved_lab_files(patches, root=ROOT, scratch=None):
    """{path: bytes or None}: the labs' files at the start with the patches applied in order.
    Raises RuntimeError naming the patch that does not apply."""
    files = start_lab_files(root)
    work = scratch or tempfile.mkdtemp(prefix="kobold-labfiles-")
    try:
        for rel, data in files.items():
            if data is not None:
                os.makedirs(os.path.dirname(os.path.join(work, rel)), exist_ok=True)
                with open(os.path.join(work, rel), "wb") as f:
                    f.write(data)
        for p in patches:
            ok, out = apply(work, p)
            if not ok:
                raise RuntimeError("%s does not apply:\n%s" % (os.path.relpath(p, root), out))
        return {rel: (open(os.path.join(work, rel), "rb").read()
                      if os.path.exists(os.path.join(work, rel)) else None) for rel in files}
    finally:
        if scratch is None:
            shutil.rmtree(work, ignore_errors=True)


def _same(path, data):
    try:
        if os.path.getsize(path) != len(data):
            return False
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False


def sync_tree(dest, overlay, root=ROOT, fresh=False):
    """Makes dest hold root's working tree with overlay ({path: bytes or None}) over it,
    writing only the files that differ, and removing the others. A file written gets a
    new time, so make rebuilds what depends on it; fresh (dest's build/ is a copy of
    root's): a file as root has it is copied with its time, so root's objects stay good.
    Returns the paths written."""
    rels = working_files(root)
    if rels is None:
        raise RuntimeError("shared trees need git: %s" % root)
    want = {rel: os.path.join(root, rel) for rel in rels}  # a path: root's file
    for rel, data in overlay.items():
        if data is None:
            want.pop(rel, None)
        else:
            want[rel] = data
    written = []
    for rel, data in want.items():
        path = os.path.join(dest, rel)
        src = os.path.join(root, rel)
        if isinstance(data, str):
            with open(data, "rb") as f:
                data = f.read()
        if _same(path, data):
            continue
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if os.path.lexists(path):
            os.remove(path)
        if fresh and _same(src, data):
            shutil.copy2(src, path)
        else:
            with open(path, "wb") as f:
                f.write(data)
        written.append(rel)
    for d, dirs, names in os.walk(dest):
        if d == dest:
            dirs[:] = [x for x in dirs if x not in ("build", ".git")]
        for n in names:
            rel = os.path.relpath(os.path.join(d, n), dest)
            if rel not in want:
                os.remove(os.path.join(d, n))
                written.append(rel)
    return written


def shared_tree(name, patches=(), werror="1", root=ROOT):
    """(tree, kernel): the starting tree with patches applied, built, kept in
    build/labtrees/NAME for every test file and run that asks for the same NAME (a lock
    per tree: one builds, the others wait, then find it built). Each call brings the tree
    up to date with root's working tree first: make then rebuilds only what changed."""
    dest = os.path.join(root, "build", "labtrees", name)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    with open(dest + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            overlay = solved_lab_files([os.path.abspath(p) for p in patches], root)
            fresh = not os.path.isdir(os.path.join(dest, "build"))
            if fresh:
                shutil.rmtree(dest, ignore_errors=True)
                os.makedirs(dest)
                reuse_objects(dest, root)
            sync_tree(dest, overlay, root, fresh)
            kernel, out = build(dest, werror)
            if not kernel:
                raise RuntimeError("the build of %s failed:\n%s" % (dest, out[-3000:]))
            return dest, kernel
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def apply(tree, patch):
    """Applies a patch (git's or unified diff, -p1) to tree; returns (ok, output)."""
    r = sh(["git", "apply", "--whitespace=nowarn", os.path.abspath(patch)], tree)
    return r.returncode == 0, r.stdout


def build(tree, werror="1", jobs=2, targets=()):
    """Builds tree's kernel (and targets, more of make's); returns (path or None, the build's output)."""
    r = sh(["make", "-j%d" % jobs, "Q=@", "WERROR=" + werror, "build/kobold.elf"] + list(targets), tree)
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
