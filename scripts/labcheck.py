#!/usr/bin/env python3
"""labcheck.py: the checklist that `make check-lab LAB=N` prints.

A lab's checker (labs/labN/check.py) is a list of checks, each a function
with a one-line docstring saying what it expects. They run in order on one
booted kernel (a check may ask for a fresh boot with its own command line);
a failed assertion, a kernel panic or a timeout fails that check only, and
the kernel is booted again for the next one; when the kernel died, the
checklist shows its oops, BUG or PANIC report and its last lines, not the
boot banner. The checklist ends with a count, and the exit status is 0 only
if every check passed.

A kernel that never reaches its prompt (it hangs, prints forever or panics
at boot: LABCHECK_BOOT_TIMEOUT seconds, 20 by default) fails every check at
once, with the reason, instead of each check waiting out its own timeout.

For grading: a check is worth `fn.points` (default 1); a teacher's hidden
checks (labs/hidden/labN.py or $LABCHECK_HIDDEN/labN.py, `CHECKS = [...]`)
run after the lab's own; with LABCHECK_JSON=FILE the results are also
written there as JSON after each check, with the lab's possible points and a
status (ok, no-boot, panic) (scripts/grade, scripts/grade-class).

A kernel is saved at its first prompt (QEMU's savevm, into a qcow2 drive of
the session's for each set of QEMU options, a snapshot per command line) and
restored (loadvm) when a check needs it as booted again, in the same QEMU or
in a new one started from it (-loadvm): a tenth of a boot's CPU. Only QEMU
options a snapshot restores whole have one (SAVEABLE: -smp, -initrd, -m); a
kernel with another device or a disk boots every time, as every kernel does
with LABCHECK_SNAPSHOT=0. The JSON says how many boots and restores a
checker made and the CPU it took.

With LABCHECK_LOG=FILE (`make check-lab` names labs/labN/.progress) each run
adds a line to FILE, and a lab done ends with the time on it (labprogress.py).

LABCHECK_STOP_AT_FAIL=1 stops at the first failed check (the rest fail as not
run): for tests that only need to see a tree fail, without a boot per check.
"""
import hashlib
import json
import os
import re
import resource
import shutil
import struct
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import kobold  # noqa: E402
import labprogress  # noqa: E402

COLOUR = sys.stdout.isatty() and os.environ.get("NO_COLOR") is None
# How long a boot may take to reach the prompt (a second or two, unloaded).
BOOT_TIMEOUT = float(os.environ.get("LABCHECK_BOOT_TIMEOUT", "20"))
STOP_AT_FAIL = os.environ.get("LABCHECK_STOP_AT_FAIL") == "1"
# Kernels are saved at their first prompt and restored instead of booted again (the
# module's comment); LABCHECK_SNAPSHOT=0 boots every time instead.
SNAPSHOT = os.environ.get("LABCHECK_SNAPSHOT", "1") != "0"
CLUSTER = 1 << 16


def empty_qcow2(path, size=64 << 20):
    """An empty qcow2 image (version 2, 64 KiB clusters: the header, the refcount table and
    its one block, the L1 table), for savevm to keep its snapshot in (no qemu-img needed)."""
    img = bytearray(4 * CLUSTER)
    struct.pack_into(">4sIQIIQIIQQIIQ", img, 0, b"QFI\xfb", 2, 0, 0, 16, size, 0, 1, 3 * CLUSTER,
                     CLUSTER, 1, 0, 0)
    struct.pack_into(">Q", img, CLUSTER, 2 * CLUSTER)  # the refcount table's block: cluster 2
    for i in range(4):
        struct.pack_into(">H", img, 2 * CLUSTER + 2 * i, 1)  # clusters 0 to 3 in use
    with open(path, "wb") as f:
        f.write(img)


class BootFailed(AssertionError):
    """The kernel did not reach its prompt: panicked, stopped or hung."""

    def __init__(self, why, output, panic):
        super().__init__(output)
        self.why, self.panic = why, panic


