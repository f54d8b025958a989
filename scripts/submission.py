"""submission.py: a student's submission read into the files each lab names, and nothing else.

A submission is NAME.patch or NAME.diff (against the starting tree), NAME.bundle
(git commits on the course's tree), a folder NAME/ or an archive NAME.tar,
.tar.gz, .tgz, .tar.xz, .tar.bz2 or .zip. In a folder or an archive a lab's
file is found at its path in the tree (drivers/block/sbd.c, below any one
top folder) or, failing that, by its name alone (sbd.c) when only one file has
it. Nothing is unpacked: the files a lab names are read, size-limited, and the
rest only listed. What cannot be used gets a status and a reason:

  empty     the submission holds no file at all
  rejected  the whole submission, or this lab's files: an archive that unpacks to
            too much (a bomb), a link out of the submission, a link or a binary
            where a lab's file should be, a patch that does not apply
  missing   none of the lab's files is in it (or, in a patch, changed)
"""
import bz2
import gzip
import hashlib
import io
import lzma
import os
import re
import subprocess
import tarfile
import tempfile
import zipfile

PATCHES = (".patch", ".diff")
ARCHIVES = (".tar", ".tar.gz", ".tgz", ".tar.xz", ".tar.bz2", ".zip")
FILE_LIMIT = 1 << 20        # one source file
UNPACKED_LIMIT = 64 << 20   # everything an archive unpacks to, read or not
MEMBER_LIMIT = 20000        # entries in an archive or a folder


class Rejected(Exception):
    """The submission cannot be used; the message says why."""


class LabFiles:
    """What one lab gets from a submission: files {path: bytes} or a status and its reason."""

    def __init__(self, files=None, status="", reason=""):
        self.files, self.status, self.reason = files or {}, status, reason


def kind(path):
    """'patch', 'bundle', 'folder', 'archive' or None for a file that is no submission."""
    name = os.path.basename(path)
    if os.path.isdir(path) and not os.path.islink(path):
        return "folder"
    if name.endswith(PATCHES):
        return "patch"
    if name.endswith(".bundle"):
        return "bundle"
    if name.endswith(ARCHIVES):
        return "archive"
    return None


def student_name(path):
    name = os.path.basename(path.rstrip("/"))
    for ext in sorted(PATCHES + ARCHIVES + (".bundle",), key=len, reverse=True):
        if name.endswith(ext):
            return name[:-len(ext)]
    return name


def find(names, wanted):
    """Which entry of names (paths in a submission) is the lab file wanted, or None."""
    if wanted in names:
        return wanted
    below = [n for n in names if n.endswith("/" + wanted) and n.count("/") == wanted.count("/") + 1]
    if len(below) == 1:
        return below[0]
    base = os.path.basename(wanted)
    alone = [n for n in names if os.path.basename(n) == base]
    return alone[0] if len(alone) == 1 else None


def check_text(path, data):
    """Refuses what is not source text: too big, NUL bytes, not UTF-8."""
    if len(data) > FILE_LIMIT:
        raise Rejected("%s is %d bytes, more than a source file (1 MiB)" % (path, len(data)))
    if b"\0" in data:
        raise Rejected("%s is not text (it holds NUL bytes: a binary? it starts %r)" % (path, data[:8]))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Rejected("%s is not UTF-8 text (byte %d)" % (path, e.start))


# -- folders ---------------------------------------------------------------

def folder_entries(top):
    """{relative path: kind} for every entry below top (file, link, dir, other), links not followed."""
    out = {}
    for d, dirs, files in os.walk(top):
        for n in dirs + files:
            rel = os.path.relpath(os.path.join(d, n), top)
            st = os.lstat(os.path.join(top, rel))
            out[rel] = "link" if os.path.islink(os.path.join(top, rel)) else \
                "dir" if os.path.isdir(os.path.join(top, rel)) else \
                "file" if os.path.isfile(os.path.join(top, rel)) else "other"
            if len(out) > MEMBER_LIMIT:
                raise Rejected("the folder holds more than %d entries" % MEMBER_LIMIT)
            if st.st_size > UNPACKED_LIMIT:
                raise Rejected("%s is %d bytes" % (rel, st.st_size))
    return out


def link_out(top, rel):
    """The target of link rel if it points out of top, else None."""
    target = os.readlink(os.path.join(top, rel))
    real = os.path.realpath(os.path.join(top, rel))
    inside = os.path.realpath(top)
    return target if not (real == inside or real.startswith(inside + os.sep)) else None


