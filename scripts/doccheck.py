#!/usr/bin/env python3
"""doccheck.py: checks the shell transcripts in Kobold's Markdown docs against a real boot.

A transcript is a fenced block whose info string is `console`:

    ```console
    kobold:/# cat /sys/class/sbd/sbd0/version
    1.0
    ```

A line that begins with the prompt `kobold:CWD# ` is a command (the CWD must
be the one the shell shows at that point); the lines after it, up to the next
command, are its expected output. Output that varies from boot to boot is
written with `...`:

  - a line that is only `...` stands for any number of lines (none included);
  - `...` inside a line stands for any text on that line, as in
    `[...] sbd: 1 disk of 4096 KiB, major 254` or `KERNEL[...] add ...`.

Trailing spaces are ignored; everything else is compared exactly.

Each block boots a fresh kernel the way `make run` does (with a blank 16 MiB
virtio disk, serial number kobold-disk). An HTML comment on the line before
the fence changes that:

    <!-- check: skip -->                 not checked (say why in the text)
    <!-- check: continue -->             the same boot as the previous block
    <!-- check: append="sbd.nr=2" -->    this kernel command line
    <!-- check: qemu="-device ..." -->  these QEMU arguments too (devices beyond make run's)
    <!-- check: disk="mbr" -->            the disk holds an MBR: vda1 (4 MiB), vda2 extended,
                                         vda5 (2 MiB) inside it (tests/partimg.py writes it)
    <!-- check: solution -->             (labs) checked with the lab's solution applied
    <!-- check: start -->                (labs) the tree before any lab: checked on the
                                         committed tree by tests/test_labs.py, not by test_docs
    <!-- check: labs="1 3" -->            labs 1 and 3 may add to this output: the lines
                                         their checkers list in ADDS are accepted anywhere
                                         in it, and a `tree` count line may differ

A student who solves a lab changes what some transcripts print (lab 1 adds
`size_kb` to `ls /sys/class/sbd/sbd0`); the `labs` option keeps those
transcripts passing on a solved tree while they still fail on anything else.

Run it by hand: `python3 scripts/doccheck.py docs/tutorial.md` (or `make check-docs`);
`python3 scripts/doccheck.py --record [--append=ARGS] CMD...` boots and prints a
block of what CMD... print now, to paste into a doc (then put in the `...`).
"""
import difflib
import os
import re
import shlex
import shutil
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))

PROMPT_LINE = re.compile(r"^kobold:(/[^#\n]*)# (.*)$")
FENCE_OPEN = re.compile(r"^```console\s*$")
DIRECTIVE = re.compile(r"^<!--\s*check:(.*?)-->\s*$")


class Block:
    """One transcript: where it is, how to boot for it, and its steps."""

    def __init__(self, path, line, options):
        self.path = path
        self.line = line  # 1-based line of the opening fence
        self.options = options
        self.steps = []  # [(line, cwd, command, [expected lines])]

    @property
    def name(self):
        return "%s:%d" % (os.path.relpath(self.path, ROOT), self.line)

    def skipped(self):
        return "skip" in self.options

    def for_solution(self):
        return "solution" in self.options

    def continues(self):
        return "continue" in self.options

    def append(self):
        return self.options.get("append", "")

    def disk(self):
        return self.options.get("disk", "")

    def qemu(self):
        return shlex.split(self.options.get("qemu", ""))

    def for_start(self):
        return "start" in self.options

    def labs(self):
        return [int(n) for n in self.options.get("labs", "").replace(",", " ").split()]


def parse_options(text):
    opts = {}
    for word in shlex.split(text):
        key, _, value = word.partition("=")
        opts[key.strip()] = value
    return opts