def paint(text, code):
    return "\033[%sm%s\033[0m" % (code, text) if COLOUR else text


# The QEMU options a snapshot is known to restore whole (the machine's own devices, the
# CPUs, an initramfs); another device (-device edu: its registers are not saved) or a
# disk boots anew every time.
SAVEABLE = {"-smp", "-initrd", "-m"}


def saveable(qemu_args):
    """True if a kernel booted with these extra QEMU options can be saved and restored."""
    return all(a in SAVEABLE for a in qemu_args[::2])


class Session:
    """The booted kernel the checks share; run() returns what a command printed."""

    READ_ONLY = {"cat", "ls", "tree", "readlink", "kobjects", "meminfo", "lsmod", "lsblk",
                 "lspci", "fds", "dmesg", "pwd", "help"}

    def __init__(self):
        self.k = None
        self.append = None
        self.how = None
        self.sockdir = None
        self.dirty = False
        self.booted = False  # once: a later failure is the check's, not the boot's
        self.boots, self.boot_seconds = 0, 0.0  # for the JSON: where a checker's time goes
        self.restores = 0
        self.snapdir = None  # the snapshot drives, one per set of QEMU options, for the session
        self.saved = set()  # (qemu_args, append) of the kernels saved in them

    def drive(self, qemu_args):
        """The snapshot drive of a set of QEMU options: (path, made now)."""
        if self.snapdir is None:
            self.snapdir = tempfile.mkdtemp(prefix="labcheck-snap-")
        name = hashlib.sha1(repr(tuple(qemu_args)).encode()).hexdigest()[:12]
        path = os.path.join(self.snapdir, name + ".qcow2")
        if os.path.exists(path):
            return path, False
        empty_qcow2(path)
        return path, True

    @staticmethod
    def tag(append):
        """The snapshot's name for a command line."""
        return "booted-" + hashlib.sha1(append.encode()).hexdigest()[:12]

    def monitor_sock(self):
        """A new directory of the session's for QEMU's monitor socket; the socket's path."""
        self.sockdir = tempfile.mkdtemp(prefix="labcheck-")
        return os.path.join(self.sockdir, "monitor.sock")

    def boot(self, append="", qemu_args=(), monitor=False):
        """qemu_args: more QEMU options (disks); monitor: QEMU's monitor on a socket (self.monitor).
        A kernel saved with these options and command line is started from its snapshot (a new
        QEMU, no boot); else it boots, and is saved at its first prompt."""
        self.close()
        qemu_args = tuple(qemu_args)
        snapshot = SNAPSHOT and saveable(qemu_args)
        extra = []
        sock = self.monitor_sock() if monitor or snapshot else None
        if snapshot:
            path, _ = self.drive(qemu_args)
            extra = ["-drive", "if=none,id=labcheck-snapshot,format=qcow2,file=%s" % path]
        t0 = time.monotonic()
        if snapshot and (qemu_args, append) in self.saved:
            self.k = kobold.Kobold(append, qemu_args=list(qemu_args) + extra + ["-loadvm", self.tag(append)],
                                   monitor=sock)
            if self.answers():
                self.restores += 1
                self.boot_seconds += time.monotonic() - t0
                self.append, self.how, self.dirty = append, (qemu_args, True), False
                return self
            self.saved.discard((qemu_args, append))
            self.close()
            sock = self.monitor_sock()  # snapshot: a monitor is needed to save again
        try:
            self.k = kobold.boot(append, qemu_args=list(qemu_args) + extra, monitor=sock,
                                 boot_timeout=BOOT_TIMEOUT)
        except AssertionError as e:
            if self.booted:
                raise
            panic = isinstance(e, kobold.KernelPanic)
            why = "the kernel panicked before its prompt" if panic else \
                "the kernel did not reach its prompt in %g s" % BOOT_TIMEOUT \
                if str(e).startswith("timed out") else "the kernel did not reach its prompt"
            raise BootFailed(why, str(e), panic)
        self.booted = True
        self.boots += 1
        if snapshot:
            self.k.child.delaybeforesend = None
            self.k.run("udevadm settle")  # the boot's events handled: none left to race a restore
            # A writable disk that is not qcow2 (a lab's raw images) refuses savevm: boot then.
            reply = self.k.monitor("savevm " + self.tag(append))
            if "rror" not in reply:
                self.saved.add((qemu_args, append))
        self.boot_seconds += time.monotonic() - t0
        self.append, self.how, self.dirty = append, (qemu_args, monitor or snapshot), False
        return self

    def answers(self):
        """True once the restored kernel answers at its prompt (a prompt it printed before
        it was saved may come first)."""
        mark = "labcheck-restored-%d" % self.restores
        self.k.child.delaybeforesend = None
        try:
            out = self.k.run("echo " + mark)
            for _ in range(3):
                if mark in out.split():
                    return True
                self.k.wait_prompt()
                out = self.k.output()
        except AssertionError:
            pass
        return False

    def restore(self, append):
        """The kernel saved with this QEMU and append back, as it was at its first prompt;
        False if that failed (boot then)."""
        t0 = time.monotonic()
        reply = self.k.monitor("loadvm " + self.tag(append))
        if "rror" in reply or not self.answers():
            return False
        self.restores += 1
        self.boot_seconds += time.monotonic() - t0
        self.append, self.dirty = append, False
        return True

    def fresh(self, append="", qemu_args=(), monitor=False):
        """A kernel as it booted with append (and qemu_args): the current one if nothing changed
        it, else a saved one restored, else a new boot."""
        qemu_args = tuple(qemu_args)
        same_qemu = self.k is not None and self.how[0] == qemu_args and (self.how[1] or not monitor)
        if same_qemu and self.append == append and not self.dirty:
            return self
        if same_qemu and (qemu_args, append) in self.saved and self.k.child.isalive():
            try:
                if self.restore(append):
                    return self
            except AssertionError:
                pass
        self.boot(append, qemu_args, monitor)
        return self

    def monitor(self, command):
        """A command to QEMU's monitor (boot with monitor=True); its reply. The kernel counts as changed."""
        self.dirty = True
        return self.k.monitor(command)

    def run(self, command):
        if self.k is None:
            self.boot()
        words = command.split()
        if not words or words[0] not in self.READ_ONLY or ">" in command:
            self.dirty = True
        # pexpect sleeps 50 ms before each send, for a child that turns its echo off after
        # its prompt; the shell has printed its prompt: in a walk of hundreds of commands,
        # those sleeps were half of a checker's time (kobold.send paces the UART itself).
        self.k.child.delaybeforesend = None
        return self.k.run(command)

    def text(self, command):
        return self.run(command).strip()

    def lines(self, command):
        return [l for l in self.run(command).split("\n") if l.strip()]

    def ls(self, path):
        out = self.run("ls " + path)
        return [] if "cannot access" in out else out.split()

    def mem(self):
        """(bytes, objects) the kernel's allocator has in use, once udevd has handled the
        events so far (it allocates while it handles one: a figure taken in the middle
        differed from the next by a kilobyte or so, a leak that was not)."""
        if self.k is None:
            self.boot()
        self.k.run("udevadm settle")  # changes nothing: not self.run, which would mark it so
        fields = dict(re.findall(r"^(\w+):\s+(\d+)$", self.run("meminfo"), re.M))
        return int(fields["BytesInUse"]), int(fields["ObjectsInUse"])

    def snapshot(self):
        """What a leak would change: allocator figures and the live kobjects (sorted)."""
        return self.mem(), sorted(self.lines("kobjects")[1:])

    def close(self):
        """Ends QEMU (the session's snapshots stay, for the next boot: end())."""
        if self.k:
            self.k.close()
            self.k = None
        if self.sockdir:
            shutil.rmtree(self.sockdir, ignore_errors=True)
            self.sockdir = None

    def end(self):
        """Ends QEMU and removes the session's snapshots."""
        self.close()
        self.saved = set()
        if self.snapdir:
            shutil.rmtree(self.snapdir, ignore_errors=True)
            self.snapdir = None