def read_folder(top, wanted):
    """{wanted path: bytes} found in the folder, the names of the files it also holds."""
    entries = folder_entries(top)
    for rel, what in entries.items():
        if what == "link" and link_out(top, rel):
            raise Rejected("%s is a link out of the submission (to %s)" % (rel, os.readlink(os.path.join(top, rel))))
    files = [r for r, w in entries.items() if w in ("file", "link", "other")]
    found = {}
    for want in wanted:
        rel = find(files, want)
        if rel is None:
            continue
        if entries[rel] != "file":
            found[want] = Rejected("%s is a %s, not a file: send the file itself" % (
                rel, "link (to %s)" % os.readlink(os.path.join(top, rel)) if entries[rel] == "link" else "special file"))
            continue
        with open(os.path.join(top, rel), "rb") as f:
            found[want] = f.read(FILE_LIMIT + 1)
    return found, files


# -- archives --------------------------------------------------------------

class Capped(io.RawIOBase):
    """A stream that refuses to give more than limit bytes: an archive bomb stops here."""

    def __init__(self, raw, limit):
        self.raw, self.left = raw, limit

    def readable(self):
        return True

    def readinto(self, b):
        data = self.raw.read(min(len(b), max(self.left, 0) + 1))
        self.left -= len(data)
        if self.left < 0:
            raise Rejected("the archive unpacks to more than %d MiB (an archive bomb?)" % (UNPACKED_LIMIT >> 20))
        b[:len(data)] = data
        return len(data)


def open_stream(path):
    with open(path, "rb") as f:
        magic = f.read(6)
    raw = open(path, "rb")
    if magic[:2] == b"\x1f\x8b":
        return gzip.GzipFile(fileobj=raw)
    if magic[:3] == b"BZh":
        return bz2.BZ2File(raw)
    if magic[:6] == b"\xfd7zXZ\x00":
        return lzma.LZMAFile(raw)
    return raw


def clean(name):
    """A member's name as a relative path, or None if it climbs out (absolute, ..)."""
    name = name[2:] if name.startswith("./") else name
    norm = os.path.normpath(name)
    if os.path.isabs(name) or norm.startswith("..") or norm == ".":
        return None
    return norm


def read_tar(path, wanted):
    members, data, links = [], {}, {}
    try:
        stream = io.BufferedReader(Capped(open_stream(path), UNPACKED_LIMIT))
        with tarfile.open(fileobj=stream, mode="r|") as tar:
            for m in tar:
                if len(members) >= MEMBER_LIMIT:
                    raise Rejected("the archive holds more than %d entries" % MEMBER_LIMIT)
                name = clean(m.name)
                if name is None:
                    raise Rejected("%s climbs out of the archive's folder" % m.name)
                if m.issym() or m.islnk():
                    target = clean(os.path.normpath(os.path.join(os.path.dirname(name), m.linkname))) \
                        if m.issym() else clean(m.linkname)
                    if m.issym() and (os.path.isabs(m.linkname) or target is None):
                        raise Rejected("%s is a link out of the submission (to %s)" % (name, m.linkname))
                    links[name] = m.linkname
                if m.isdir():
                    continue
                members.append(name)
                if m.isfile() and any(find([name], w) for w in wanted):
                    f = tar.extractfile(m)
                    data[name] = f.read(FILE_LIMIT + 1)
    except (tarfile.TarError, EOFError, OSError, lzma.LZMAError) as e:
        raise Rejected("not a readable archive: %s" % e)
    return members, data, links


def read_zip(path, wanted):
    members, data, links = [], {}, {}
    try:
        with zipfile.ZipFile(path) as z:
            infos = z.infolist()
            if len(infos) > MEMBER_LIMIT:
                raise Rejected("the archive holds more than %d entries" % MEMBER_LIMIT)
            if sum(i.file_size for i in infos) > UNPACKED_LIMIT:
                raise Rejected("the archive unpacks to more than %d MiB (an archive bomb?)" % (UNPACKED_LIMIT >> 20))
            for i in infos:
                name = clean(i.filename)
                if name is None:
                    raise Rejected("%s climbs out of the archive's folder" % i.filename)
                if i.is_dir():
                    continue
                members.append(name)
                if (i.external_attr >> 16) & 0o170000 == 0o120000:
                    links[name] = z.read(i)[:200].decode(errors="replace")
                    if os.path.isabs(links[name]) or clean(os.path.join(os.path.dirname(name), links[name])) is None:
                        raise Rejected("%s is a link out of the submission (to %s)" % (name, links[name]))
                elif any(find([name], w) for w in wanted):
                    with z.open(i) as f:
                        data[name] = f.read(FILE_LIMIT + 1)
    except (zipfile.BadZipFile, OSError, NotImplementedError) as e:
        raise Rejected("not a readable archive: %s" % e)
    return members, data, links