def parse_file(path):
    """Returns the console blocks of one Markdown file, in order."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, i = [], 0
    while i < len(lines):
        if not FENCE_OPEN.match(lines[i]):
            i += 1
            continue
        m = DIRECTIVE.match(lines[i - 1]) if i > 0 else None
        block = Block(path, i + 1, parse_options(m.group(1)) if m else {})
        i += 1
        while i < len(lines) and not lines[i].startswith("```"):
            p = PROMPT_LINE.match(lines[i])
            if p:
                block.steps.append((i + 1, p.group(1), p.group(2), []))
            elif block.steps:
                block.steps[-1][3].append(lines[i])
            elif lines[i].strip():
                raise ValueError("%s:%d: a console block must start with a kobold:/# prompt line"
                                 % (path, i + 1))
            i += 1
        blocks.append(block)
        i += 1
    return blocks


def doc_files():
    """Every Markdown file whose transcripts are checked."""
    files = [os.path.join(ROOT, "README.md")]
    for sub in ("docs", os.path.join("docs", "labs")):
        d = os.path.join(ROOT, sub)
        if os.path.isdir(d):
            files += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".md"))
    return files


TREE_COUNT = re.compile(r"^\d+ director(y|ies), \d+ files?$")


def line_regex(line, extra=()):
    if line.strip() == "...":
        return r"(?:[^\n]*\n)*?"
    if extra and TREE_COUNT.match(line.rstrip()):
        return r"\d+ director(y|ies), \d+ files?[ \t]*\n"
    return ".*?".join(re.escape(part) for part in line.rstrip().split("...")) + r"[ \t]*\n"


_ADDS = {}


def lab_adds(lab):
    """The output lines lab N's solution may add (ADDS in labs/labN/check.py), as regexes."""
    if lab not in _ADDS:
        import importlib.util
        path = os.path.join(ROOT, "labs", "lab%d" % lab, "check.py")
        if not os.path.isfile(path):
            raise ValueError("labs=%d: there is no %s" % (lab, os.path.relpath(path, ROOT)))
        spec = importlib.util.spec_from_file_location("lab%d_check" % lab, path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _ADDS[lab] = list(getattr(mod, "ADDS", []))
    return _ADDS[lab]


def matches(expected, actual, extra=()):
    """True if the actual output lines fit the expected ones (with `...`); lines
    matching one of the extra regexes may appear anywhere in addition."""
    exp = list(expected)
    act = [a.rstrip() for a in actual]
    while exp and not exp[-1].strip():
        exp.pop()
    while act and not act[-1]:
        act.pop()
    more = "(?:(?:%s)[ \t]*\n)*" % "|".join("(?:%s)" % e for e in extra) if extra else ""
    pattern = more + "".join(line_regex(l, extra) + more for l in exp)
    text = "".join(a + "\n" for a in act)
    return re.fullmatch(pattern, text) is not None


class Failure(AssertionError):
    pass


def disk_image(directory, kind=""):
    """A disk like make run's build/disk.img: 16 MiB, sector 0 labelled; or, for
    kind "mbr", with a partition table instead of the label."""
    import partimg
    path = os.path.join(directory, "disk.img")
    if kind == "mbr":
        return partimg.mbr(path, 16, [(2048, 8192, partimg.LINUX), (10240, 8192, partimg.EXTENDED)],
                           [(12288, 4096)], ext_index=1)
    with open(path, "wb") as f:
        f.write(b"Kobold virtio disk: sector 0\n")
        f.truncate(16 * 1024 * 1024)
    return path


def boot_like_make_run(append="", kernel=None, disk_kind="", qemu=()):
    import kobold
    tmp = tempfile.mkdtemp(prefix="kobold-doc-")
    disk = disk_image(tmp, disk_kind)
    args = ["-drive", "file=%s,if=none,id=vd0,format=raw,cache=writeback" % disk,
            "-device", "virtio-blk-pci,drive=vd0,serial=kobold-disk"] + list(qemu)
    saved = kobold.KERNEL
    kobold.KERNEL = kernel or saved
    try:
        k = kobold.boot(append, qemu_args=args)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    finally:
        kobold.KERNEL = saved
    k.tmpdir = tmp
    k.child.delaybeforesend = None  # at the prompt: pexpect's 50 ms before each command is waste
    return k


def shutdown(k):
    k.close()
    shutil.rmtree(getattr(k, "tmpdir", ""), ignore_errors=True)


def run_block(k, block):
    """Runs one block's commands on a booted kernel; raises Failure on the first mismatch."""
    extra = [a for lab in block.labs() for a in lab_adds(lab)]
    for line, cwd, command, expected in block.steps:
        where = "%s:%d" % (os.path.relpath(block.path, ROOT), line)
        if k.cwd() != cwd:
            raise Failure("%s: the prompt shows %s but the shell is in %s" % (where, cwd, k.cwd()))
        if command.strip() in ("poweroff", "reboot"):
            raise Failure("%s: %s ends the session; leave it out of checked transcripts"
                          % (where, command))
        actual = k.run(command).split("\n")
        if not matches(expected, actual, extra):
            diff = "\n".join(difflib.unified_diff(
                [e.rstrip() for e in expected], [a.rstrip() for a in actual],
                "documented", "kobold printed", lineterm=""))
            raise Failure("%s: `%s` printed something else than the doc says:\n%s"
                          % (where, command, diff))


def check_blocks(blocks, kernel=None):
    """Checks blocks in order (continue blocks share the previous boot). Returns failures."""
    failures, k, broken = [], None, False
    try:
        for block in blocks:
            if block.continues() and broken:
                failures.append("%s\nnot run: the block it continues failed" % block.name)
                continue
            if not block.continues() or k is None:
                if k:
                    shutdown(k)
                k = boot_like_make_run(block.append(), kernel, block.disk(), block.qemu())
            try:
                run_block(k, block)
                broken = False
            except AssertionError as e:
                failures.append("%s\n%s" % (block.name, e))
                shutdown(k)
                k, broken = None, True
    finally:
        if k:
            shutdown(k)
    return failures


def record(commands, append=""):
    """Prints a console block of what the commands print now (for writing docs)."""
    k = boot_like_make_run(append)
    try:
        print("```console")
        for c in commands:
            cwd = k.cwd()
            out = k.run(c).rstrip("\n")
            print("kobold:%s# %s" % (cwd, c) + ("\n" + out if out else ""))
        print("```")
    finally:
        shutdown(k)


def main(argv):
    if len(argv) > 1 and argv[1] == "--record":
        append = argv[2][len("--append="):] if argv[2:3] and argv[2].startswith("--append=") else ""
        record([c for c in argv[2:] if not c.startswith("--append=")], append)
        return 0
    files = argv[1:] or doc_files()
    blocks = [b for f in files for b in parse_file(f)
              if not b.skipped() and not b.for_solution() and not b.for_start()]
    failures = check_blocks(blocks)
    for f in failures:
        print("FAIL " + f + "\n")
    print("%d transcripts checked, %d failed" % (len(blocks), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