def expect(condition, message):
    """Fails the current check with a message the student can act on."""
    if not condition:
        raise AssertionError(message)


def expect_eq(got, want, what):
    expect(got == want, "%s: expected %r, got %r" % (what, want, got))


def expect_same(before, after):
    """Compares two snapshots; names what leaked."""
    gone = [l for l in after[1] if l not in before[1]]
    back = [l for l in before[1] if l not in after[1]]
    expect(not gone and not back, "kobjects differs: now also\n  %s\nand no longer\n  %s"
           % ("\n  ".join(gone) or "-", "\n  ".join(back) or "-"))
    expect(after[0] == before[0], "memory in use (bytes, objects) was %r, is now %r: a leak"
           % (before[0], after[0]))


OOPS = re.compile(r"^(?:\[[ 0-9.]*\] )?(?:BUG:|Oops|PANIC|WARNING:|Kernel panic)")
LOST = ("kernel panic", "timed out waiting", "QEMU exited early")


def at_step(e, step):
    """A failure's message naming the step it came at: its first line (`kernel panic`,
    ...) followed by "(at `STEP`)", then the rest, so that explain() still knows it."""
    first, _, rest = str(e).partition("\n")
    return "%s (at `%s`)\n%s" % (first.rstrip(":"), step, rest)