def read_archive(path, wanted):
    members, data, links = (read_zip if path.endswith(".zip") else read_tar)(path, wanted)
    found = {}
    for want in wanted:
        name = find(members, want)
        if name is None:
            continue
        if name in links:
            found[want] = Rejected("%s is a link (to %s), not a file: send the file itself" % (name, links[name]))
        elif name in data:
            found[want] = data[name]
        else:
            found[want] = Rejected("%s is not a regular file" % name)
    return found, members


# -- patches ---------------------------------------------------------------

def touched(text):
    """The paths a patch changes (both sides of a rename), from its headers."""
    files = set()
    for line in text.decode(errors="replace").split("\n"):
        m = re.match(r"^diff --git a/(\S+) b/(\S+)", line)
        if m:
            files.update(m.groups())
        m = re.match(r"^(?:---|\+\+\+) [ab]/(\S+)", line)
        if m:
            files.add(m.group(1))
    return files


def read_patch(path, wanted, start):
    """Applies the patch, one wanted file at a time, to a scratch copy of that file (from
    start); returns the files it changed and every path the patch names."""
    with open(path, "rb") as f:
        text = f.read(UNPACKED_LIMIT + 1)
    if len(text) > UNPACKED_LIMIT:
        raise Rejected("the patch is more than %d MiB" % (UNPACKED_LIMIT >> 20))
    names = touched(text)
    if text.strip() and not names:
        raise Rejected("not a patch: no `diff --git` or `---`/`+++` header in it")
    found = {}
    for want in wanted:
        if want not in names:
            continue
        with tempfile.TemporaryDirectory(prefix="kobold-sub-") as scratch:
            full = os.path.join(scratch, want)
            before = read_or_none(os.path.join(start, want))
            if before is not None:
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "wb") as f:
                    f.write(before)
            r = subprocess.run(["git", "apply", "--whitespace=nowarn", "--include=" + want,
                                os.path.abspath(path)],
                               cwd=scratch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=dict(os.environ, GIT_CEILING_DIRECTORIES=os.path.dirname(scratch)))
            if r.returncode:
                found[want] = Rejected("the patch does not apply to %s: %s" % (
                    want, (r.stdout.strip().split("\n") or ["?"])[0]))
            elif os.path.islink(full):
                found[want] = Rejected("the patch makes %s a link (to %s): send the file itself" % (
                    want, os.readlink(full)))
            else:
                after = read_or_none(full)
                if after != before:
                    found[want] = after if after is not None else Rejected("the patch deletes %s" % want)
    return found, sorted(names)


def read_or_none(path):
    if not os.path.isfile(path) or os.path.islink(path):
        return None
    with open(path, "rb") as f:
        return f.read()


# -- the whole ---------------------------------------------------------------

def read(path, labs, start, patch=None):
    """{lab: LabFiles} for the labs ({lab: [files]}), and the names no lab takes.

    start is the starting tree (for patches); patch, a patch made from path (bundles)."""
    wanted = sorted({f for files in labs.values() for f in files})
    try:
        k = kind(path)
        if k in ("patch", "bundle"):
            found, names = read_patch(patch or path, wanted, start)
        elif k == "folder":
            found, names = read_folder(path, wanted)
        elif k == "archive":
            found, names = read_archive(path, wanted)
        else:
            raise Rejected("%s is not a patch, bundle, folder or archive" % os.path.basename(path))
    except Rejected as e:
        return {lab: LabFiles(status="rejected", reason=str(e)) for lab in labs}, []
    if not names:
        return {lab: LabFiles(status="empty", reason="the submission is empty") for lab in labs}, []
    taken = set()
    out = {}
    for lab, files in labs.items():
        got, problem = {}, None
        for f in files:
            v = found.get(f)
            if isinstance(v, Rejected):
                problem = problem or str(v)
            elif v is not None:
                try:
                    check_text(f, v)
                    got[f] = v
                except Rejected as e:
                    problem = problem or str(e)
        for f in files:
            name = f if k in ("patch", "bundle") else find(names, f)
            if name:
                taken.add(name)
        if problem:
            out[lab] = LabFiles(status="rejected", reason=problem)
        elif not got:
            what = "changes none of" if k in ("patch", "bundle") else "holds none of"
            out[lab] = LabFiles(status="missing", reason="the submission %s %s" % (what, ", ".join(files)))
        else:
            out[lab] = LabFiles(files=got)
    ignored = sorted(n for n in names if n not in taken)
    return out, ignored


def fingerprint(files):
    """A name for a set of files: equal sets, equal names (builds and results are shared)."""
    h = hashlib.sha256()
    for path in sorted(files):
        h.update(path.encode() + b"\0" + hashlib.sha256(files[path]).digest())
    return h.hexdigest()[:16]


def is_known(rel, tracked):
    """Whether rel (a name in a submission) is a file of the course's tree, perhaps below a top folder."""
    return rel in tracked or re.sub(r"^[^/]+/", "", rel) in tracked