def explain(text, limit=12):
    """The lines of a failure worth showing: the message's first line, the failure that
    failslab injected (and where) if one came before, and the oops, BUG or PANIC block
    with the two lines before it (what ran); when the kernel stopped answering, its last
    lines; else the checker's own message, its first 2 * limit lines and how many more there were."""
    lines = text.split("\n")
    at = next((i for i, l in enumerate(lines) if OOPS.match(l)), None)
    if at is not None:
        lost = lines[0].startswith(LOST)
        shown = [lines[0]] if at > 2 else []  # what the checker did, or how the kernel was lost
        injected = next((i for i in range(1, at - 2) if "FAULT_INJECTION" in lines[i]), None)
        if injected is not None:  # the failure failslab made, and where: the report's cause
            shown += lines[injected:min(injected + 2, at - 2)] + (["[...]"] if injected + 2 < at - 2 else [])
        shown += lines[max(at - 2, 0):at + limit + 2]
        if lost and len(lines) - limit // 2 > at + limit + 2:  # and how it ended
            shown += ["[...]"] + lines[-(limit // 2):]
        return shown
    if lines[0].startswith(LOST) and len(lines) > limit:
        return [lines[0], "[... the last lines the kernel printed:]"] + lines[-limit:]
    if len(lines) > 2 * limit:  # the checker's own message: two tables fit
        return lines[:2 * limit] + ["[... %d more lines]" % (len(lines) - 2 * limit)]
    return lines


def what_of(fn):
    what = (fn.__doc__ or fn.__name__).strip().split("\n")[0]
    return what + (" (hidden)" if getattr(fn, "hidden", False) else "")


def record(results, fn, passed, message="", seconds=0.0):
    results.append({"check": fn.__name__, "hidden": getattr(fn, "hidden", False),
                    "what": (fn.__doc__ or fn.__name__).strip().split("\n")[0],
                    "points": getattr(fn, "points", 1), "passed": passed, "message": message,
                    "seconds": round(seconds, 2)})


def hidden_checks():
    """The teacher's hidden checks for this lab: CHECKS in labs/hidden/labN.py, or in
    $LABCHECK_HIDDEN/labN.py (kept out of the students' copy, as labs/solutions/ is)."""
    m = re.match(r"lab(\d+)$", os.path.basename(os.path.dirname(os.path.abspath(sys.argv[0]))))
    d = os.environ.get("LABCHECK_HIDDEN") or os.path.join(ROOT, "labs", "hidden")
    path = os.path.join(d, "lab%s.py" % m.group(1)) if m else ""
    if not os.path.isfile(path):
        return []
    import importlib.util
    spec = importlib.util.spec_from_file_location("hidden_" + m.group(1), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    for fn in mod.CHECKS:
        fn.hidden = True
    return list(mod.CHECKS)


def cpu_seconds():
    """CPU time of the checker and its finished children (the QEMUs it closed)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def save(title, checks, results, status, session=None):
    """The results so far, for scripts/grade and grade-class (rewritten after each check, so
    that a checker stopped by a timeout leaves what it found); possible counts every check."""
    if not os.environ.get("LABCHECK_JSON"):
        return
    with open(os.environ["LABCHECK_JSON"] + ".new", "w") as f:
        json.dump({"title": title, "status": status, "checks": results,
                   "possible": sum(getattr(fn, "points", 1) for fn in checks),
                   "boots": session.boots if session else 0,
                   "boot_seconds": round(session.boot_seconds, 2) if session else 0,
                   "restores": session.restores if session else 0,
                   "cpu_seconds": round(cpu_seconds(), 2)}, f, indent=1)
    os.replace(os.environ["LABCHECK_JSON"] + ".new", os.environ["LABCHECK_JSON"])


def fail(results, fn, e, why=None, seconds=0.0):
    """Prints and records a failed check (why: a line before what the kernel printed);
    returns the lines shown."""
    print("  %s  %s" % (paint("FAIL", "31;1"), what_of(fn)))
    msg = (str(e).strip() if isinstance(e, AssertionError) else "") or \
        traceback.format_exc().strip().split("\n")[-1]
    shown = explain(msg)
    if why:  # the reason in words, instead of pexpect's
        shown = [why + ":"] + [l for l in shown[:1] if not l.startswith(LOST)] + shown[1:]
    for line in shown:
        print("        " + line)
    record(results, fn, False, "\n".join(shown), seconds)
    return shown


def run(title, checks, argv=None):
    """Runs the checks (and the hidden ones), prints the checklist, returns the exit status.

    A kernel that never reaches its prompt fails every check at once, with the reason
    (status no-boot, or panic); a panic in a later check makes the status panic."""
    checks = list(checks) + hidden_checks()
    print(paint(title, "1"))
    print("kernel: %s" % os.path.relpath(kobold.KERNEL, os.getcwd()))
    s, passed, results, status = Session(), 0, [], "ok"
    try:
        for i, fn in enumerate(checks):
            save(title, checks, results, status, s)
            t0 = time.monotonic()
            try:
                fn(s)
            except BootFailed as e:
                status = "panic" if e.panic else "no-boot"
                fail(results, fn, e, e.why, time.monotonic() - t0)
                for rest in checks[i + 1:]:
                    fail(results, rest, AssertionError("not run: " + e.why))
                break
            except Exception as e:  # noqa: BLE001 - every error is a failed check
                if isinstance(e, kobold.KernelPanic):
                    status = "panic"
                fail(results, fn, e, seconds=time.monotonic() - t0)
                s.close()  # the next check starts from a fresh boot
                if STOP_AT_FAIL:
                    for rest in checks[i + 1:]:
                        fail(results, rest, AssertionError("not run: stopped at the first failure"))
                    break
                continue
            print("  %s  %s" % (paint("PASS", "32;1"), what_of(fn)))
            record(results, fn, True, seconds=time.monotonic() - t0)
            passed += 1
    finally:
        s.end()
        save(title, checks, results, status, s)
    total = len(checks)
    log = labprogress.log_path()
    if log:
        labprogress.append(log, passed, total)
    if passed == total:
        print(paint("%d of %d checks pass: the lab is done." % (passed, total), "32;1"))
        spent = labprogress.summary(log) if log else None
        if spent:
            print(spent)
        return 0
    print(paint("%d of %d checks pass." % (passed, total), "31;1")
          + " Fix the first FAIL, then run the checker again.")
    return 1
